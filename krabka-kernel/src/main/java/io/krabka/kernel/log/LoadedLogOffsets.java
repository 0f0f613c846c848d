package io.krabka.kernel.log;

import java.util.List;
import java.util.Objects;

/**
 * What {@link LogLoader#load()} found: Kafka's {@code LoadedLogOffsets}, and which segments it had to recover.
 *
 * @param logStartOffset     the log start offset
 * @param recoveryPoint      the first offset not known to be flushed
 * @param nextOffsetMetadata the log end offset, at the end of the active segment
 * @param recoveredSegments  the base offsets of the segments recovered (read batch by batch, indexes rebuilt):
 *                           those above the recovery point after an unclean shutdown, and any whose index was
 *                           missing or corrupt
 */
public record LoadedLogOffsets(
        long logStartOffset, long recoveryPoint, LogOffsetMetadata nextOffsetMetadata, List<Long> recoveredSegments) {

    /** Checks the parts and freezes the list. */
    public LoadedLogOffsets {
        Objects.requireNonNull(nextOffsetMetadata, "nextOffsetMetadata");
        recoveredSegments = List.copyOf(recoveredSegments);
    }
}
