package io.krabka.kernel.restore.materialize;

import io.krabka.spi.common.Uuid;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A topic as the restored cluster's metadata records it.
 *
 * @param name       its name
 * @param topicId    its id, the archive's
 * @param configs    its configs
 * @param partitions each partition's leader epoch: above every epoch its restored batches carry, so the node
 *                   that leads it after the restore writes in a new epoch
 */
public record RestoredTopic(
        String name, Uuid topicId, Map<String, String> configs, SortedMap<Integer, Integer> partitions) {

    /** Freezes the parts. */
    public RestoredTopic {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(topicId, "topicId");
        configs = Map.copyOf(configs);
        partitions = new TreeMap<>(partitions);
    }
}
