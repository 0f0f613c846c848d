package io.krabka.kernel.transaction;

import io.krabka.kernel.log.TransactionResult;
import io.krabka.kernel.scheduler.Scheduler;
import io.krabka.spi.common.TopicPartition;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.protocol.Errors;

/**
 * The completion of decided transactions (Kafka's {@code TransactionMarkerChannelManager}, for one node): the markers
 * are written to the transaction's partitions, then its completion (CompleteCommit or CompleteAbort) to
 * {@code __transaction_state}. Markers that cannot be written yet, and a completion that cannot, are written again on
 * the scheduler with a growing backoff, until they are or the partition of the transactional id is no longer served
 * from the same load.
 */
final class TransactionCompletion {

    private static final System.Logger LOG = System.getLogger(TransactionCompletion.class.getName());
    private static final long MARKER_RETRY_BACKOFF_MS = 100;
    private static final long MARKER_RETRY_MAX_BACKOFF_MS = 5_000;

    private final TransactionStateManager manager;
    private final TransactionMarkerWriter markerWriter;
    private final Scheduler scheduler;
    private final BooleanSupplier closed;

    /**
     * A completion.
     *
     * @param closed whether the coordinator stopped: its work is dropped
     */
    TransactionCompletion(
            TransactionStateManager manager,
            TransactionMarkerWriter markerWriter,
            Scheduler scheduler,
            BooleanSupplier closed) {
        this.manager = Objects.requireNonNull(manager, "manager");
        this.markerWriter = Objects.requireNonNull(markerWriter, "markerWriter");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.closed = Objects.requireNonNull(closed, "closed");
    }

    /**
     * Writes the markers of a decided transaction, whose completion is prepared (pending), then the completion; the
     * markers not written are written again later, and the completion once they all are.
     */
    void complete(
            String transactionalId,
            int coordinatorEpoch,
            TransactionMetadata metadata,
            TxnTransitMetadata completion,
            TransactionResult result) {
        Set<TopicPartition> remaining;
        TransactionMarkerWriter.Markers markers;
        synchronized (metadata) {
            markers = new TransactionMarkerWriter.Markers(
                    transactionalId,
                    metadata.producerId(),
                    metadata.producerEpoch(),
                    result,
                    coordinatorEpoch,
                    metadata.clientTransactionVersion());
            remaining = metadata.topicPartitions();
        }
        writeMarkers(coordinatorEpoch, metadata, completion, markers, remaining, MARKER_RETRY_BACKOFF_MS);
    }

    private void writeMarkers(
            int coordinatorEpoch,
            TransactionMetadata metadata,
            TxnTransitMetadata completion,
            TransactionMarkerWriter.Markers markers,
            Set<TopicPartition> partitions,
            long backoffMs) {
        if (closed.getAsBoolean() || !stillServed(markers.transactionalId(), coordinatorEpoch, metadata)) {
            return;
        }
        Set<TopicPartition> retry = markerWriter.write(markers, partitions);
        synchronized (metadata) {
            for (TopicPartition partition : partitions) {
                if (!retry.contains(partition)) {
                    metadata.removePartition(partition);
                }
            }
        }
        if (retry.isEmpty()) {
            writeCompletion(coordinatorEpoch, metadata, completion, backoffMs);
        } else {
            scheduler.scheduleOnce(
                    "transaction-markers-" + markers.transactionalId(),
                    () -> writeMarkers(coordinatorEpoch, metadata, completion, markers, retry, nextBackoff(backoffMs)),
                    backoffMs);
        }
    }

    private void writeCompletion(
            int coordinatorEpoch, TransactionMetadata metadata, TxnTransitMetadata completion, long backoffMs) {
        String transactionalId = metadata.transactionalId();
        synchronized (metadata) {
            if (closed.getAsBoolean() || !stillServed(transactionalId, coordinatorEpoch, metadata)) {
                return;
            }
            try {
                manager.appendTransactionToLog(transactionalId, coordinatorEpoch, completion);
                metadata.completeTransitionTo(completion);
                return;
            } catch (ApiException e) {
                if (Errors.forException(e) == Errors.NOT_COORDINATOR) {
                    return;
                }
                LOG.log(
                        System.Logger.Level.WARNING,
                        "Could not write " + completion.txnState() + " of " + transactionalId + " (" + e.getMessage()
                                + "); trying again in " + backoffMs + " ms");
            }
        }
        scheduler.scheduleOnce(
                "transaction-completion-" + transactionalId,
                () -> writeCompletion(coordinatorEpoch, metadata, completion, nextBackoff(backoffMs)),
                backoffMs);
    }

    private static long nextBackoff(long backoffMs) {
        return Math.min(MARKER_RETRY_MAX_BACKOFF_MS, backoffMs * 2);
    }

    // Whether this node still serves the transactional id from the same load: an unloaded partition drops its work.
    private boolean stillServed(String transactionalId, int coordinatorEpoch, TransactionMetadata metadata) {
        try {
            return manager.getTransactionState(transactionalId)
                    .filter(entry -> entry.metadata() == metadata && entry.coordinatorEpoch() == coordinatorEpoch)
                    .isPresent();
        } catch (ApiException e) {
            return false;
        }
    }
}
