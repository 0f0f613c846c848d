package io.krabka.kernel.restore.bound;

import io.krabka.spi.common.TopicPartition;
import java.util.Objects;

/**
 * {@code --to-offset TOPIC:PARTITION=N}: keep the partition's offsets at or below {@code N}.
 *
 * @param partition the partition
 * @param offset    the last offset kept, inclusive
 */
public record OffsetBound(TopicPartition partition, long offset) implements PartitionArgument {

    /** The flag's name. */
    public static final String FLAG = "--to-offset";

    /** Checks the parts. */
    public OffsetBound {
        Objects.requireNonNull(partition, "partition");
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be at least 0: " + offset);
        }
    }

    /**
     * Parses the flag's value.
     *
     * @throws InvalidRestoreArgumentException naming the flag and the value when it is not {@code TOPIC:PARTITION=N}
     *                                         with a legal topic name and non-negative numbers
     */
    public static OffsetBound parse(String value) throws InvalidRestoreArgumentException {
        ArgumentText.Assignment parts = ArgumentText.partitionAssignment(FLAG, value, "TOPIC:PARTITION=N");
        return new OffsetBound(
                parts.partition(), ArgumentText.nonNegative(FLAG, value, "offset", parts.right(), Long.MAX_VALUE));
    }

    @Override
    public String flag() {
        return FLAG;
    }

    /** The flag's value: {@code TOPIC:PARTITION=N}. */
    @Override
    public String toString() {
        return partition.topic() + ":" + partition.partition() + "=" + offset;
    }
}
