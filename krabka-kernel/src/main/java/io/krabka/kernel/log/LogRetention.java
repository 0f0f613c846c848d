package io.krabka.kernel.log;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * Which old segments a log deletes, as Kafka's {@code UnifiedLog.deleteOldSegments} (local part): from the oldest
 * on while a condition holds, never a segment holding offsets at or above the high watermark (so the log start
 * offset never passes it), nor an empty active segment.
 *
 * <p>A tiered log copying to the remote tier keeps its segments by {@code local.retention.ms/bytes} and deletes
 * only those the remote tier holds whole (every offset at or below the highest copied one) or that lie below the
 * log start offset; with {@code remote.log.copy.disable} it falls back to {@code retention.ms/bytes} (KIP-950).
 */
final class LogRetention {

    /** Whether a segment may go, knowing the next one. */
    @FunctionalInterface
    private interface DeletionCondition {
        boolean execute(LogSegment segment, Optional<LogSegment> nextSegment) throws IOException;
    }

    private LogRetention() {}

    /** Deletes what the topic's cleanup policy and retention settings allow; returns the number of segments. */
    static int deleteOldSegments(UnifiedLog log) throws IOException {
        if (log.config().isDelete()) {
            return deleteLogStartOffsetBreachedSegments(log)
                    + deleteRetentionSizeBreachedSegments(log)
                    + deleteRetentionMsBreachedSegments(log);
        }
        // Compacted logs, and logs without a cleanup policy, keep everything above the log start offset.
        return deleteLogStartOffsetBreachedSegments(log);
    }

    private static int deleteRetentionMsBreachedSegments(UnifiedLog log) throws IOException {
        long retentionMs = log.remoteLogEnabledAndRemoteCopyEnabled()
                ? log.config().localRetentionMs()
                : log.config().retentionMs();
        if (retentionMs < 0) {
            return 0;
        }
        long startMs = log.localLog().time().millis();
        return deleteOldSegments(
                log,
                (segment, next) -> startMs - segment.largestTimestamp() > retentionMs,
                "log retention time " + retentionMs + "ms breach");
    }

    private static int deleteRetentionSizeBreachedSegments(UnifiedLog log) throws IOException {
        long retentionSize = log.remoteLogEnabledAndRemoteCopyEnabled()
                ? log.config().localRetentionBytes()
                : log.config().retentionBytes();
        long logSize = log.size();
        if (retentionSize < 0 || logSize < retentionSize) {
            return 0;
        }
        long[] diff = {logSize - retentionSize};
        return deleteOldSegments(
                log,
                (segment, next) -> {
                    boolean delete = diff[0] - segment.size() >= 0;
                    if (delete) {
                        diff[0] -= segment.size();
                    }
                    return delete;
                },
                "log retention size " + retentionSize + " breach");
    }

    private static int deleteLogStartOffsetBreachedSegments(UnifiedLog log) throws IOException {
        return deleteOldSegments(
                log,
                (segment, next) -> next.isPresent() && next.get().baseOffset() <= log.logStartOffset(),
                "log start offset " + log.logStartOffset() + " breach");
    }

    private static int deleteOldSegments(UnifiedLog log, DeletionCondition condition, String reason)
            throws IOException {
        synchronized (log.lock) {
            List<LogSegment> deletable = deletableSegments(log, condition);
            return deletable.isEmpty() ? 0 : log.deleteSegments(deletable, reason);
        }
    }

    private static List<LogSegment> deletableSegments(UnifiedLog log, DeletionCondition condition) throws IOException {
        List<LogSegment> deletable = new ArrayList<>();
        Iterator<LogSegment> segments =
                List.copyOf(log.localLog().segments().values()).iterator();
        Optional<LogSegment> segment = next(segments);
        while (segment.isPresent()) {
            Optional<LogSegment> nextSegment = next(segments);
            boolean isLastSegmentAndEmpty =
                    nextSegment.isEmpty() && segment.get().size() == 0;
            long upperBoundOffset = nextSegment.map(LogSegment::baseOffset).orElseGet(log::logEndOffset);
            if (log.highWatermark() < upperBoundOffset
                    || isLastSegmentAndEmpty
                    || !condition.execute(segment.get(), nextSegment)
                    || !isSegmentEligibleForDeletion(log, nextSegment, upperBoundOffset)) {
                break;
            }
            deletable.add(segment.get());
            segment = nextSegment;
        }
        return deletable;
    }

    // Kafka's isSegmentEligibleForDeletion: a log copying to the remote tier deletes a segment once it is copied
    // whole, or once the log start offset passed it.
    private static boolean isSegmentEligibleForDeletion(
            UnifiedLog log, Optional<LogSegment> nextSegment, long upperBoundOffset) {
        if (!log.remoteLogEnabledAndRemoteCopyEnabled()) {
            return true;
        }
        boolean logStartOffsetPassedIt = nextSegment.isPresent()
                && log.logStartOffset() >= nextSegment.get().baseOffset();
        return (upperBoundOffset > 0 && upperBoundOffset - 1 <= log.highestOffsetInRemoteStorage())
                || logStartOffsetPassedIt;
    }

    private static Optional<LogSegment> next(Iterator<LogSegment> segments) {
        return segments.hasNext() ? Optional.of(segments.next()) : Optional.empty();
    }
}
