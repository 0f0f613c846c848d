package io.krabka.kernel.broker;

import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.transaction.TransactionCoordinator;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeTransactionsResponseData;
import org.apache.kafka.common.message.DescribeTransactionsResponseData.TransactionState;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeTransactionsRequest;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DescribeTransactions: each transactional id's producer, state, timeout, start and partitions, as Kafka's coordinator
 * answers ({@code kafka-transactions.sh describe}). An id the principal may not DESCRIBE is
 * TRANSACTIONAL_ID_AUTHORIZATION_FAILED, and only the partitions of topics it may DESCRIBE are shown.
 */
public final class DescribeTransactionsHandler implements ApiHandler {

    private final AuthHelper auth;
    private final TransactionCoordinator coordinator;

    /** A handler answering through {@code coordinator}. */
    public DescribeTransactionsHandler(AuthHelper auth, TransactionCoordinator coordinator) {
        this.auth = Objects.requireNonNull(auth, "auth");
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
            TransactionState state =
                    auth.authorize(request, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, transactionalId)
                            ? coordinator.describeTransaction(transactionalId)
                            : new TransactionState()
                                    .setTransactionalId(transactionalId)
                                    .setErrorCode(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code());
            // Only the partitions of topics the principal may DESCRIBE.
            state.topics()
                    .removeIf(topic ->
                            !auth.authorize(request, AclOperation.DESCRIBE, ResourceType.TOPIC, topic.topic()));
            response.transactionStates().add(state);
        }
        return CompletableFuture.completedFuture(Response.send(response));
    }
}
