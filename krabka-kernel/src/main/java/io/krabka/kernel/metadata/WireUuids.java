package io.krabka.kernel.metadata;

import java.util.HashMap;
import java.util.Map;

/**
 * Ids between the kernel ({@code io.krabka.spi.common.Uuid}) and Kafka's wire messages (kafka-clients'
 * {@code Uuid}): the same 128 bits.
 */
public final class WireUuids {

    private WireUuids() {}

    /** {@code id} as kafka-clients' {@code Uuid}. */
    public static org.apache.kafka.common.Uuid toWire(io.krabka.spi.common.Uuid id) {
        return new org.apache.kafka.common.Uuid(id.mostSignificantBits(), id.leastSignificantBits());
    }

    /** kafka-clients' {@code id} as the kernel's. */
    public static io.krabka.spi.common.Uuid fromWire(org.apache.kafka.common.Uuid id) {
        return new io.krabka.spi.common.Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    /** The topic names of {@code image} by wire topic id. */
    public static Map<org.apache.kafka.common.Uuid, String> topicNames(MetadataImage image) {
        Map<org.apache.kafka.common.Uuid, String> names = new HashMap<>();
        for (TopicImage topic : image.topics().values()) {
            names.put(toWire(topic.id()), topic.name());
        }
        return names;
    }
}
