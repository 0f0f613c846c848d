package io.krabka.plugin.rlmm.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.plugin.ConfigException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The keys of Kafka 4.3's {@code TopicBasedRemoteLogMetadataManagerConfig}, with its defaults and prefixes. */
class TopicBasedRemoteLogMetadataManagerConfigTest {
    private static final Map<String, Object> OFFERED = Map.of(
            "tiered.storage.dir",
            "/var/lib/krabka/data-tiered",
            "remote.log.metadata.common.client.bootstrap.servers",
            "127.0.0.1:9092",
            "broker.id",
            7);

    private static TopicBasedRemoteLogMetadataManagerConfig parse(Map<String, Object> settings) {
        Map<String, Object> all = new HashMap<>(OFFERED);
        all.putAll(settings);
        return TopicBasedRemoteLogMetadataManagerConfig.parse(all);
    }

    @Test
    void kafkasDefaults() {
        TopicBasedRemoteLogMetadataManagerConfig config = parse(Map.of());
        assertEquals(50, config.topicPartitions());
        assertEquals(3, config.replicationFactor());
        assertEquals(2, config.minIsr(), "Kafka 4.3's remote.log.metadata.topic.min.isr");
        assertEquals(-1, config.retentionMs());
        assertEquals("__remote_log_metadata_client_7", config.clientIdPrefix());
    }

    @Test
    void theMinIsrIsKafkasKeyAndAtLeastOne() {
        assertEquals(1, parse(Map.of("remote.log.metadata.topic.min.isr", "1")).minIsr());
        assertEquals(
                "invalid value 0 for remote.log.metadata.topic.min.isr: must be at least 1",
                assertThrows(ConfigException.class, () -> parse(Map.of("remote.log.metadata.topic.min.isr", "0")))
                        .getMessage());
    }

    @Test
    void eachClientTakesTheCommonSettingsThenItsOwn() {
        TopicBasedRemoteLogMetadataManagerConfig config = parse(Map.of(
                "remote.log.metadata.common.client.request.timeout.ms", "1000",
                "remote.log.metadata.admin.request.timeout.ms", "2000",
                "remote.log.metadata.producer.linger.ms", "5",
                "remote.log.metadata.consumer.fetch.max.wait.ms", "50"));
        assertEquals("2000", config.admin().get("request.timeout.ms"));
        assertEquals("1000", config.producer().get("request.timeout.ms"));
        assertEquals("1000", config.consumer().get("request.timeout.ms"));
        assertEquals("5", config.producer().get("linger.ms"));
        assertEquals(null, config.admin().get("linger.ms"));
        assertEquals("50", config.consumer().get("fetch.max.wait.ms"));
        assertEquals("127.0.0.1:9092", config.admin().get("bootstrap.servers"));
    }
}
