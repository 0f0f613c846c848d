package io.krabka.kernel.metadata;

import io.krabka.spi.common.Uuid;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The cluster metadata as of one offset of the metadata log: what every broker component reads. Immutable; the
 * controller publishes a new image after each committed change (Kafka's {@code MetadataImage}).
 *
 * @param offset         the offset of the last metadata record applied; -1 for the empty image
 * @param features       the finalized feature levels (metadata.version, group.version, ...)
 * @param topics         the topics by name
 * @param topicConfigs   the configs set on each topic by name (only keys set; defaults are not here)
 * @param brokerConfigs  the dynamic configs set for the cluster (the default broker resource "")
 * @param nextProducerId the first producer id not yet given out
 */
public record MetadataImage(
        long offset,
        Map<String, Short> features,
        Map<String, TopicImage> topics,
        Map<String, Map<String, String>> topicConfigs,
        Map<String, String> brokerConfigs,
        long nextProducerId) {

    /** The image before any record. */
    public static final MetadataImage EMPTY = new MetadataImage(-1, Map.of(), Map.of(), Map.of(), Map.of(), 0);

    /** Copies the maps and checks the offset. */
    public MetadataImage {
        if (offset < -1) {
            throw new IllegalArgumentException("metadata offset " + offset);
        }
        features = Map.copyOf(features);
        topics = Map.copyOf(topics);
        Map<String, Map<String, String>> configs = new HashMap<>();
        topicConfigs.forEach((topic, values) -> configs.put(topic, Map.copyOf(values)));
        topicConfigs = Map.copyOf(configs);
        brokerConfigs = Map.copyOf(brokerConfigs);
        if (nextProducerId < 0) {
            throw new IllegalArgumentException("next producer id " + nextProducerId);
        }
    }

    /** The topic with this name. */
    public Optional<TopicImage> topic(String name) {
        return Optional.ofNullable(topics.get(Objects.requireNonNull(name, "name")));
    }

    /** The topic with this id. */
    public Optional<TopicImage> topic(Uuid id) {
        return topics.values().stream().filter(topic -> topic.id().equals(id)).findFirst();
    }

    /** The configs set on a topic; empty when none are. */
    public Map<String, String> topicConfig(String topic) {
        return topicConfigs.getOrDefault(topic, Map.of());
    }
}
