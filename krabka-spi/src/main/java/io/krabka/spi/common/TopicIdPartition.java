package io.krabka.spi.common;

import java.util.Objects;

/**
 * A partition together with the id of its topic, which tells a partition apart from one of an earlier topic
 * of the same name (KIP-516).
 *
 * @param topicId        the topic id
 * @param topicPartition the topic name and partition number
 */
public record TopicIdPartition(Uuid topicId, TopicPartition topicPartition) {

    /** Validates the parts. */
    public TopicIdPartition {
        Objects.requireNonNull(topicId, "topicId");
        Objects.requireNonNull(topicPartition, "topicPartition");
    }

    /**
     * Shorthand for a partition of a topic with this id.
     *
     * @param topicId   the topic id
     * @param topic     the topic name
     * @param partition the partition number
     */
    public TopicIdPartition(Uuid topicId, String topic, int partition) {
        this(topicId, new TopicPartition(topic, partition));
    }

    /** {@return the topic name} */
    public String topic() {
        return topicPartition.topic();
    }

    /** {@return the partition number} */
    public int partition() {
        return topicPartition.partition();
    }

    /** {@code topicId:topic-partition}, Kafka's text form. */
    @Override
    public String toString() {
        return topicId + ":" + topicPartition;
    }
}
