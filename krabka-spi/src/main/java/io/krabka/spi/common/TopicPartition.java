package io.krabka.spi.common;

import java.util.Objects;

/**
 * A partition of a topic, named as Kafka names it.
 *
 * @param topic     the topic name
 * @param partition the partition number, at least zero
 */
public record TopicPartition(String topic, int partition) {

    /** Validates the parts. */
    public TopicPartition {
        Objects.requireNonNull(topic, "topic");
        if (topic.isEmpty()) {
            throw new IllegalArgumentException("topic name is empty");
        }
        if (partition < 0) {
            throw new IllegalArgumentException("partition must be at least 0: " + partition);
        }
    }

    /** {@code topic-partition}, Kafka's text form. */
    @Override
    public String toString() {
        return topic + "-" + partition;
    }
}
