package io.krabka.kernel.group;

import io.krabka.kernel.coordinator.CoordinatorPartitions;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntSupplier;
import org.apache.kafka.common.message.CreateTopicsRequestData;

/**
 * The {@code __consumer_offsets} topic: which partition holds a group, and how the topic is created (Kafka's
 * {@code GroupCoordinatorService.groupMetadataTopicConfigs}: compacted, the producer's compression, segments of
 * {@code offsets.topic.segment.bytes}).
 */
public final class OffsetsTopic {

    /** The topic's name. */
    public static final String NAME = "__consumer_offsets";

    private final GroupCoordinatorConfig config;
    private final IntSupplier partitionCount;

    /**
     * The topic.
     *
     * @param partitionCount the topic's partitions once it exists, else 0 (then the configured count is used)
     */
    OffsetsTopic(GroupCoordinatorConfig config, IntSupplier partitionCount) {
        this.config = Objects.requireNonNull(config, "config");
        this.partitionCount = Objects.requireNonNull(partitionCount, "partitionCount");
    }

    /** The partition of a group: Kafka's {@code Utils.abs(groupId.hashCode()) % partitions}. */
    public int partitionFor(String groupId) {
        int existing = partitionCount.getAsInt();
        return partitionFor(groupId, existing > 0 ? existing : config.offsetsTopicNumPartitions());
    }

    /** The partition of a group among {@code partitions}. */
    public static int partitionFor(String groupId, int partitions) {
        return CoordinatorPartitions.partitionFor(groupId, partitions);
    }

    /** The CreateTopics request that creates the topic. */
    CreateTopicsRequestData creation() {
        return CoordinatorPartitions.creation(
                NAME,
                config.offsetsTopicNumPartitions(),
                config.offsetsTopicReplicationFactor(),
                Map.of(
                        "cleanup.policy",
                        "compact",
                        "compression.type",
                        "producer",
                        "segment.bytes",
                        Integer.toString(config.offsetsTopicSegmentBytes())));
    }
}
