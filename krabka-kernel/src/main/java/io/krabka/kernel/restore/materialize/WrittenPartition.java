package io.krabka.kernel.restore.materialize;

import io.krabka.spi.common.TopicPartition;
import java.nio.file.Path;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A partition directory as written.
 *
 * @param partition      the partition
 * @param dir            its directory
 * @param logStartOffset the base offset of its first segment
 * @param logEndOffset   the offset after the last one it holds
 * @param latestEpoch    the highest leader epoch its batches carry
 */
public record WrittenPartition(
        TopicPartition partition, Path dir, long logStartOffset, long logEndOffset, OptionalInt latestEpoch) {

    /** Checks the values. */
    public WrittenPartition {
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(latestEpoch, "latestEpoch");
        if (logEndOffset < logStartOffset) {
            throw new IllegalArgumentException(
                    "log end offset " + logEndOffset + " below log start offset " + logStartOffset);
        }
    }
}
