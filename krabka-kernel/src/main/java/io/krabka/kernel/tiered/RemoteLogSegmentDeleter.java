package io.krabka.kernel.tiered;

import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.time.InstantSource;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Deletes one remote segment through Kafka's lifecycle (Kafka's {@code deleteRemoteLogSegment}):
 * {@code DELETE_SEGMENT_STARTED} is stored first, so that no reader is sent to the segment any more and a crash
 * leaves it marked for deletion; then the remote storage manager deletes the data (idempotently); then
 * {@code DELETE_SEGMENT_FINISHED}. Counts {@code RemoteDeleteRequests} and {@code RemoteDeleteErrors}.
 */
final class RemoteLogSegmentDeleter {

    private final RemoteStorageManager rsm;
    private final RemoteLogMetadataManager rlmm;
    private final RemoteLogManagerMetrics metrics;
    private final int brokerId;
    private final InstantSource time;
    private final Consumer<Uuid> deleted;

    RemoteLogSegmentDeleter(RemoteStorageManager rsm, RemoteLogMetadataManager rlmm, RemoteLogManagerMetrics metrics,
                            int brokerId, InstantSource time, Consumer<Uuid> deleted) {
        this.rsm = Objects.requireNonNull(rsm, "rsm");
        this.rlmm = Objects.requireNonNull(rlmm, "rlmm");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.brokerId = brokerId;
        this.time = Objects.requireNonNull(time, "time");
        this.deleted = Objects.requireNonNull(deleted, "deleted");
    }

    /**
     * Deletes the segment; nothing if it is already {@code DELETE_SEGMENT_FINISHED}.
     *
     * @throws RemoteStorageException if the metadata manager or the storage manager fails; the segment then stays
     *                                {@code DELETE_SEGMENT_STARTED}, and a later deletion finishes it
     */
    void delete(RemoteLogSegmentMetadata segment) throws RemoteStorageException {
        if (segment.state() == RemoteLogSegmentState.DELETE_SEGMENT_FINISHED) {
            return;
        }
        String topic = segment.topicIdPartition().topic();
        update(segment, RemoteLogSegmentState.DELETE_SEGMENT_STARTED);
        metrics.increment(RemoteLogManagerMetrics.Counter.REMOTE_DELETE_REQUESTS, topic, 1);
        try {
            rsm.deleteLogSegmentData(segment);
        } catch (RemoteStorageException | RuntimeException e) {
            metrics.increment(RemoteLogManagerMetrics.Counter.REMOTE_DELETE_ERRORS, topic, 1);
            throw e instanceof RemoteStorageException remote ? remote
                    : new RemoteStorageException("deleting " + segment.remoteLogSegmentId() + " failed", e);
        }
        deleted.accept(segment.remoteLogSegmentId().id());
        update(segment, RemoteLogSegmentState.DELETE_SEGMENT_FINISHED);
    }

    private void update(RemoteLogSegmentMetadata segment, RemoteLogSegmentState state) throws RemoteStorageException {
        await(rlmm.updateRemoteLogSegmentMetadata(new RemoteLogSegmentMetadataUpdate(segment.remoteLogSegmentId(),
                time.millis(), segment.customMetadata(), state, brokerId)), state + " of " + segment.remoteLogSegmentId());
    }

    /**
     * Waits for a metadata manager's change to be stored.
     *
     * @throws RemoteStorageException if it failed, or the wait was interrupted (the interrupt is kept)
     */
    static void await(CompletableFuture<Void> future, String what) throws RemoteStorageException {
        try {
            future.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof RemoteStorageException remote ? remote
                    : new RemoteStorageException("storing " + what + " failed", cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemoteStorageException("interrupted while storing " + what, e);
        }
    }
}
