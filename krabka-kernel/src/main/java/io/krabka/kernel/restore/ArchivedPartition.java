package io.krabka.kernel.restore;

import io.krabka.spi.common.Uuid;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A partition's segment copies found in an archive, by start offset (legacy copies, which carry none in their
 * keys, last, by id).
 *
 * @param directory the partition's directory under the archive's prefix, as the keys name it
 * @param topic     the topic's name; empty in the legacy layout, whose keys carry only the topic id
 * @param topicId   the topic's id
 * @param partition the partition's number
 * @param segments  the copies
 */
public record ArchivedPartition(
        String directory, Optional<String> topic, Uuid topicId, int partition, List<ArchivedSegment> segments) {

    private static final Comparator<ArchivedSegment> BY_START = Comparator.comparingLong(
                    (ArchivedSegment s) -> s.startOffset().orElse(Long.MAX_VALUE))
            .thenComparing(ArchivedSegment::segmentId);

    /** Sorts and freezes the copies. */
    public ArchivedPartition {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(topicId, "topicId");
        segments = segments.stream().sorted(BY_START).toList();
    }
}
