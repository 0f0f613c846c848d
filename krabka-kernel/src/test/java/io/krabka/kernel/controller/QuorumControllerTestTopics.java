package io.krabka.kernel.controller;

import java.util.Map;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;

/** Topics to create in other packages' tests. */
public final class QuorumControllerTestTopics {

    private QuorumControllerTestTopics() {}

    /** A topic of {@code partitions} partitions, replication factor 1, no configs. */
    public static CreatableTopic topic(String name, int partitions) {
        return QuorumControllerTest.topic(name, partitions, 1, Map.of());
    }
}
