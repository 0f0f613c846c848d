package io.krabka.kernel.tiered;

import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Remote retention of one partition, as Kafka's {@code RLMExpirationTask}: from the oldest remote segment on, it
 * deletes those below the log start offset (DeleteRecords), then those whose largest timestamp is older than
 * {@code retention.ms}, then while the remote size plus the local bytes not yet copied is above
 * {@code retention.bytes}; it stops at the first segment retention keeps, or at a copy under way. Segments left
 * {@code DELETE_SEGMENT_STARTED} by an earlier failure are deleted again. The log start offset moves to the first
 * offset still readable <em>before</em> the segments are deleted, so that no reader is sent to them; each goes
 * {@code DELETE_SEGMENT_STARTED → data deleted → DELETE_SEGMENT_FINISHED}. Records the remote size and the delete
 * lag.
 */
final class RLMExpirationTask extends RLMTask {

    private static final System.Logger LOG = System.getLogger(RLMExpirationTask.class.getName());

    private final Function<TopicPartition, Optional<UnifiedLog>> logs;
    private final RemoteLogMetadataManager rlmm;
    private final RemoteLogSegmentDeleter deleter;
    private final RemoteLogManagerMetrics metrics;

    RLMExpirationTask(
            TopicIdPartition topicIdPartition,
            Function<TopicPartition, Optional<UnifiedLog>> logs,
            RemoteLogMetadataManager rlmm,
            RemoteLogSegmentDeleter deleter,
            RemoteLogManagerMetrics metrics,
            InstantSource time,
            ExponentialBackoff backoff) {
        super(topicIdPartition, time, backoff);
        this.logs = logs;
        this.rlmm = rlmm;
        this.deleter = deleter;
        this.metrics = metrics;
    }

    @Override
    protected void execute() throws RemoteStorageException, IOException {
        Optional<UnifiedLog> found = logs.apply(topicIdPartition.topicPartition());
        if (found.isEmpty() || !found.get().remoteLogEnabled() || !rlmm.isReady(topicIdPartition)) {
            return;
        }
        UnifiedLog log = found.get();
        List<RemoteLogSegmentMetadata> segments = new ArrayList<>();
        rlmm.listRemoteLogSegments(topicIdPartition).forEachRemaining(segments::add);
        long remoteSize = segments.stream()
                .filter(s -> s.state() == RemoteLogSegmentState.COPY_SEGMENT_FINISHED)
                .mapToLong(RemoteLogSegmentMetadata::segmentSizeInBytes)
                .sum();
        metrics.set(RemoteLogManagerMetrics.Gauge.REMOTE_LOG_METADATA_COUNT, topicIdPartition, segments.size());
        metrics.set(RemoteLogManagerMetrics.Gauge.REMOTE_LOG_SIZE_BYTES, topicIdPartition, remoteSize);

        List<RemoteLogSegmentMetadata> toDelete = expiredSegments(log, segments, remoteSize);
        if (deleter.writeOnce()) {
            // An archive keeps every segment, so the log keeps its start: what is archived stays readable.
            deleteAll(toDelete);
            return;
        }
        long newLogStartOffset = Math.min(newLogStartOffset(log, segments, toDelete), log.highWatermark());
        if (newLogStartOffset > log.logStartOffset()) {
            log.updateLogStartOffsetFromRemoteTier(newLogStartOffset);
        }
        deleteAll(toDelete);
    }

    // Past every segment retention deletes (Kafka), and past offsets neither tier holds any more (deleted locally
    // while copies were disabled, with no remote copy left).
    private static long newLogStartOffset(
            UnifiedLog log, List<RemoteLogSegmentMetadata> segments, List<RemoteLogSegmentMetadata> toDelete) {
        long firstReadable = log.localLogStartOffset();
        long afterDeleted = -1;
        for (RemoteLogSegmentMetadata segment : segments) {
            if (toDelete.contains(segment)) {
                afterDeleted = Math.max(afterDeleted, segment.endOffset() + 1);
            } else if (segment.state() == RemoteLogSegmentState.COPY_SEGMENT_FINISHED) {
                firstReadable = Math.min(firstReadable, segment.startOffset());
            }
        }
        return Math.max(afterDeleted, firstReadable);
    }

