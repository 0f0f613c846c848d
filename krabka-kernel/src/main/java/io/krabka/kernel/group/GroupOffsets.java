package io.krabka.kernel.group;

import io.krabka.spi.common.TopicPartition;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.protocol.Errors;

/**
 * A group's committed offsets as OffsetFetch asks for them.
 *
 * @param error    the group's error: NONE, or why the coordinator cannot answer
 * @param offsets  the partitions asked for (or all committed ones), in order, each with its offset or null for none
 * @param unstable the partitions whose offset an open transaction holds: answered UNSTABLE_OFFSET_COMMIT when the
 *                 fetch requires stable offsets
 */
public record GroupOffsets(Errors error, Map<TopicPartition, OffsetCommitValue> offsets, Set<TopicPartition> unstable) {

    /** Keeps the order; null values stand for partitions without an offset. */
    public GroupOffsets {
        Objects.requireNonNull(error, "error");
        offsets = Collections.unmodifiableMap(new LinkedHashMap<>(offsets));
        unstable = Set.copyOf(unstable);
    }
}
