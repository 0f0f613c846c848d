package io.krabka.it;

import io.krabka.spi.common.TopicPartition;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * A topic a workload creates.
 *
 * @param name       its name
 * @param partitions its number of partitions
 * @param configs    its topic configs
 */
record TopicSpec(String name, int partitions, Map<String, String> configs) {

    /** Copies the configs. */
    TopicSpec {
        configs = Map.copyOf(configs);
    }

    /** Its partitions, in order. */
    List<TopicPartition> topicPartitions() {
        return IntStream.range(0, partitions)
                .mapToObj(p -> new TopicPartition(name, p))
                .toList();
    }
}