    private List<RemoteLogSegmentMetadata> expiredSegments(
            UnifiedLog log, List<RemoteLogSegmentMetadata> segments, long remoteSize) throws IOException {
        LogConfig config = log.config();
        long logStartOffset = log.logStartOffset();
        long cleanupUntilMs = config.retentionMs() > -1 ? time.millis() - config.retentionMs() : Long.MIN_VALUE;
        long remainingBreachedSize = config.retentionBytes() > -1
                ? Math.max(0, remoteSize + onlyLocalLogSegmentsSize(log, segments) - config.retentionBytes())
                : 0;
        List<RemoteLogSegmentMetadata> toDelete = new ArrayList<>();
        for (RemoteLogSegmentMetadata segment : segments) {
            switch (segment.state()) {
                case DELETE_SEGMENT_STARTED -> {
                    toDelete.add(segment);
                    continue;
                }
                case DELETE_SEGMENT_FINISHED -> {
                    continue;
                }
                case COPY_SEGMENT_STARTED -> {
                    return toDelete;
                }
                case COPY_SEGMENT_FINISHED -> {}
            }
            String reason;
            if (segment.endOffset() < logStartOffset) {
                reason = "log start offset " + logStartOffset + " breach";
            } else if (segment.maxTimestampMs() <= cleanupUntilMs) {
                reason = "retention time " + config.retentionMs() + "ms breach";
                remainingBreachedSize = Math.max(0, remainingBreachedSize - segment.segmentSizeInBytes());
            } else if (remainingBreachedSize > 0 && remainingBreachedSize - segment.segmentSizeInBytes() >= 0) {
                reason = "retention size " + config.retentionBytes() + " breach";
                remainingBreachedSize -= segment.segmentSizeInBytes();
            } else {
                return toDelete;
            }
            LOG.log(
                    System.Logger.Level.INFO,
                    "About to delete remote segment " + segment.remoteLogSegmentId() + " [" + segment.startOffset()
                            + ", " + segment.endOffset() + "] due to " + reason);
            toDelete.add(segment);
        }
        return toDelete;
    }

    // Kafka's onlyLocalLogSegmentsSize: the bytes of the local segments the remote tier does not hold yet. The copy
    // task may not have recovered the highest copied offset yet (after a restart): the listing knows it too.
    private static long onlyLocalLogSegmentsSize(UnifiedLog log, List<RemoteLogSegmentMetadata> segments) {
        long highest = Math.max(
                log.highestOffsetInRemoteStorage(),
                segments.stream()
                        .filter(s -> s.state() == RemoteLogSegmentState.COPY_SEGMENT_FINISHED)
                        .mapToLong(RemoteLogSegmentMetadata::endOffset)
                        .max()
                        .orElse(-1));
        return log.logSegments().stream()
                .filter(segment -> segment.baseOffset() > highest)
                .mapToLong(LogSegment::size)
                .sum();
    }

    private void deleteAll(List<RemoteLogSegmentMetadata> toDelete) throws RemoteStorageException {
        long lagBytes = toDelete.stream()
                .mapToLong(RemoteLogSegmentMetadata::segmentSizeInBytes)
                .sum();
        long lagSegments = toDelete.size();
        recordDeleteLag(lagBytes, lagSegments);
        RemoteStorageException failure = null;
        for (RemoteLogSegmentMetadata segment : toDelete) {
            if (isCancelled()) {
                break;
            }
            try {
                deleter.delete(segment);
                lagBytes -= segment.segmentSizeInBytes();
                lagSegments--;
                recordDeleteLag(lagBytes, lagSegments);
            } catch (RemoteStorageException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void recordDeleteLag(long bytes, long segments) {
        metrics.set(RemoteLogManagerMetrics.Gauge.REMOTE_DELETE_LAG_BYTES, topicIdPartition, bytes);
        metrics.set(RemoteLogManagerMetrics.Gauge.REMOTE_DELETE_LAG_SEGMENTS, topicIdPartition, segments);
    }
}
