package io.krabka.rlmm.cache;

import io.krabka.spi.common.TopicIdPartition;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The whole content of the in-memory cache, as a value: what a snapshot file holds.
 *
 * @param partitions every known partition, each once
 */
public record MetadataSnapshot(List<PartitionSnapshot> partitions) {

    /** Checks that no partition appears twice and freezes the list. */
    public MetadataSnapshot {
        partitions = List.copyOf(partitions);
        Set<TopicIdPartition> seen = new HashSet<>();
        for (PartitionSnapshot partition : partitions) {
            if (!seen.add(partition.topicIdPartition())) {
                throw new IllegalArgumentException("partition " + partition.topicIdPartition() + " appears twice");
            }
        }
    }
}
