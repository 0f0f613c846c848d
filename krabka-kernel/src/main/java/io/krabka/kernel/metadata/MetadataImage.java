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
 * @param offset           the offset of the last metadata record applied; -1 for the empty image
 * @param features         the finalized feature levels (metadata.version, group.version, ...)
 * @param topics           the topics by name
 * @param topicConfigs     the configs set on each topic by name (only keys set; defaults are not here)
 * @param brokerConfigs    the dynamic configs set for the cluster (the default broker resource "")
 * @param perBrokerConfigs the dynamic configs set for one broker, by its id (the broker resource "1")
 * @param groupConfigs     the configs set on each group by group id (only keys set; defaults are not here)
 * @param nextProducerId   the first producer id not yet given out
 * @param acls             the ACLs
 * @param scram            the SCRAM credentials
 * @param clientQuotas     the client quotas
 */
public record MetadataImage(
        long offset,
        Map<String, Short> features,
        Map<String, TopicImage> topics,
        Map<String, Map<String, String>> topicConfigs,
        Map<String, String> brokerConfigs,
        Map<String, Map<String, String>> perBrokerConfigs,
        Map<String, Map<String, String>> groupConfigs,
        long nextProducerId,
        AclsImage acls,
        ScramImage scram,
        ClientQuotasImage clientQuotas) {

    /** The image before any record. */
    public static final MetadataImage EMPTY =
            new MetadataImage(-1, Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), 0);

    /** An image without ACLs, SCRAM credentials or client quotas. */
    public MetadataImage(
            long offset,
            Map<String, Short> features,
            Map<String, TopicImage> topics,
            Map<String, Map<String, String>> topicConfigs,
            Map<String, String> brokerConfigs,
            Map<String, Map<String, String>> perBrokerConfigs,
            Map<String, Map<String, String>> groupConfigs,
            long nextProducerId) {
        this(
                offset,
                features,
                topics,
                topicConfigs,
                brokerConfigs,
                perBrokerConfigs,
                groupConfigs,
                nextProducerId,
                AclsImage.EMPTY,
                ScramImage.EMPTY,
                ClientQuotasImage.EMPTY);
    }

    /** Copies the maps and checks the offset. */
    public MetadataImage {
        if (offset < -1) {
            throw new IllegalArgumentException("metadata offset " + offset);
        }
        features = Map.copyOf(features);
        topics = Map.copyOf(topics);
        topicConfigs = copy(topicConfigs);
        brokerConfigs = Map.copyOf(brokerConfigs);
        perBrokerConfigs = copy(perBrokerConfigs);
        groupConfigs = copy(groupConfigs);
        if (nextProducerId < 0) {
            throw new IllegalArgumentException("next producer id " + nextProducerId);
        }
        Objects.requireNonNull(acls, "acls");
        Objects.requireNonNull(scram, "scram");
        Objects.requireNonNull(clientQuotas, "clientQuotas");
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

    /** The dynamic configs set for one broker; empty when none are. */
    public Map<String, String> perBrokerConfig(int brokerId) {
        return perBrokerConfigs.getOrDefault(String.valueOf(brokerId), Map.of());
    }

    /** The configs set on a group; empty when none are. */
    public Map<String, String> groupConfig(String group) {
        return groupConfigs.getOrDefault(group, Map.of());
    }

    private static Map<String, Map<String, String>> copy(Map<String, Map<String, String>> configs) {
        Map<String, Map<String, String>> copy = new HashMap<>();
        configs.forEach((name, values) -> copy.put(name, Map.copyOf(values)));
        return Map.copyOf(copy);
    }
}
