package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.LogSegments;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.cleaner.LogToClean.CleanableBytes;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Which part of a log may be cleaned now, as Kafka's {@code LogCleanerManager} works it out: the dirty section
 * starts at the offset the cleaner checkpointed (the log start offset when there is none, or it is out of the
 * log), and the cleanable part ends at the first of the last stable offset (which is at or below the high
 * watermark), the active segment, and the first segment holding a record newer than {@code min.compaction.lag.ms}.
 */
final class CleanableOffsets {

    private static final System.Logger LOG = System.getLogger(LogCleaner.class.getName());

    /**
     * The offsets to clean between.
     *
     * @param firstDirtyOffset            the first offset to clean
     * @param firstUncleanableDirtyOffset the offset to clean up to
     * @param forceUpdateCheckpoint       whether the checkpoint was invalid and must be set to
     *                                    {@code firstDirtyOffset}
     */
    record OffsetsToClean(long firstDirtyOffset, long firstUncleanableDirtyOffset, boolean forceUpdateCheckpoint) {}

    private CleanableOffsets() {}

    /** Kafka's {@code cleanableOffsets}, for {@code log} at {@code now} with its checkpointed offset. */
    static OffsetsToClean cleanableOffsets(UnifiedLog log, Optional<Long> lastCleanOffset, long now)
            throws IOException {
        long logStartOffset = log.logStartOffset();
        long checkpointDirtyOffset = lastCleanOffset.orElse(logStartOffset);
        long firstDirtyOffset = checkpointDirtyOffset;
        boolean forceUpdateCheckpoint = false;
        if (checkpointDirtyOffset < logStartOffset) {
            // Retention or DeleteRecords moved the start past it: as expected with compact,delete.
            if (!(log.config().isCompact() && log.config().isDelete())) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "Resetting first dirty offset of " + log.topicPartition() + " to log start offset "
                                + logStartOffset + " since the checkpointed offset " + checkpointDirtyOffset
                                + " is invalid.");
            }
            firstDirtyOffset = logStartOffset;
            forceUpdateCheckpoint = true;
        } else if (checkpointDirtyOffset > log.logEndOffset()) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "The last checkpoint dirty offset for partition " + log.topicPartition() + " is "
                            + checkpointDirtyOffset + ", which is larger than the log end offset "
                            + log.logEndOffset() + ". Resetting to the log start offset " + logStartOffset + ".");
            firstDirtyOffset = logStartOffset;
            forceUpdateCheckpoint = true;
        }
        long firstUncleanableDirtyOffset =
                Math.min(log.lastStableOffset(), log.activeSegment().baseOffset());
        long minCompactionLagMs = Math.max(log.config().minCompactionLagMs(), 0);
        if (minCompactionLagMs > 0) {
            for (LogSegment segment : log.nonActiveLogSegmentsFrom(firstDirtyOffset)) {
                if (segment.largestTimestamp() > now - minCompactionLagMs) {
                    firstUncleanableDirtyOffset = Math.min(firstUncleanableDirtyOffset, segment.baseOffset());
                    break;
                }
            }
        }
        return new OffsetsToClean(
                firstDirtyOffset, Math.max(firstDirtyOffset, firstUncleanableDirtyOffset), forceUpdateCheckpoint);
    }

    /**
     * How long past its {@code max.compaction.lag.ms} the oldest dirty record of {@code log} waits (Kafka's
     * {@code maxCompactionDelay}): from the first batch timestamp of the dirty segments before the active one; 0 if
     * none is late.
     */
    static long maxCompactionDelay(UnifiedLog log, long firstDirtyOffset, long now) throws IOException {
        long earliest = Long.MAX_VALUE;
        for (LogSegment segment : log.nonActiveLogSegmentsFrom(firstDirtyOffset)) {
            long timestamp = segment.getFirstBatchTimestamp();
            if (timestamp > 0) {
                earliest = Math.min(earliest, timestamp);
            }
        }
        long cleanUntilTime = now - Math.max(log.config().maxCompactionLagMs(), 0);
        return earliest < cleanUntilTime ? cleanUntilTime - earliest : 0;
    }

    /**
     * Kafka's {@code calculateCleanableBytes}: the base offset of the segment holding {@code uncleanableOffset} (the
     * first segment at or after it; the active one if none is before it), and the bytes from the segment holding
     * {@code firstDirtyOffset} up to it.
     */
    static CleanableBytes calculateCleanableBytes(UnifiedLog log, long firstDirtyOffset, long uncleanableOffset) {
        List<LogSegment> fromUncleanable = log.nonActiveLogSegmentsFrom(uncleanableOffset);
        long firstUncleanableOffset = fromUncleanable.isEmpty()
                ? log.activeSegment().baseOffset()
                : fromUncleanable.getFirst().baseOffset();
        long cleanableBytes = LogSegments.sizeInBytes(
                log.logSegments(Math.min(firstDirtyOffset, firstUncleanableOffset), firstUncleanableOffset));
        return new CleanableBytes(firstUncleanableOffset, cleanableBytes);
    }
}
