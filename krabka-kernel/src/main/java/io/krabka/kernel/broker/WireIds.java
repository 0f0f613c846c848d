package io.krabka.kernel.broker;

import java.util.HashMap;
import java.util.Map;

import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.TopicImage;

/** Topic ids between the kernel ({@code io.krabka.spi.common.Uuid}) and the wire (kafka-clients' {@code Uuid}). */
final class WireIds {

    private WireIds() {
    }

    static org.apache.kafka.common.Uuid toWire(io.krabka.spi.common.Uuid id) {
        return new org.apache.kafka.common.Uuid(id.mostSignificantBits(), id.leastSignificantBits());
    }

    static io.krabka.spi.common.Uuid fromWire(org.apache.kafka.common.Uuid id) {
        return new io.krabka.spi.common.Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    /** The topic names of an image by wire topic id. */
    static Map<org.apache.kafka.common.Uuid, String> topicNames(MetadataImage image) {
        Map<org.apache.kafka.common.Uuid, String> names = new HashMap<>();
        for (TopicImage topic : image.topics().values()) {
            names.put(toWire(topic.id()), topic.name());
        }
        return names;
    }
}
