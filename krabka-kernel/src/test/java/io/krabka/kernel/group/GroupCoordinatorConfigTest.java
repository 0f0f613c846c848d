package io.krabka.kernel.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.kernel.record.CompressionType;
import io.krabka.spi.plugin.ConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The coordinator's settings: Kafka 4.4's keys and defaults (judged by its GroupCoordinatorConfig), and bad values. */
class GroupCoordinatorConfigTest {

    private static final Class<org.apache.kafka.coordinator.group.GroupCoordinatorConfig> KAFKA =
            org.apache.kafka.coordinator.group.GroupCoordinatorConfig.class;

    @Test
    void theDefaultsAreKafkasButTheReplicationFactor() {
        GroupCoordinatorConfig config = GroupCoordinatorConfig.fromProps(Map.of());
        assertEquals(GroupCoordinatorConfig.DEFAULTS, config);
        assertEquals(
                org.apache.kafka.coordinator.group.GroupCoordinatorConfig.GROUP_MIN_SESSION_TIMEOUT_MS_DEFAULT,
                config.groupMinSessionTimeoutMs());
        assertEquals(
                org.apache.kafka.coordinator.group.GroupCoordinatorConfig.GROUP_MAX_SESSION_TIMEOUT_MS_DEFAULT,
                config.groupMaxSessionTimeoutMs());
        assertEquals(
                org.apache.kafka.coordinator.group.GroupCoordinatorConfig.GROUP_INITIAL_REBALANCE_DELAY_MS_DEFAULT,
                config.groupInitialRebalanceDelayMs());
        assertEquals(
                org.apache.kafka.coordinator.group.GroupCoordinatorConfig.GROUP_MAX_SIZE_DEFAULT,
                config.groupMaxSize());
        assertEquals(
                org.apache.kafka.coordinator.group.GroupCoordinatorConfig.CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS,
                config.newMemberJoinTimeoutMs());
        assertEquals(
                org.apache.kafka.coordinator.group.GroupCoordinatorConfig.OFFSETS_TOPIC_PARTITIONS_DEFAULT,
                config.offsetsTopicNumPartitions());
        assertEquals(
                org.apache.kafka.coordinator.group.GroupCoordinatorConfig.OFFSETS_TOPIC_SEGMENT_BYTES_DEFAULT,
                config.offsetsTopicSegmentBytes());
        assertEquals(
                org.apache.kafka.coordinator.group.GroupCoordinatorConfig.OFFSETS_TOPIC_COMPRESSION_CODEC_DEFAULT.id,
                config.offsetsTopicCompressionType().id());
        assertEquals(
                org.apache.kafka.coordinator.group.GroupCoordinatorConfig.OFFSET_METADATA_MAX_SIZE_DEFAULT,
                config.offsetMetadataMaxBytes());
        assertEquals(
                org.apache.kafka.coordinator.group.GroupCoordinatorConfig.OFFSETS_RETENTION_MINUTES_DEFAULT,
                config.offsetsRetentionMinutes());
        assertEquals(
                org.apache.kafka.coordinator.group.GroupCoordinatorConfig.OFFSETS_RETENTION_CHECK_INTERVAL_MS_DEFAULT,
                config.offsetsRetentionCheckIntervalMs());
        assertEquals(1, config.offsetsTopicReplicationFactor(), "a single node; Kafka's default is 3");
    }

    @Test
    void theKeysAreKafkas() throws ReflectiveOperationException {
        Map<String, String> props = Map.of(
                (String) KAFKA.getField("GROUP_MIN_SESSION_TIMEOUT_MS_CONFIG").get(null), "1000",
                (String) KAFKA.getField("GROUP_MAX_SESSION_TIMEOUT_MS_CONFIG").get(null), "2000",
                (String) KAFKA.getField("GROUP_INITIAL_REBALANCE_DELAY_MS_CONFIG")
                                .get(null),
                        "0",
                (String) KAFKA.getField("GROUP_MAX_SIZE_CONFIG").get(null), "10",
                (String) KAFKA.getField("OFFSETS_TOPIC_PARTITIONS_CONFIG").get(null), "3",
                (String) KAFKA.getField("OFFSETS_TOPIC_REPLICATION_FACTOR_CONFIG")
                                .get(null),
                        "1",
                (String) KAFKA.getField("OFFSETS_TOPIC_COMPRESSION_CODEC_CONFIG")
                                .get(null),
                        "4",
                (String) KAFKA.getField("OFFSET_METADATA_MAX_SIZE_CONFIG").get(null), "100",
                (String) KAFKA.getField("OFFSETS_RETENTION_MINUTES_CONFIG").get(null), "5",
                (String) KAFKA.getField("OFFSETS_RETENTION_CHECK_INTERVAL_MS_CONFIG")
                                .get(null),
                        "1000");
        GroupCoordinatorConfig config = GroupCoordinatorConfig.fromProps(props);
        assertEquals(
                new GroupCoordinatorConfig(
                        1000, 2000, 0, 10, 300_000, 3, (short) 1, 104_857_600, CompressionType.ZSTD, 100, 5, 1000),
                config);
        assertEquals(300_000, config.offsetsRetentionMs());
    }

    @Test
    void badValuesNameTheirKey() {
        assertThrows(
                ConfigException.class,
                () -> GroupCoordinatorConfig.fromProps(Map.of("group.min.session.timeout.ms", "ten")));
        assertThrows(
                ConfigException.class,
                () -> GroupCoordinatorConfig.fromProps(
                        Map.of("group.min.session.timeout.ms", "9000", "group.max.session.timeout.ms", "8000")));
        assertThrows(
                ConfigException.class,
                () -> GroupCoordinatorConfig.fromProps(Map.of("offsets.topic.num.partitions", "0")));
        assertThrows(
                ConfigException.class,
                () -> GroupCoordinatorConfig.fromProps(Map.of("offsets.topic.compression.codec", "9")));
    }
}
