package io.krabka.kernel.group;

import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.UnsupportedCompressionTypeException;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigType;
import java.util.Map;
import java.util.Objects;

/**
 * The group coordinator's settings, with Kafka's key names and defaults ({@code GroupCoordinatorConfig}).
 *
 * @param groupMinSessionTimeoutMs           {@code group.min.session.timeout.ms} (6000): the shortest session a
 *                                           member may ask for
 * @param groupMaxSessionTimeoutMs           {@code group.max.session.timeout.ms} (1800000): the longest
 * @param groupInitialRebalanceDelayMs       {@code group.initial.rebalance.delay.ms} (3000): how long the first
 *                                           rebalance of an empty group waits for more members
 * @param groupMaxSize                       {@code group.max.size} (Integer.MAX_VALUE): members per group
 * @param newMemberJoinTimeoutMs             the session of a member that joined and has not yet received a
 *                                           join response: a constant in Kafka
 *                                           ({@code CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS}, 300000), not a key
 * @param offsetsTopicNumPartitions          {@code offsets.topic.num.partitions} (50)
 * @param offsetsTopicReplicationFactor      {@code offsets.topic.replication.factor}: Kafka's default is 3;
 *                                           Krabka's is 1, a single node
 * @param offsetsTopicSegmentBytes           {@code offsets.topic.segment.bytes} (104857600)
 * @param offsetsTopicCompressionType        {@code offsets.topic.compression.codec} (0, none; Kafka's codec
 *                                           ids): the codec of the batches the coordinator writes
 * @param offsetMetadataMaxBytes             {@code offset.metadata.max.bytes} (4096)
 * @param offsetsRetentionMinutes            {@code offsets.retention.minutes} (10080, 7 days)
 * @param offsetsRetentionCheckIntervalMs    {@code offsets.retention.check.interval.ms} (600000)
 */
public record GroupCoordinatorConfig(
        int groupMinSessionTimeoutMs,
        int groupMaxSessionTimeoutMs,
        int groupInitialRebalanceDelayMs,
        int groupMaxSize,
        int newMemberJoinTimeoutMs,
        int offsetsTopicNumPartitions,
        short offsetsTopicReplicationFactor,
        int offsetsTopicSegmentBytes,
        CompressionType offsetsTopicCompressionType,
        int offsetMetadataMaxBytes,
        long offsetsRetentionMinutes,
        long offsetsRetentionCheckIntervalMs) {

    /** Kafka's defaults, but a replication factor of 1. */
    public static final GroupCoordinatorConfig DEFAULTS = new GroupCoordinatorConfig(
            6_000,
            1_800_000,
            3_000,
            Integer.MAX_VALUE,
            300_000,
            50,
            (short) 1,
            104_857_600,
            CompressionType.NONE,
            4096,
            10_080,
            600_000);

    /** Checks the values as Kafka's config definitions do. */
    public GroupCoordinatorConfig {
        positive("group.min.session.timeout.ms", groupMinSessionTimeoutMs);
        if (groupMaxSessionTimeoutMs < groupMinSessionTimeoutMs) {
            throw new IllegalArgumentException("group.max.session.timeout.ms " + groupMaxSessionTimeoutMs
                    + " is below group.min.session.timeout.ms " + groupMinSessionTimeoutMs);
        }
        if (groupInitialRebalanceDelayMs < 0) {
            throw new IllegalArgumentException("group.initial.rebalance.delay.ms " + groupInitialRebalanceDelayMs);
        }
        positive("group.max.size", groupMaxSize);
        positive("classic.group.new.member.join.timeout.ms", newMemberJoinTimeoutMs);
        positive("offsets.topic.num.partitions", offsetsTopicNumPartitions);
        positive("offsets.topic.replication.factor", offsetsTopicReplicationFactor);
        positive("offsets.topic.segment.bytes", offsetsTopicSegmentBytes);
        Objects.requireNonNull(offsetsTopicCompressionType, "offsetsTopicCompressionType");
        if (offsetMetadataMaxBytes < 0) {
            throw new IllegalArgumentException("offset.metadata.max.bytes " + offsetMetadataMaxBytes);
        }
        positive("offsets.retention.minutes", offsetsRetentionMinutes);
        positive("offsets.retention.check.interval.ms", offsetsRetentionCheckIntervalMs);
    }

    /**
     * The settings in broker properties ({@code server.properties}), the defaults above for those not set.
     *
     * @throws ConfigException naming the key, for a value of the wrong type or range
     */
    public static GroupCoordinatorConfig fromProps(Map<String, ?> props) {
        GroupCoordinatorConfig d = DEFAULTS;
        int codec = intValue(
                props,
                "offsets.topic.compression.codec",
                d.offsetsTopicCompressionType().id());
        try {
            return new GroupCoordinatorConfig(
                    intValue(props, "group.min.session.timeout.ms", d.groupMinSessionTimeoutMs()),
                    intValue(props, "group.max.session.timeout.ms", d.groupMaxSessionTimeoutMs()),
                    intValue(props, "group.initial.rebalance.delay.ms", d.groupInitialRebalanceDelayMs()),
                    intValue(props, "group.max.size", d.groupMaxSize()),
                    d.newMemberJoinTimeoutMs(),
                    intValue(props, "offsets.topic.num.partitions", d.offsetsTopicNumPartitions()),
                    (short) intValue(props, "offsets.topic.replication.factor", d.offsetsTopicReplicationFactor()),
                    intValue(props, "offsets.topic.segment.bytes", d.offsetsTopicSegmentBytes()),
                    CompressionType.forId(codec),
                    intValue(props, "offset.metadata.max.bytes", d.offsetMetadataMaxBytes()),
                    longValue(props, "offsets.retention.minutes", d.offsetsRetentionMinutes()),
                    longValue(props, "offsets.retention.check.interval.ms", d.offsetsRetentionCheckIntervalMs()));
        } catch (IllegalArgumentException | UnsupportedCompressionTypeException e) {
            throw new ConfigException("group coordinator settings", props, e.getMessage());
        }
    }

    private static int intValue(Map<String, ?> props, String key, int defaultValue) {
        Object raw = props.get(key);
        return raw == null ? defaultValue : (Integer) ConfigType.INT.parse(key, raw);
    }

    private static long longValue(Map<String, ?> props, String key, long defaultValue) {
        Object raw = props.get(key);
        return raw == null ? defaultValue : (Long) ConfigType.LONG.parse(key, raw);
    }

    private static void positive(String key, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(key + " must be at least 1: " + value);
        }
    }

    /** {@code offsets.retention.minutes} in milliseconds. */
    public long offsetsRetentionMs() {
        return offsetsRetentionMinutes * 60_000L;
    }

    /** These settings with other session bounds and initial delay (tests and tuned brokers). */
    public GroupCoordinatorConfig withSessionTimeouts(int minMs, int maxMs, int initialRebalanceDelayMs) {
        return new GroupCoordinatorConfig(
                minMs,
                maxMs,
                initialRebalanceDelayMs,
                groupMaxSize,
                newMemberJoinTimeoutMs,
                offsetsTopicNumPartitions,
                offsetsTopicReplicationFactor,
                offsetsTopicSegmentBytes,
                offsetsTopicCompressionType,
                offsetMetadataMaxBytes,
                offsetsRetentionMinutes,
                offsetsRetentionCheckIntervalMs);
    }
}
