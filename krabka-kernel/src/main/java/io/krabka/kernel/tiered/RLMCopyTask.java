package io.krabka.kernel.tiered;

import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.checkpoint.EpochEntry;
import io.krabka.kernel.log.checkpoint.LeaderEpochCheckpointFile;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Copies a partition's rolled segments to the remote tier, oldest first, as Kafka's {@code RLMCopyTask}.
 *
 * <p>At its first run it cleans up what a crash left (segments still {@code COPY_SEGMENT_STARTED}, or
 * {@code DELETE_SEGMENT_STARTED}: their data is deleted and they go {@code DELETE_SEGMENT_STARTED → FINISHED}) and
 * recovers the highest copied offset from the
 * metadata manager ({@link #findHighestRemoteOffset}). Then each run copies the candidates
 * ({@link EnrichedLogSegment#candidates}), while the copy quota allows. Per segment: a fresh segment id;
 * {@code COPY_SEGMENT_STARTED} stored before the data is copied; the copy; {@code COPY_SEGMENT_FINISHED}; then the
 * log's highest offset in remote storage moves. A segment is never finished unless the storage manager returned,
 * so every finished segment is whole; a failed copy is deleted again so nothing dangles, counted, and retried.
 * Custom metadata larger than {@code remote.log.metadata.custom.metadata.max.bytes} deletes the copy and stops
 * this partition's copies, as Kafka.
 */
final class RLMCopyTask extends RLMTask {

    private static final System.Logger LOG = System.getLogger(RLMCopyTask.class.getName());

    private final Function<TopicPartition, Optional<UnifiedLog>> logs;
    private final RemoteStorageManager rsm;
    private final RemoteLogMetadataManager rlmm;
    private final RemoteLogSegmentDeleter deleter;
    private final RemoteLogManagerMetrics metrics;
    private final RLMQuotaManager copyQuota;
    private final int brokerId;
    private final int customMetadataMaxBytes;
    private boolean initialized;
    private long copiedOffset = -1;
    private boolean copyStopped;

    RLMCopyTask(
            TopicIdPartition topicIdPartition,
            Function<TopicPartition, Optional<UnifiedLog>> logs,
            RemoteStorageManager rsm,
            RemoteLogMetadataManager rlmm,
            RemoteLogSegmentDeleter deleter,
            RemoteLogManagerMetrics metrics,
            RLMQuotaManager copyQuota,
            int brokerId,
            int customMetadataMaxBytes,
            InstantSource time,
            ExponentialBackoff backoff) {
        super(topicIdPartition, time, backoff);
        this.logs = logs;
        this.rsm = rsm;
        this.rlmm = rlmm;
        this.deleter = deleter;
        this.metrics = metrics;
        this.copyQuota = copyQuota;
        this.brokerId = brokerId;
        this.customMetadataMaxBytes = customMetadataMaxBytes;
    }

    @Override
    protected void execute() throws Exception {
        Optional<UnifiedLog> found = logs.apply(topicIdPartition.topicPartition());
        if (found.isEmpty() || !found.get().remoteLogEnabled() || !rlmm.isReady(topicIdPartition)) {
            return;
        }
        UnifiedLog log = found.get();
        if (!initialized) {
            cleanupUnfinishedCopies();
            copiedOffset = findHighestRemoteOffset(log);
            log.updateHighestOffsetInRemoteStorage(copiedOffset);
            initialized = true;
        }
        if (copyStopped || log.config().remoteLogCopyDisable()) {
            recordLag(log);
            return;
        }
        for (EnrichedLogSegment candidate : EnrichedLogSegment.candidates(log, copiedOffset, time.millis())) {
            if (isCancelled() || copyQuota.isQuotaExceeded()) {
                break;
            }
            copyLogSegment(log, candidate.segment(), candidate.nextSegmentOffset());
            if (copyStopped) {
                break;
            }
        }
        recordLag(log);
    }

    // A copy cut short by a crash is still COPY_SEGMENT_STARTED: its data, whole or not, goes (or, in a write-once
    // archive, is abandoned). So does a segment whose deletion was cut short (DELETE_SEGMENT_STARTED: the discard of
    // a failed copy interrupted by a shutdown, say), which retention would not reach past a segment it keeps. Neither
    // is ever read, so neither is lost.
    private void cleanupUnfinishedCopies() throws RemoteStorageException {
        List<RemoteLogSegmentMetadata> unfinished = new ArrayList<>();
        Iterator<RemoteLogSegmentMetadata> segments = rlmm.listRemoteLogSegments(topicIdPartition);
        while (segments.hasNext()) {
            RemoteLogSegmentMetadata segment = segments.next();
            if (segment.state() == RemoteLogSegmentState.COPY_SEGMENT_STARTED
                    || segment.state() == RemoteLogSegmentState.DELETE_SEGMENT_STARTED) {
                unfinished.add(segment);
            }
        }
        for (RemoteLogSegmentMetadata segment : unfinished) {
            LOG.log(
                    System.Logger.Level.INFO,
                    (deleter.writeOnce() ? "Abandoning" : "Deleting")
                            + (segment.state() == RemoteLogSegmentState.COPY_SEGMENT_STARTED
                                    ? " the unfinished copy "
                                    : " the segment whose deletion did not finish ")
                            + segment.remoteLogSegmentId() + " [" + segment.startOffset() + ", "
                            + segment.endOffset() + "] of " + topicIdPartition);
            deleter.discardFailedCopy(segment);
        }
    }

    /**
     * The highest offset the remote tier holds for the log's epochs, latest epoch first (Kafka's
     * {@code findHighestRemoteOffset}); -1 if none.
     */
    long findHighestRemoteOffset(UnifiedLog log) throws RemoteStorageException {
        OptionalInt epoch = log.leaderEpochCache().latestEpoch();
        while (epoch.isPresent()) {
            Optional<Long> offset = rlmm.highestOffsetForEpoch(topicIdPartition, epoch.getAsInt());
            if (offset.isPresent()) {
                return offset.get();
            }
            epoch = log.leaderEpochCache().previousEpoch(epoch.getAsInt());
        }
        return -1;
    }

    private void copyLogSegment(UnifiedLog log, LogSegment segment, long nextSegmentOffset)
            throws RemoteStorageException, IOException {
        String topic = topicIdPartition.topic();
        long endOffset = nextSegmentOffset - 1;
        Path snapshot = log.producerStateManager()
                .fetchSnapshot(nextSegmentOffset)
                .orElseThrow(() -> new RemoteStorageException("no producer snapshot at " + nextSegmentOffset + " of "
                        + topicIdPartition + " to copy with segment " + segment.baseOffset()));
        TreeMap<Integer, Long> segmentLeaderEpochs = new TreeMap<>();
        for (EpochEntry entry : log.leaderEpochCache().epochEntriesInRange(segment.baseOffset(), nextSegmentOffset)) {
            segmentLeaderEpochs.put(entry.epoch(), entry.startOffset());
        }
        if (segmentLeaderEpochs.isEmpty()) {
            throw new RemoteStorageException(
                    "no leader epoch covers segment " + segment.baseOffset() + " of " + topicIdPartition);
        }
        Path txnIndex = segment.txnIndex().file();
        boolean txnIndexEmpty = segment.txnIndex().isEmpty() || !Files.exists(txnIndex);
        RemoteLogSegmentMetadata started = new RemoteLogSegmentMetadata(
                RemoteLogSegmentId.generateNew(topicIdPartition),
                segment.baseOffset(),
                endOffset,
                segment.largestTimestamp(),
                brokerId,
                time.millis(),
                segment.size(),
                segmentLeaderEpochs,
                txnIndexEmpty);
        RemoteLogSegmentDeleter.await(
                rlmm.addRemoteLogSegmentMetadata(started), "COPY_SEGMENT_STARTED of " + started.remoteLogSegmentId());
        LogSegmentData data = new LogSegmentData(
                segment.log().file(),
                segment.offsetIndex().file(),
                segment.timeIndex().file(),
                txnIndexEmpty ? Optional.empty() : Optional.of(txnIndex),
                snapshot,
                LeaderEpochCheckpointFile.toByteBuffer(
                        log.leaderEpochCache().epochEntriesInRange(-1, nextSegmentOffset)));
        metrics.increment(RemoteLogManagerMetrics.Counter.REMOTE_COPY_REQUESTS, topic, 1);
        Optional<CustomMetadata> customMetadata;
        try {
            customMetadata = rsm.copyLogSegmentData(started, data);
        } catch (RemoteStorageException | RuntimeException e) {
            metrics.increment(RemoteLogManagerMetrics.Counter.REMOTE_COPY_ERRORS, topic, 1);
            deleteFailedCopy(started);
            throw e instanceof RemoteStorageException remote
                    ? remote
                    : new RemoteStorageException("copying segment " + segment.baseOffset() + " failed", e);
        }
        RemoteLogSegmentMetadataUpdate finished = new RemoteLogSegmentMetadataUpdate(
                started.remoteLogSegmentId(),
                time.millis(),
                customMetadata,
                RemoteLogSegmentState.COPY_SEGMENT_FINISHED,
                brokerId);
        if (customMetadata.isPresent() && customMetadata.get().size() > customMetadataMaxBytes) {
            LOG.log(
                    System.Logger.Level.ERROR,
                    "The custom metadata of " + started.remoteLogSegmentId() + " is "
                            + customMetadata.get().size()
                            + " bytes, over remote.log.metadata.custom.metadata.max.bytes ("
                            + customMetadataMaxBytes + "); deleting the copy and stopping the copies of "
                            + topicIdPartition);
            metrics.increment(RemoteLogManagerMetrics.Counter.REMOTE_COPY_ERRORS, topic, 1);
            copyStopped = true;
            deleteFailedCopy(started.createWithUpdates(new RemoteLogSegmentMetadataUpdate(
                    started.remoteLogSegmentId(),
                    time.millis(),
                    customMetadata,
                    RemoteLogSegmentState.DELETE_SEGMENT_STARTED,
                    brokerId)));
            return;
        }
        RemoteLogSegmentDeleter.await(
                rlmm.updateRemoteLogSegmentMetadata(finished),
                "COPY_SEGMENT_FINISHED of " + started.remoteLogSegmentId());
        copyQuota.record(started.segmentSizeInBytes());
        metrics.increment(RemoteLogManagerMetrics.Counter.REMOTE_COPY_BYTES, topic, started.segmentSizeInBytes());
        copiedOffset = endOffset;
        log.updateHighestOffsetInRemoteStorage(endOffset);
        LOG.log(
                System.Logger.Level.INFO,
                "Copied segment " + segment.baseOffset() + " of " + topicIdPartition
                        + " to remote storage with segment id "
                        + started.remoteLogSegmentId().id());
    }

    // The data of a copy that did not finish goes, and its metadata with it; if that fails too, the next run's
    // first step (or the next restart's) finds the segment still started and retries.
    private void deleteFailedCopy(RemoteLogSegmentMetadata segment) {
        try {
            deleter.discardFailedCopy(segment);
        } catch (RemoteStorageException | RuntimeException e) {
            initialized = false;
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Could not clean up the failed copy " + segment.remoteLogSegmentId() + " of " + topicIdPartition
                            + "; retrying at the next run",
                    e);
        }
    }

    private void recordLag(UnifiedLog log) {
        long bytes = 0;
        long segments = 0;
        List<LogSegment> local = log.logSegments(Math.max(copiedOffset + 1, log.logStartOffset()), Long.MAX_VALUE);
        for (int i = 0; i + 1 < local.size(); i++) {
            bytes += local.get(i).size();
            segments++;
        }
        metrics.set(RemoteLogManagerMetrics.Gauge.REMOTE_COPY_LAG_BYTES, topicIdPartition, bytes);
        metrics.set(RemoteLogManagerMetrics.Gauge.REMOTE_COPY_LAG_SEGMENTS, topicIdPartition, segments);
    }
}
