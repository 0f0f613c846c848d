package io.krabka.kernel.log.config;

import static io.krabka.kernel.log.config.TopicConfigs.*;

import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.LogValidator;
import io.krabka.kernel.record.TimestampType;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigType;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

/**
 * A topic's settings, as Kafka's storage {@code LogConfig}: an immutable, typed view of every
 * {@linkplain TopicConfigs topic setting}, each from the topic's own value, a broker synonym, or the default.
 *
 * <p>{@link #fromProps} checks each value (type and range; errors name the key) but, like Kafka's constructor,
 * not the rules between settings: a log must still open after the broker's defaults moved. CreateTopics and
 * AlterConfigs check those with {@link #validateNew} and {@link #validateChange}.
 */
public final class LogConfig {

    private final Map<String, ConfigEntry> entries;
    private final int segmentBytes;
    private final Optional<Integer> internalSegmentBytes;
    private final long segmentMs;
    private final long segmentJitterMs;
    private final int segmentIndexBytes;
    private final long flushMessages;
    private final long flushMs;
    private final long retentionBytes;
    private final long retentionMs;
    private final int maxMessageBytes;
    private final int maxDecompressedMessageBytes;
    private final int indexIntervalBytes;
    private final long fileDeleteDelayMs;
    private final long maxCompactionLagMs;
    private final Set<CleanupPolicy> cleanupPolicy;
    private final BrokerCompressionType compressionType;
    private final Optional<Compression> compression;
    private final boolean preallocate;
    private final TimestampType messageTimestampType;
    private final long messageTimestampBeforeMaxMs;
    private final long messageTimestampAfterMaxMs;
    private final long localRetentionMs;
    private final long localRetentionBytes;

    private LogConfig(Map<String, ConfigEntry> entries, Optional<Integer> internalSegmentBytes) {
        this.entries = Map.copyOf(entries);
        this.internalSegmentBytes = internalSegmentBytes;
        segmentBytes = (Integer) value(SEGMENT_BYTES);
        segmentMs = (Long) value(SEGMENT_MS);
        segmentJitterMs = (Long) value(SEGMENT_JITTER_MS);
        segmentIndexBytes = (Integer) value(SEGMENT_INDEX_BYTES);
        flushMessages = (Long) value(FLUSH_MESSAGES);
        flushMs = (Long) value(FLUSH_MS);
        retentionBytes = (Long) value(RETENTION_BYTES);
        retentionMs = (Long) value(RETENTION_MS);
        maxMessageBytes = (Integer) value(MAX_MESSAGE_BYTES);
        maxDecompressedMessageBytes = (Integer) value(MAX_DECOMPRESSED_MESSAGE_BYTES);
        indexIntervalBytes = (Integer) value(INDEX_INTERVAL_BYTES);
        fileDeleteDelayMs = (Long) value(FILE_DELETE_DELAY_MS);
        maxCompactionLagMs = (Long) value(MAX_COMPACTION_LAG_MS);
        cleanupPolicy = ((List<?>) value(CLEANUP_POLICY))
                .stream()
                        .map(name -> CleanupPolicy.forName((String) name))
                        .collect(Collectors.toCollection(() -> EnumSet.noneOf(CleanupPolicy.class)));
        compressionType = BrokerCompressionType.forName((String) value(COMPRESSION_TYPE));
        compression = compressionType.codec().map(this::compressionOf);
        preallocate = (Boolean) value(PREALLOCATE);
        messageTimestampType = TimestampType.forName((String) value(MESSAGE_TIMESTAMP_TYPE));
        messageTimestampBeforeMaxMs = (Long) value(MESSAGE_TIMESTAMP_BEFORE_MAX_MS);
        messageTimestampAfterMaxMs = (Long) value(MESSAGE_TIMESTAMP_AFTER_MAX_MS);
        long localMs = (Long) value(LOCAL_RETENTION_MS);
        localRetentionMs = localMs == -2 ? retentionMs : localMs;
        long localBytes = (Long) value(LOCAL_RETENTION_BYTES);
        localRetentionBytes = localBytes == -2 ? retentionBytes : localBytes;
    }

