package io.krabka.kernel.restore.bound;

import io.krabka.spi.common.TopicPartition;
import java.util.Objects;

/**
 * {@code --exclude-offset TOPIC:PARTITION=A..B} (B exclusive) or {@code A..=B} (B inclusive): the records of a
 * range of offsets are excluded. Held with both ends inclusive, so that {@code A..=Long.MAX_VALUE} needs no
 * offset past the largest long.
 *
 * @param partition the partition
 * @param first     the first offset excluded
 * @param last      the last offset excluded, at least {@code first}
 */
public record OffsetExclusion(TopicPartition partition, long first, long last) implements PartitionArgument {

    /** The flag's name. */
    public static final String FLAG = "--exclude-offset";

    private static final String FORM = "TOPIC:PARTITION=A..B or TOPIC:PARTITION=A..=B";

    /** Checks the parts. */
    public OffsetExclusion {
        Objects.requireNonNull(partition, "partition");
        if (first < 0 || last < first) {
            throw new IllegalArgumentException("not a range of offsets: " + first + "..=" + last);
        }
    }

    /**
     * Parses the flag's value.
     *
     * @throws InvalidRestoreArgumentException naming the flag and the value when it is not of the form
     *                                         {@code TOPIC:PARTITION=A..B} or {@code A..=B}, or the range is empty
     */
    public static OffsetExclusion parse(String value) throws InvalidRestoreArgumentException {
        ArgumentText.Assignment parts = ArgumentText.partitionAssignment(FLAG, value, FORM);
        String range = parts.right();
        int dots = range.indexOf("..");
        if (dots < 0) {
            throw InvalidRestoreArgumentException.of(FLAG, value, "expected " + FORM);
        }
        boolean inclusive = range.startsWith("=", dots + 2);
        long start = ArgumentText.nonNegative(FLAG, value, "offset", range.substring(0, dots), Long.MAX_VALUE);
        long end = ArgumentText.nonNegative(
                FLAG, value, "offset", range.substring(dots + (inclusive ? 3 : 2)), Long.MAX_VALUE);
        if (inclusive ? end < start : end <= start) {
            throw InvalidRestoreArgumentException.of(
                    FLAG, value, "the range is empty: write A..B with A < B, " + "or A..=B with A <= B");
        }
        return new OffsetExclusion(parts.partition(), start, inclusive ? end : end - 1);
    }

    /** Whether {@code offset} is excluded. */
    public boolean contains(long offset) {
        return first <= offset && offset <= last;
    }

    @Override
    public String flag() {
        return FLAG;
    }

    /** The flag's value, with the inclusive end: {@code TOPIC:PARTITION=A..=B}. */
    @Override
    public String toString() {
        return partition.topic() + ":" + partition.partition() + "=" + first + "..=" + last;
    }
}
