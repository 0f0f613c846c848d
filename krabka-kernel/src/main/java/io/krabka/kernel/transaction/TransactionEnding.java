package io.krabka.kernel.transaction;

import io.krabka.kernel.log.TransactionResult;
import io.krabka.kernel.transaction.TransactionCoordinator.EndTxnResult;
import io.krabka.kernel.transaction.TransactionStateManager.CoordinatorEpochAndTxnMetadata;
import java.time.InstantSource;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.protocol.Errors;

/**
 * The ending of transactions: by their producer (EndTxn, decided as {@link EndTxnDecision} says) and by the
 * coordinator, which fences and aborts an open transaction for a new producer of its id or after its timeout. The
 * decision is written to {@code __transaction_state}, then {@link TransactionCompletion} writes the markers and the
 * completion.
 */
final class TransactionEnding {

    private static final System.Logger LOG = System.getLogger(TransactionEnding.class.getName());

    private final TransactionStateManager manager;
    private final TransactionCompletion completions;
    private final ProducerIdManager producerIds;
    private final InstantSource time;
    private final Supplier<TransactionVersion> transactionVersionLevel;

    /**
     * An ending.
     *
     * @param transactionVersionLevel the cluster's finalized {@code transaction.version}: how the coordinator aborts
     */
    TransactionEnding(
            TransactionStateManager manager,
            TransactionCompletion completions,
            ProducerIdManager producerIds,
            InstantSource time,
            Supplier<TransactionVersion> transactionVersionLevel) {
        this.manager = Objects.requireNonNull(manager, "manager");
        this.completions = Objects.requireNonNull(completions, "completions");
        this.producerIds = Objects.requireNonNull(producerIds, "producerIds");
        this.time = Objects.requireNonNull(time, "time");
        this.transactionVersionLevel = Objects.requireNonNull(transactionVersionLevel, "transactionVersionLevel");
    }

    /**
     * EndTxn (Kafka's {@code handleEndTransaction}): decides the transaction, writes its markers and completes it.
     * At transaction version 2 every transaction ends with an epoch bump, which the result gives the producer, and a
     * producer may abort with no transaction open.
     */
    EndTxnResult endTransaction(
            String transactionalId,
            long producerId,
            short producerEpoch,
            TransactionResult result,
            TransactionVersion clientVersion) {
        if (transactionalId == null || transactionalId.isEmpty()) {
            return EndTxnResult.error(Errors.INVALID_REQUEST);
        }
        try {
            CoordinatorEpochAndTxnMetadata entry = manager.getTransactionState(transactionalId)
                    .orElseThrow(Errors.INVALID_PRODUCER_ID_MAPPING::exception);
            TransactionMetadata metadata = entry.metadata();
            TxnTransitMetadata completion;
            synchronized (metadata) {
                EndTxnDecision decision = clientVersion.supportsEpochBump()
                        ? EndTxnDecision.decideV2(metadata, producerId, producerEpoch, result)
                        : EndTxnDecision.decideV1(metadata, producerId, producerEpoch, result);
                if (decision instanceof EndTxnDecision.Respond(Errors error, long id, short epoch)) {
                    return new EndTxnResult(error, id, epoch);
                }
                EndTxnDecision.Prepare prepare = (EndTxnDecision.Prepare) decision;
                long nextProducerId = clientVersion.supportsEpochBump() && metadata.isProducerEpochExhausted()
                        ? producerIds.generateProducerId().join()
                        : TransactionMetadata.NO_PRODUCER_ID;
                manager.writeTransition(
                        transactionalId,
                        entry.coordinatorEpoch(),
                        metadata,
                        metadata.prepareAbortOrCommit(
                                prepare.next(),
                                clientVersion,
                                nextProducerId,
                                time.millis(),
                                prepare.noPartitionAdded()));
                completion = metadata.prepareComplete(time.millis());
            }
            completions.complete(transactionalId, entry.coordinatorEpoch(), metadata, completion, result);
            return new EndTxnResult(Errors.NONE, completion.producerId(), completion.producerEpoch());
        } catch (ApiException e) {
            return EndTxnResult.error(Errors.forException(e));
        } catch (java.util.concurrent.CompletionException e) {
            return EndTxnResult.error(Errors.forException(e.getCause()));
        }
    }

    /**
     * Fences the producer of an open transaction (its epoch bumped) and aborts the transaction: for a new producer of
     * the id (InitProducerId) and for a transaction past its timeout. Nothing is done if the transaction moved on.
     */
    EndTxnResult fenceAndAbort(
            String transactionalId, CoordinatorEpochAndTxnMetadata entry, long producerId, short producerEpoch) {
        TransactionMetadata metadata = entry.metadata();
        TransactionVersion version = transactionVersionLevel.get();
        TxnTransitMetadata completion;
        synchronized (metadata) {
            if (metadata.state() != TransactionState.ONGOING
                    || metadata.pendingTransitionInProgress()
                    || metadata.producerId() != producerId
                    || metadata.producerEpoch() != producerEpoch) {
                return EndTxnResult.error(Errors.CONCURRENT_TRANSACTIONS);
            }
            TxnTransitMetadata fence = metadata.prepareFenceProducerEpoch();
            if (version.supportsEpochBump()) {
                // The abort bumps the epoch itself at version 2.
                metadata.abandonTransition();
            } else {
                metadata.fenceEpoch(fence.producerEpoch());
            }
            long nextProducerId = version.supportsEpochBump() && metadata.isProducerEpochExhausted()
                    ? producerIds.generateProducerId().join()
                    : TransactionMetadata.NO_PRODUCER_ID;
            TxnTransitMetadata abort = metadata.prepareAbortOrCommit(
                    TransactionState.PREPARE_ABORT, version, nextProducerId, time.millis(), false);
            try {
                manager.writeTransition(transactionalId, entry.coordinatorEpoch(), metadata, abort);
            } catch (ApiException e) {
                metadata.epochFenceFailed();
                LOG.log(
                        System.Logger.Level.WARNING,
                        "The epoch fence of " + transactionalId + " was not written (" + e.getMessage()
                                + "); the epoch was bumped to " + abort.producerEpoch() + " but not given out");
                return EndTxnResult.error(Errors.forException(e));
            }
            completion = metadata.prepareComplete(time.millis());
        }
        completions.complete(transactionalId, entry.coordinatorEpoch(), metadata, completion, TransactionResult.ABORT);
        return new EndTxnResult(Errors.NONE, completion.producerId(), completion.producerEpoch());
    }
}
