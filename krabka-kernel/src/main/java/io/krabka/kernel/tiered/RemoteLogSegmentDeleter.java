package io.krabka.kernel.tiered;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.spi.storage.WriteOnceRemoteStorageManager;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * Deletes one remote segment through Kafka's lifecycle (Kafka's {@code deleteRemoteLogSegment}):
 * {@code DELETE_SEGMENT_STARTED} is stored first, so that no reader is sent to the segment any more and a crash
 * leaves it marked for deletion; then the remote storage manager deletes the data (idempotently); then
 * {@code DELETE_SEGMENT_FINISHED}. Counts {@code RemoteDeleteRequests} and {@code RemoteDeleteErrors}.
 *
 * <p>Over a write-once archive ({@link WriteOnceRemoteStorageManager}) nothing is deleted: a finished segment that
 * retention or a topic's deletion would delete stays as it is, counted once and logged once per partition; the
 * copy that failed or was cut short is abandoned instead ({@link #discardFailedCopy}), its objects kept.
 */
final class RemoteLogSegmentDeleter {
    private static final System.Logger LOG = System.getLogger(RemoteLogSegmentDeleter.class.getName());

    private final RemoteStorageManager rsm;
    private final RemoteLogMetadataManager rlmm;
    private final RemoteLogManagerMetrics metrics;
    private final int brokerId;
    private final InstantSource time;
    private final Consumer<Uuid> deleted;
    private final Optional<WriteOnceRemoteStorageManager> archive;
    private final Set<Uuid> refused = ConcurrentHashMap.newKeySet();
    private final Set<TopicIdPartition> refusalLogged = ConcurrentHashMap.newKeySet();

    RemoteLogSegmentDeleter(
            RemoteStorageManager rsm,
            RemoteLogMetadataManager rlmm,
            RemoteLogManagerMetrics metrics,
            int brokerId,
            InstantSource time,
            Consumer<Uuid> deleted) {
        this.rsm = Objects.requireNonNull(rsm, "rsm");
        this.rlmm = Objects.requireNonNull(rlmm, "rlmm");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.brokerId = brokerId;
        this.time = Objects.requireNonNull(time, "time");
        this.deleted = Objects.requireNonNull(deleted, "deleted");
        this.archive = rsm instanceof WriteOnceRemoteStorageManager worm ? Optional.of(worm) : Optional.empty();
    }

    /** Whether the remote tier is a write-once archive, whose segments are never deleted. */
    boolean writeOnce() {
        return archive.isPresent();
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
        if (archive.isPresent()) {
            // Under an archive only an abandoned copy is ever DELETE_SEGMENT_STARTED: finish abandoning it.
            if (segment.state() == RemoteLogSegmentState.DELETE_SEGMENT_STARTED) {
                discardFailedCopy(segment);
            } else {
                refuse(segment);
            }
            return;
        }
        String topic = segment.topicIdPartition().topic();
        update(segment, RemoteLogSegmentState.DELETE_SEGMENT_STARTED);
        metrics.increment(RemoteLogManagerMetrics.Counter.REMOTE_DELETE_REQUESTS, topic, 1);
        try {
            rsm.deleteLogSegmentData(segment);
        } catch (RemoteStorageException | RuntimeException e) {
            metrics.increment(RemoteLogManagerMetrics.Counter.REMOTE_DELETE_ERRORS, topic, 1);
            throw e instanceof RemoteStorageException remote
                    ? remote
                    : new RemoteStorageException("deleting " + segment.remoteLogSegmentId() + " failed", e);
        }
        deleted.accept(segment.remoteLogSegmentId().id());
        update(segment, RemoteLogSegmentState.DELETE_SEGMENT_FINISHED);
    }

    /**
     * Gets rid of a copy that failed or was cut short, before it is retried under a fresh segment id: deleted, or
     * over a write-once archive abandoned ({@code DELETE_SEGMENT_STARTED}, the archive records the copy as
     * abandoned, {@code DELETE_SEGMENT_FINISHED}), so no reader is sent to it and its objects stay.
     *
     * @throws RemoteStorageException if a manager fails; the segment is then left for a later attempt
     */
    void discardFailedCopy(RemoteLogSegmentMetadata segment) throws RemoteStorageException {
        if (archive.isEmpty()) {
            delete(segment);
            return;
        }
        if (segment.state() == RemoteLogSegmentState.DELETE_SEGMENT_FINISHED) {
            return;
        }
        if (segment.state() != RemoteLogSegmentState.DELETE_SEGMENT_STARTED) {
            update(segment, RemoteLogSegmentState.DELETE_SEGMENT_STARTED);
        }
        archive.get().abandonSegmentCopy(segment);
        metrics.increment(
                RemoteLogManagerMetrics.Counter.REMOTE_ARCHIVE_ABANDONED_COPIES,
                segment.topicIdPartition().topic(),
                1);
        update(segment, RemoteLogSegmentState.DELETE_SEGMENT_FINISHED);
    }

    private void refuse(RemoteLogSegmentMetadata segment) {
        TopicIdPartition partition = segment.topicIdPartition();
        if (refused.add(segment.remoteLogSegmentId().id())) {
            metrics.increment(RemoteLogManagerMetrics.Counter.REMOTE_ARCHIVE_DELETES_REFUSED, partition.topic(), 1);
        }
        if (refusalLogged.add(partition)) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Not deleting the remote segments of " + partition + " that "
                            + "retention or a deletion of the topic would delete: the remote tier is a write-once archive, "
                            + "whose segments stay (counted in RemoteArchiveDeletesRefusedPerSec)");
        }
    }

    private void update(RemoteLogSegmentMetadata segment, RemoteLogSegmentState state) throws RemoteStorageException {
        await(
                rlmm.updateRemoteLogSegmentMetadata(new RemoteLogSegmentMetadataUpdate(
                        segment.remoteLogSegmentId(), time.millis(), segment.customMetadata(), state, brokerId)),
                state + " of " + segment.remoteLogSegmentId());
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
            throw cause instanceof RemoteStorageException remote
                    ? remote
                    : new RemoteStorageException("storing " + what + " failed", cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemoteStorageException("interrupted while storing " + what, e);
        }
    }
}
