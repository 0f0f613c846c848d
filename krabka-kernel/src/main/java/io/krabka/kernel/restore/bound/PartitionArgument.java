package io.krabka.kernel.restore.bound;

import io.krabka.spi.common.TopicPartition;

/**
 * A bound flag that names one partition. Only after the archive is scanned is it known whether the partition
 * exists; {@link RestoreBounds#unknownPartitions} finds those that do not.
 */
public sealed interface PartitionArgument permits OffsetBound, OffsetExclusion {

    /** The partition the flag names. */
    TopicPartition partition();

    /** The flag, as the operator writes it: {@code --to-offset}, {@code --exclude-offset}. */
    String flag();
}
