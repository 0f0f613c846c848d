package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.LogSegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Groups successive segments into the runs that are cleaned into one segment each, as Kafka's
 * {@code groupSegmentsBySize}: a run's records, offset indexes and time indexes each stay within
 * {@code segment.bytes} and {@code segment.index.bytes}, and its offsets within what an index can hold relative to
 * its base offset, so that repeated cleanings do not leave ever smaller segments.
 */
final class SegmentGroups {

    private SegmentGroups() {}

    /**
     * The runs of {@code segments}, in order.
     *
     * @param firstUncleanableOffset the end of the cleaning: bounds the last segment's offsets
     */
    static List<List<LogSegment>> groupSegmentsBySize(
            List<LogSegment> segments, int maxSize, int maxIndexSize, long firstUncleanableOffset) {
        List<List<LogSegment>> grouped = new ArrayList<>();
        int next = 0;
        while (next < segments.size()) {
            LogSegment first = segments.get(next++);
            List<LogSegment> group = new ArrayList<>(List.of(first));
            long logSize = first.size();
            long indexSize = first.offsetIndex().sizeInBytes();
            long timeIndexSize = first.timeIndex().sizeInBytes();
            while (next < segments.size()) {
                LogSegment candidate = segments.get(next);
                // An empty segment adds no offsets: no need to check their range.
                if (logSize + candidate.size() > maxSize
                        || indexSize + candidate.offsetIndex().sizeInBytes() > maxIndexSize
                        || timeIndexSize + candidate.timeIndex().sizeInBytes() > maxIndexSize
                        || (candidate.size() != 0
                                && lastOffsetForFirstSegment(segments, next, firstUncleanableOffset)
                                                - first.baseOffset()
                                        > Integer.MAX_VALUE)) {
                    break;
                }
                group.add(candidate);
                logSize += candidate.size();
                indexSize += candidate.offsetIndex().sizeInBytes();
                timeIndexSize += candidate.timeIndex().sizeInBytes();
                next++;
            }
            grouped.add(group);
        }
        return grouped;
    }

    // The last offset segment i may hold, without reading it: below the next segment's base, or the cleaning's end.
    private static long lastOffsetForFirstSegment(List<LogSegment> segments, int i, long firstUncleanableOffset) {
        return i + 1 < segments.size() ? segments.get(i + 1).baseOffset() - 1 : firstUncleanableOffset - 1;
    }
}
