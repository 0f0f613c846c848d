package io.krabka.kernel.restore.bound;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The bound flags of one {@code krabka restore}, each value parsed but not yet checked against the others:
 * {@link RestoreBounds#of} does that.
 *
 * @param toOffsets          every {@code --to-offset}
 * @param toTimestamp        the {@code --to-timestamp}, if given
 * @param excludeOffsets     every {@code --exclude-offset}
 * @param excludeKeys        every {@code --exclude-key}
 * @param excludeHeaders     every {@code --exclude-header}
 * @param excludeProducerIds every {@code --exclude-producer-id}
 */
public record BoundArguments(
        List<OffsetBound> toOffsets,
        Optional<TimestampBound> toTimestamp,
        List<OffsetExclusion> excludeOffsets,
        List<KeyExclusion> excludeKeys,
        List<HeaderExclusion> excludeHeaders,
        List<ProducerExclusion> excludeProducerIds) {

    /** Keeps unmodifiable copies, in the order the flags were given. */
    public BoundArguments {
        toOffsets = List.copyOf(toOffsets);
        Objects.requireNonNull(toTimestamp, "toTimestamp");
        excludeOffsets = List.copyOf(excludeOffsets);
        excludeKeys = List.copyOf(excludeKeys);
        excludeHeaders = List.copyOf(excludeHeaders);
        excludeProducerIds = List.copyOf(excludeProducerIds);
    }
}
