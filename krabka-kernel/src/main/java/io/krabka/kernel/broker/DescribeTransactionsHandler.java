package io.krabka.kernel.broker;

import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.transaction.TransactionCoordinator;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.DescribeTransactionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.DescribeTransactionsRequest;

/**
 * DescribeTransactions: each transactional id's producer, state, timeout, start and partitions, as Kafka's coordinator
 * answers ({@code kafka-transactions.sh describe}).
 */
public final class DescribeTransactionsHandler implements ApiHandler {

    private final TransactionCoordinator coordinator;

    /** A handler answering through {@code coordinator}. */
    public DescribeTransactionsHandler(TransactionCoordinator coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.DESCRIBE_TRANSACTIONS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        DescribeTransactionsResponseData response = new DescribeTransactionsResponseData().setThrottleTimeMs(0);
        for (String transactionalId :
                ((DescribeTransactionsRequest) request.body()).data().transactionalIds()) {
            response.transactionStates().add(coordinator.describeTransaction(transactionalId));
        }
        return CompletableFuture.completedFuture(Response.send(response));
    }
}
