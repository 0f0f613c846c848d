package io.krabka.kernel.metadata;

import io.krabka.spi.common.Uuid;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A topic as the cluster metadata has it.
 *
 * @param name       the topic name
 * @param id         the topic id
 * @param partitions the partitions by partition id, 0 to n-1
 */
public record TopicImage(String name, Uuid id, SortedMap<Integer, PartitionRegistration> partitions) {

    /** Copies the partitions (read-only) and checks they are numbered 0 to n-1. */
    public TopicImage {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(id, "id");
        partitions = Collections.unmodifiableSortedMap(new TreeMap<>(partitions));
        int expected = 0;
        for (int partition : partitions.keySet()) {
            if (partition != expected++) {
                throw new IllegalArgumentException("topic " + name + " has partitions " + partitions.keySet());
            }
        }
    }

    /** A topic with the given partitions. */
    public static TopicImage of(String name, Uuid id, Map<Integer, PartitionRegistration> partitions) {
        return new TopicImage(name, id, new TreeMap<>(partitions));
    }
}