    /**
     * The settings of a topic.
     *
     * @param brokerProps    the broker's settings (as {@code server.properties} gives them); only the topic
     *                       settings' broker synonyms are read
     * @param topicOverrides the topic's own settings, as text or values of their types
     * @throws ConfigException naming the key, for an unknown topic setting or a value of the wrong type or range
     */
    public static LogConfig fromProps(Map<String, ?> brokerProps, Map<String, ?> topicOverrides) {
        Map<String, Object> overrides = new HashMap<>(topicOverrides);
        Object internal = overrides.remove(INTERNAL_SEGMENT_BYTES_CONFIG);
        return new LogConfig(
                TopicConfigResolver.resolve(brokerProps, overrides),
                Optional.ofNullable(internal)
                        .map(value -> (Integer) ConfigType.INT.parse(INTERNAL_SEGMENT_BYTES_CONFIG, value)));
    }

    /** Kafka's defaults. */
    public static LogConfig defaults() {
        return fromProps(Map.of(), Map.of());
    }

    /**
     * The settings of a new topic, checked as Kafka's controller checks CreateTopics: each value, then the rules
     * between settings (compaction lags; with {@code remote.storage.enable}, that tiering is enabled on the broker,
     * the delete-only cleanup policy, local retention within retention, copy lags within local retention, and equal
     * retentions when copying is disabled).
     *
     * @param remoteLogStorageSystemEnabled the broker's {@code remote.log.storage.system.enable}
     * @throws ConfigException naming the key
     */
    public static LogConfig validateNew(
            Map<String, ?> brokerProps, Map<String, ?> topicOverrides, boolean remoteLogStorageSystemEnabled) {
        LogConfig config = fromProps(brokerProps, topicOverrides);
        TopicConfigRules.checkTopic(config, remoteLogStorageSystemEnabled, false);
        return config;
    }

    /**
     * The settings a topic gets from AlterConfigs, checked as {@link #validateNew} does and, as Kafka does, refusing
     * to turn {@code remote.storage.enable} off without {@code remote.log.delete.on.disable}.
     *
     * @param current      the topic's settings now
     * @param newOverrides all of the topic's own settings after the change
     * @throws ConfigException naming the key
     */
    public static LogConfig validateChange(
            LogConfig current,
            Map<String, ?> brokerProps,
            Map<String, ?> newOverrides,
            boolean remoteLogStorageSystemEnabled) {
        LogConfig config = fromProps(brokerProps, newOverrides);
        TopicConfigRules.checkTopic(config, remoteLogStorageSystemEnabled, current.remoteStorageEnable());
        return config;
    }

    /**
     * Checks the broker's own defaults as Kafka does at startup: the compaction lags and, with tiering enabled,
     * {@code log.local.retention.*} within {@code log.retention.*}.
     *
     * @throws ConfigException naming the key
     */
    public static void validateBrokerDefaults(Map<String, ?> brokerProps, boolean remoteLogStorageSystemEnabled) {
        TopicConfigRules.checkBrokerDefaults(fromProps(brokerProps, Map.of()), remoteLogStorageSystemEnabled);
    }

    /** Every setting with its value and source, in Kafka's order: what DescribeConfigs lists. */
    public List<ConfigEntry> entries() {
        return TopicConfigs.ALL.stream().map(def -> entries.get(def.name())).toList();
    }

    /** The entry of a setting. */
    public ConfigEntry entry(TopicConfigDef def) {
        return entries.get(def.name());
    }

    /** The value of a setting, of its type; the raw value for the -2/-1 settings ({@link #localRetentionMs} resolves). */
    public Object value(TopicConfigDef def) {
        return entries.get(def.name()).value();
    }

    /** The names of the settings the topic sets itself. */
    public Set<String> overriddenConfigs() {
        return entries.values().stream()
                .filter(e -> e.source() == ConfigSource.DYNAMIC_TOPIC_CONFIG)
                .map(ConfigEntry::name)
                .collect(Collectors.toUnmodifiableSet());
    }

    /** {@code segment.bytes}. */
    public int segmentBytes() {
        return segmentBytes;
    }

    /**
     * The size at which segments roll, as Kafka's {@code segmentSize()}: Kafka's test-only
     * {@value TopicConfigs#INTERNAL_SEGMENT_BYTES_CONFIG} where the topic sets it (Kafka's own tests and Kafka-written
     * test logs use segments below {@code segment.bytes}' minimum of 1 MiB), else {@code segment.bytes}.
     */
    public int segmentSize() {
        return internalSegmentBytes.orElse(segmentBytes);
    }

