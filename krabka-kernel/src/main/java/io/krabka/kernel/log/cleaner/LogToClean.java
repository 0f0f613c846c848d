package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.LogSegments;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.spi.common.TopicPartition;

/**
 * A log that may be cleaned and how dirty it is, Kafka's {@code LogToClean}: the bytes of its clean part (below
 * the first dirty offset), of the cleanable part of its dirty section (up to the first uncleanable segment), and
 * their ratio, by which the dirtiest log is chosen.
 *
 * @param log                    the log
 * @param firstDirtyOffset       where its dirty section starts
 * @param firstUncleanableOffset where its cleanable part ends: a segment's base offset
 * @param needCompactionNow      whether a record has waited past {@code max.compaction.lag.ms}, which cleans the log
 *                               whatever its dirty ratio
 * @param cleanBytes             the bytes below {@code firstDirtyOffset}
 * @param cleanableBytes         the bytes from {@code firstDirtyOffset} to {@code firstUncleanableOffset}
 */
record LogToClean(
        UnifiedLog log,
        long firstDirtyOffset,
        long firstUncleanableOffset,
        boolean needCompactionNow,
        long cleanBytes,
        long cleanableBytes) {

    /** Measures {@code log}, whose dirty section runs from {@code firstDirtyOffset} to {@code uncleanableOffset}. */
    static LogToClean of(UnifiedLog log, long firstDirtyOffset, long uncleanableOffset, boolean needCompactionNow) {
        long cleanBytes = LogSegments.sizeInBytes(log.logSegments(-1, firstDirtyOffset));
        CleanableBytes cleanable = CleanableOffsets.calculateCleanableBytes(log, firstDirtyOffset, uncleanableOffset);
        return new LogToClean(
                log,
                firstDirtyOffset,
                cleanable.firstUncleanableOffset(),
                needCompactionNow,
                cleanBytes,
                cleanable.cleanableBytes());
    }

    /** The partition. */
    TopicPartition topicPartition() {
        return log.topicPartition();
    }

    /** The bytes of the clean part and the cleanable part. */
    long totalBytes() {
        return cleanBytes + cleanableBytes;
    }

    /** The share of the bytes that are cleanable: {@code max-dirty-percent}, against min.cleanable.dirty.ratio. */
    double cleanableRatio() {
        return (double) cleanableBytes / totalBytes();
    }

    /**
     * The end of a log's cleanable part and its bytes.
     *
     * @param firstUncleanableOffset the base offset of the first segment that may not be cleaned
     * @param cleanableBytes         the bytes from the first dirty offset up to it
     */
    record CleanableBytes(long firstUncleanableOffset, long cleanableBytes) {}
}
