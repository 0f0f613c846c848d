package io.krabka.kernel.broker;

import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.transaction.TransactionCoordinator;
import java.util.HashSet;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ListTransactionsRequestData;
import org.apache.kafka.common.message.ListTransactionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.ListTransactionsRequest;
import org.apache.kafka.common.resource.ResourceType;

/**
 * ListTransactions (v0-2): the transactional ids this node coordinates, filtered by state, producer id, time open (v1)
 * and a regular expression over the id (v2; INVALID_REGULAR_EXPRESSION for one that is not), as Kafka's
 * ({@code kafka-transactions.sh list}), leaving out the ids the principal may not DESCRIBE.
 */
public final class ListTransactionsHandler implements ApiHandler {

    private final AuthHelper auth;
    private final TransactionCoordinator coordinator;

    /** A handler answering through {@code coordinator}. */
    public ListTransactionsHandler(AuthHelper auth, TransactionCoordinator coordinator) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.LIST_TRANSACTIONS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        ListTransactionsRequestData data = ((ListTransactionsRequest) request.body()).data();
        ListTransactionsResponseData response = coordinator.listTransactions(
                new HashSet<>(data.producerIdFilters()),
                new HashSet<>(data.stateFilters()),
                data.durationFilter(),
                data.transactionalIdPattern());
        // Only the transactional ids the principal may DESCRIBE.
        response.setTransactionStates(response.transactionStates().stream()
                .filter(state -> auth.authorize(
                        request, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, state.transactionalId()))
                .toList());
        return CompletableFuture.completedFuture(Response.send(response.setThrottleTimeMs(0)));
    }
}