    /** {@code segment.ms}. */
    public long segmentMs() {
        return segmentMs;
    }

    /** {@code segment.jitter.ms}. */
    public long segmentJitterMs() {
        return segmentJitterMs;
    }

    /** A new segment's roll jitter: random below {@code segment.jitter.ms} and {@code segment.ms}; 0 without jitter. */
    public long randomSegmentJitter() {
        return segmentJitterMs == 0 ? 0 : ThreadLocalRandom.current().nextLong(Math.min(segmentJitterMs, segmentMs));
    }

    /** The time after which the active segment rolls: {@code segment.ms}, capped by the max compaction lag when compacting. */
    public long maxSegmentMs() {
        return isCompact() && maxCompactionLagMs > 0 ? Math.min(maxCompactionLagMs, segmentMs) : segmentMs;
    }

    /** The size a new segment file is created with: {@link #segmentSize()} when preallocating, else 0. */
    public int initFileSize() {
        return preallocate ? segmentSize() : 0;
    }

    /** {@code segment.index.bytes}: the size of a segment's offset and time indexes. */
    public int segmentIndexBytes() {
        return segmentIndexBytes;
    }

    /** {@code index.interval.bytes}. */
    public int indexIntervalBytes() {
        return indexIntervalBytes;
    }

    /** {@code flush.messages}. */
    public long flushMessages() {
        return flushMessages;
    }

    /** {@code flush.ms}. */
    public long flushMs() {
        return flushMs;
    }

    /** {@code retention.ms}; -1 for no limit. */
    public long retentionMs() {
        return retentionMs;
    }

    /** {@code retention.bytes}; negative for no limit. */
    public long retentionBytes() {
        return retentionBytes;
    }

    /** {@code local.retention.ms}, with -2 resolved to {@code retention.ms}. */
    public long localRetentionMs() {
        return localRetentionMs;
    }

    /** {@code local.retention.bytes}, with -2 resolved to {@code retention.bytes}. */
    public long localRetentionBytes() {
        return localRetentionBytes;
    }

    /**
     * {@code remote.copy.lag.ms}, with -1 resolved to {@link #localRetentionMs}, as Kafka 4.4 does: 0 makes a rolled
     * segment eligible for tiering at once, -1 (an unlimited local retention) means the time check does not apply.
     */
    public long remoteCopyLagMs() {
        long lag = (Long) value(REMOTE_COPY_LAG_MS);
        return lag == -1 ? localRetentionMs : lag;
    }

    /**
     * {@code remote.copy.lag.bytes}, with -1 resolved to {@link #localRetentionBytes}, as Kafka 4.4 does: 0 makes a
     * rolled segment eligible for tiering at once, -1 (an unlimited local retention) means the size check does not
     * apply.
     */
    public long remoteCopyLagBytes() {
        long lag = (Long) value(REMOTE_COPY_LAG_BYTES);
        return lag == -1 ? localRetentionBytes : lag;
    }

    /** {@code max.message.bytes}. */
    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    /** {@code max.decompressed.message.bytes}. */
    public int maxDecompressedMessageBytes() {
        return maxDecompressedMessageBytes;
    }

    /** {@code message.timestamp.type}. */
    public TimestampType messageTimestampType() {
        return messageTimestampType;
    }

    /** {@code message.timestamp.before.max.ms}. */
    public long messageTimestampBeforeMaxMs() {
        return messageTimestampBeforeMaxMs;
    }

    /** {@code message.timestamp.after.max.ms}. */
    public long messageTimestampAfterMaxMs() {
        return messageTimestampAfterMaxMs;
    }

    /** {@code compression.type}. */
    public BrokerCompressionType compressionType() {
        return compressionType;
    }

    /** The codec and level batches are stored with; empty for {@code producer} (kept as sent). */
    public Optional<Compression> compression() {
        return compression;
    }

    /** {@code file.delete.delay.ms}. */
    public long fileDeleteDelayMs() {
        return fileDeleteDelayMs;
    }

