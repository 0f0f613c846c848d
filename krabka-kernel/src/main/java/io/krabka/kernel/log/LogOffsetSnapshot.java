package io.krabka.kernel.log;

import java.util.Objects;

/**
 * A log's offsets at one moment, each with its position where known: what a fetch response reports. Kafka's
 * {@code LogOffsetSnapshot}.
 *
 * @param logStartOffset   the first offset readers may read
 * @param logEndOffset     the offset the next append gets
 * @param highWatermark    the offset up to which appends are acknowledged
 * @param lastStableOffset the offset up to which every transaction is decided
 */
public record LogOffsetSnapshot(
        long logStartOffset,
        LogOffsetMetadata logEndOffset,
        LogOffsetMetadata highWatermark,
        LogOffsetMetadata lastStableOffset) {

    /** Checks the parts. */
    public LogOffsetSnapshot {
        Objects.requireNonNull(logEndOffset, "logEndOffset");
        Objects.requireNonNull(highWatermark, "highWatermark");
        Objects.requireNonNull(lastStableOffset, "lastStableOffset");
    }
}
