package io.krabka.kernel.restore.bound;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The {@code --exclude-offset} ranges of one partition, merged where they overlap or touch, so that a batch that
 * several ranges cover together is seen as covered.
 */
final class OffsetRanges {

    private final List<OffsetExclusion> merged;

    /** Merges the ranges of one partition. */
    OffsetRanges(List<OffsetExclusion> ranges) {
        List<OffsetExclusion> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingLong(OffsetExclusion::first));
        List<OffsetExclusion> out = new ArrayList<>();
        for (OffsetExclusion range : sorted) {
            OffsetExclusion previous = out.isEmpty() ? null : out.getLast();
            // Compared as "first - 1 <= last" so that a range ending at Long.MAX_VALUE cannot overflow.
            if (previous != null && range.first() - 1 <= previous.last()) {
                out.set(
                        out.size() - 1,
                        new OffsetExclusion(
                                previous.partition(), previous.first(), Math.max(previous.last(), range.last())));
            } else {
                out.add(range);
            }
        }
        this.merged = List.copyOf(out);
    }

    /** Whether {@code offset} is excluded. */
    boolean contains(long offset) {
        return merged.stream().anyMatch(range -> range.contains(offset));
    }

    /** Whether every offset from {@code first} to {@code last} is excluded. */
    boolean covers(long first, long last) {
        return merged.stream().anyMatch(range -> range.first() <= first && last <= range.last());
    }

    /** Whether some offset from {@code first} to {@code last} is excluded. */
    boolean overlaps(long first, long last) {
        return merged.stream().anyMatch(range -> range.first() <= last && first <= range.last());
    }
}
