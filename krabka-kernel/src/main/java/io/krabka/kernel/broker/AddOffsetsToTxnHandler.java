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
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.message.AddOffsetsToTxnResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AddOffsetsToTxnRequest;

/**
 * AddOffsetsToTxn (v0-4), as Kafka's {@code handleAddOffsetsToTxnRequest}: adds the partition of
 * {@code __consumer_offsets} that holds the group to the transaction, before TxnOffsetCommit (transaction version
 * 0; at version 2 TxnOffsetCommit adds it itself). Before v2 PRODUCER_FENCED is INVALID_PRODUCER_EPOCH.
 */
public final class AddOffsetsToTxnHandler implements ApiHandler {

    private final TransactionCoordinator transactions;
    private final GroupCoordinator groups;

    /** A handler adding the offsets partition of a group through {@code transactions}. */
    public AddOffsetsToTxnHandler(TransactionCoordinator transactions, GroupCoordinator groups) {
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
        Errors error = transactions.addPartitions(
                data.transactionalId(),
                data.producerId(),
                data.producerEpoch(),
                Set.of(groups.offsetsPartition(data.groupId())),
                TransactionVersion.TV_0);
        if (request.apiVersion() < 2 && error == Errors.PRODUCER_FENCED) {
            error = Errors.INVALID_PRODUCER_EPOCH;
        }
        return CompletableFuture.completedFuture(Response.send(
                new AddOffsetsToTxnResponseData().setThrottleTimeMs(0).setErrorCode(error.code())));
    }
}