    /** {@code cleanup.policy}; empty for none (kept forever). */
    public Set<CleanupPolicy> cleanupPolicy() {
        return Set.copyOf(cleanupPolicy);
    }

    /** Whether {@code cleanup.policy} includes compact. */
    public boolean isCompact() {
        return cleanupPolicy.contains(CleanupPolicy.COMPACT);
    }

    /** Whether {@code cleanup.policy} includes delete. */
    public boolean isDelete() {
        return cleanupPolicy.contains(CleanupPolicy.DELETE);
    }

    /** {@code delete.retention.ms}. */
    public long deleteRetentionMs() {
        return (Long) value(DELETE_RETENTION_MS);
    }

    /** {@code min.compaction.lag.ms}. */
    public long minCompactionLagMs() {
        return (Long) value(MIN_COMPACTION_LAG_MS);
    }

    /** {@code max.compaction.lag.ms}. */
    public long maxCompactionLagMs() {
        return maxCompactionLagMs;
    }

    /** {@code min.cleanable.dirty.ratio}. */
    public double minCleanableDirtyRatio() {
        return (Double) value(MIN_CLEANABLE_DIRTY_RATIO);
    }

    /** {@code preallocate}. */
    public boolean preallocate() {
        return preallocate;
    }

    /** {@code min.insync.replicas}. */
    public int minInSyncReplicas() {
        return (Integer) value(MIN_IN_SYNC_REPLICAS);
    }

    /** {@code unclean.leader.election.enable}. */
    public boolean uncleanLeaderElectionEnable() {
        return (Boolean) value(UNCLEAN_LEADER_ELECTION_ENABLE);
    }

    /** {@code leader.replication.throttled.replicas}. */
    public List<String> leaderReplicationThrottledReplicas() {
        return strings(LEADER_REPLICATION_THROTTLED_REPLICAS);
    }

    /** {@code follower.replication.throttled.replicas}. */
    public List<String> followerReplicationThrottledReplicas() {
        return strings(FOLLOWER_REPLICATION_THROTTLED_REPLICAS);
    }

    /** {@code remote.storage.enable}. */
    public boolean remoteStorageEnable() {
        return (Boolean) value(REMOTE_STORAGE_ENABLE);
    }

    /** {@code remote.log.copy.disable}. */
    public boolean remoteLogCopyDisable() {
        return (Boolean) value(REMOTE_LOG_COPY_DISABLE);
    }

    /** {@code remote.log.delete.on.disable}. */
    public boolean remoteLogDeleteOnDisable() {
        return (Boolean) value(REMOTE_LOG_DELETE_ON_DISABLE);
    }

    /** {@code errors.deadletterqueue.group.enable}. */
    public boolean errorsDeadletterqueueGroupEnable() {
        return (Boolean) value(ERRORS_DEADLETTERQUEUE_GROUP_ENABLE);
    }

    /** The settings produce validation takes. */
    public LogValidator.Config validatorConfig() {
        return new LogValidator.Config(
                maxMessageBytes,
                messageTimestampType,
                messageTimestampBeforeMaxMs,
                messageTimestampAfterMaxMs,
                compression,
                isCompact(),
                maxDecompressedMessageBytes);
    }

    /** The settings the topic sets itself, then the broker's; defaults are left out. */
    @Override
    public String toString() {
        return entries().stream()
                .filter(e -> e.source() != ConfigSource.DEFAULT_CONFIG)
                .map(e -> e.name() + "=" + e.valueText()
                        + (e.source() == ConfigSource.STATIC_BROKER_CONFIG ? " (broker)" : ""))
                .collect(Collectors.joining(", ", "LogConfig[", "]"));
    }

    private Compression compressionOf(CompressionType codec) {
        return switch (codec) {
            case NONE, SNAPPY -> Compression.of(codec);
            case GZIP -> new Compression(codec, (Integer) value(COMPRESSION_GZIP_LEVEL));
            case LZ4 -> new Compression(codec, (Integer) value(COMPRESSION_LZ4_LEVEL));
            case ZSTD -> new Compression(codec, (Integer) value(COMPRESSION_ZSTD_LEVEL));
        };
    }

    private List<String> strings(TopicConfigDef def) {
        return ((List<?>) value(def)).stream().map(String::valueOf).toList();
    }
}
