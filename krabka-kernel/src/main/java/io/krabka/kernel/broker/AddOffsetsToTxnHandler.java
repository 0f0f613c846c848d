package io.krabka.kernel.broker;

import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.transaction.TransactionCoordinator;
import io.krabka.kernel.transaction.TransactionVersion;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.message.AddOffsetsToTxnResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AddOffsetsToTxnRequest;
import org.apache.kafka.common.resource.ResourceType;

/**
 * AddOffsetsToTxn (v0-4), as Kafka's {@code handleAddOffsetsToTxnRequest}: adds the partition of
 * {@code __consumer_offsets} that holds the group to the transaction, before TxnOffsetCommit (transaction version
 * 0; at version 2 TxnOffsetCommit adds it itself). Before v2 PRODUCER_FENCED is INVALID_PRODUCER_EPOCH. WRITE on the
 * transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED), then READ on the group (GROUP_AUTHORIZATION_FAILED).
 */
public final class AddOffsetsToTxnHandler implements ApiHandler {

    private final AuthHelper auth;
    private final TransactionCoordinator transactions;
    private final GroupCoordinator groups;

    /** A handler adding the offsets partition of a group through {@code transactions}. */
    public AddOffsetsToTxnHandler(AuthHelper auth, TransactionCoordinator transactions, GroupCoordinator groups) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.groups = Objects.requireNonNull(groups, "groups");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.ADD_OFFSETS_TO_TXN;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        AddOffsetsToTxnRequestData data = ((AddOffsetsToTxnRequest) request.body()).data();
        if (!auth.authorize(request, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, data.transactionalId())) {
            return answer(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        }
        if (!auth.authorize(request, AclOperation.READ, ResourceType.GROUP, data.groupId())) {
            return answer(Errors.GROUP_AUTHORIZATION_FAILED);
        }
        Errors error = transactions.addPartitions(
                data.transactionalId(),
                data.producerId(),
                data.producerEpoch(),
                Set.of(groups.offsetsPartition(data.groupId())),
                TransactionVersion.TV_0);
        if (request.apiVersion() < 2 && error == Errors.PRODUCER_FENCED) {
            error = Errors.INVALID_PRODUCER_EPOCH;
        }
        return answer(error);
    }

    private static CompletableFuture<Response> answer(Errors error) {
        return CompletableFuture.completedFuture(Response.send(
                new AddOffsetsToTxnResponseData().setThrottleTimeMs(0).setErrorCode(error.code())));
    }
}
