package io.krabka.kernel.log.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.config.ConfigEntry.Synonym;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.LogValidator;
import io.krabka.kernel.record.TimestampType;
import io.krabka.spi.plugin.ConfigException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class LogConfigTest {

    private static final long HOUR = TimeUnit.HOURS.toMillis(1);

    @Test
    void kafka4Defaults() {
        LogConfig config = LogConfig.defaults();
        assertEquals(1 << 30, config.segmentBytes());
        assertEquals(168 * HOUR, config.segmentMs());
        assertEquals(168 * HOUR, config.retentionMs());
        assertEquals(-1, config.retentionBytes());
        assertEquals(168 * HOUR, config.localRetentionMs(), "-2 follows retention.ms");
        assertEquals(-1, config.localRetentionBytes(), "-2 follows retention.bytes");
        assertEquals(HOUR, config.messageTimestampAfterMaxMs(), "one hour since Kafka 4.0");
        assertEquals(Long.MAX_VALUE, config.messageTimestampBeforeMaxMs());
        assertEquals(1_048_588, config.maxMessageBytes());
        assertEquals(TimestampType.CREATE_TIME, config.messageTimestampType());
        assertEquals(BrokerCompressionType.PRODUCER, config.compressionType());
        assertEquals(Optional.empty(), config.compression());
        assertEquals(Set.of(CleanupPolicy.DELETE), config.cleanupPolicy());
        assertEquals(0, config.initFileSize());
        assertEquals(0, config.randomSegmentJitter());
        assertEquals(Set.of(), config.overriddenConfigs());
        assertEquals("LogConfig[]", config.toString());
    }

    @Test
    void invalidValuesAreErrorsNamingTheKey() {
        assertRejected("segment.bytes", () -> topic(Map.of("segment.bytes", "1048575")), "at least 1048576");
        assertRejected("segment.bytes", () -> topic(Map.of("segment.bytes", "1GB")), "expected int");
        assertRejected("max.message.bytes", () -> topic(Map.of("max.message.bytes", "-1")), "at least 0");
        assertRejected("retention.ms", () -> topic(Map.of("retention.ms", "-2")), "at least -1");
        assertRejected("local.retention.ms", () -> topic(Map.of("local.retention.ms", "-3")), "at least -2");
        assertRejected("cleanup.policy", () -> topic(Map.of("cleanup.policy", "Delete")), "compact, delete");
        assertRejected("cleanup.policy", () -> topic(Map.of("cleanup.policy", "delete,")), "must not be empty");
        assertRejected("compression.type", () -> topic(Map.of("compression.type", "GZIP")), "producer");
        assertRejected("compression.gzip.level", () -> topic(Map.of("compression.gzip.level", "0")), "or equal to -1");
        assertRejected(
                "message.timestamp.type", () -> topic(Map.of("message.timestamp.type", "createtime")), "LogAppendTime");
        assertRejected("preallocate", () -> topic(Map.of("preallocate", "yes")), "expected boolean");
        assertRejected(
                "min.cleanable.dirty.ratio",
                () -> topic(Map.of("min.cleanable.dirty.ratio", "1.5")),
                "between 0 and 1");
        assertRejected(
                "leader.replication.throttled.replicas",
                () -> topic(Map.of("leader.replication.throttled.replicas", "0-1")),
                "[partitionId]:[brokerId]");
        assertRejected("retention.hours", () -> topic(Map.of("retention.hours", "5")), "Unknown topic config name");
        assertRejected("num.partitions", () -> topic(Map.of("num.partitions", "3")), "Unknown topic config name");
    }

    @Test
    void compactIsAcceptedAndEmptyMeansNoCleanup() {
        LogConfig compact = topic(Map.of("cleanup.policy", "compact, delete,compact"));
        assertEquals(Set.of(CleanupPolicy.COMPACT, CleanupPolicy.DELETE), compact.cleanupPolicy());
        assertEquals(
                List.of("compact", "delete"), compact.value(TopicConfigs.CLEANUP_POLICY), "repeats dropped as Kafka");
        assertTrue(compact.isCompact() && compact.isDelete());
        LogConfig none = topic(Map.of("cleanup.policy", ""));
        assertEquals(Set.of(), none.cleanupPolicy());
        assertFalse(none.isCompact() || none.isDelete());
    }

    @Test
    void valuesMayBeGivenTyped() {
        LogConfig config = topic(Map.of(
                "segment.bytes",
                2 << 20,
                "retention.ms",
                5_000L,
                "preallocate",
                true,
                "cleanup.policy",
                List.of("compact")));
        assertEquals(2 << 20, config.segmentBytes());
        assertEquals(5_000, config.retentionMs());
        assertEquals(2 << 20, config.initFileSize());
        assertTrue(config.isCompact());
    }

    @Test
    void kafkasInternalSegmentBytesOverridesSegmentBytesWithoutAnEntry() {
        LogConfig config =
                topic(Map.of("internal.segment.bytes", "65536", "segment.bytes", 2 << 20, "preallocate", true));
        assertEquals(65_536, config.segmentSize());
        assertEquals(2 << 20, config.segmentBytes());
        assertEquals(65_536, config.initFileSize());
        assertFalse(config.overriddenConfigs().contains("internal.segment.bytes"));
        assertEquals(1 << 30, topic(Map.of()).segmentSize());
        assertThrows(ConfigException.class, () -> topic(Map.of("internal.segment.bytes", "big")));
    }

    @Test
    void retentionBrokerSynonymsTakeMillisOverMinutesOverHours() {
        assertEquals(5 * HOUR, broker(Map.of("log.retention.hours", "5")).retentionMs());
        assertEquals(
                TimeUnit.MINUTES.toMillis(7),
                broker(Map.of("log.retention.hours", "5", "log.retention.minutes", "7"))
                        .retentionMs());
        assertEquals(
                123,
                broker(Map.of("log.retention.hours", "5", "log.retention.minutes", "7", "log.retention.ms", "123"))
                        .retentionMs());
        assertEquals(
                123,
                broker(Map.of("log.retention.hours", "5", "log.retention.ms", "123"))
                        .retentionMs());
        assertEquals(-1, broker(Map.of("log.retention.hours", "-1")).retentionMs(), "negative means unlimited");
        assertEquals(-1, broker(Map.of("log.retention.ms", "-5")).retentionMs());
        assertEquals(
                -1,
                broker(Map.of("log.retention.minutes", "-1", "log.retention.hours", "5"))
                        .retentionMs());
    }

    @Test
    void otherBrokerSynonymsFollowKafkasPrecedence() {
        LogConfig config = broker(Map.of(
                "log.roll.hours",
                "2",
                "log.roll.jitter.hours",
                "1",
                "log.segment.bytes",
                "2097152",
                "log.flush.scheduler.interval.ms",
                "3000",
                "log.cleanup.policy",
                "compact",
                "message.max.bytes",
                "2000",
                "compression.type",
                "zstd",
                "compression.zstd.level",
                "9",
                "log.message.timestamp.type",
                "LogAppendTime"));
        assertEquals(2 * HOUR, config.segmentMs());
        assertEquals(HOUR, config.segmentJitterMs());
        assertEquals(2 << 20, config.segmentBytes());
        assertEquals(3000, config.flushMs(), "flush.ms falls back to log.flush.scheduler.interval.ms as in Kafka");
        assertTrue(config.isCompact());
        assertEquals(2000, config.maxMessageBytes());
        assertEquals(Optional.of(new Compression(CompressionType.ZSTD, 9)), config.compression());
        assertEquals(TimestampType.LOG_APPEND_TIME, config.messageTimestampType());

        LogConfig millis = broker(Map.of(
                "log.roll.hours",
                "2",
                "log.roll.ms",
                "500",
                "log.roll.jitter.hours",
                "1",
                "log.roll.jitter.ms",
                "50",
                "log.flush.scheduler.interval.ms",
                "3000",
                "log.flush.interval.ms",
                "10"));
        assertEquals(500, millis.segmentMs());
        assertEquals(50, millis.segmentJitterMs());
        assertEquals(10, millis.flushMs());
    }

    @Test
    void invalidBrokerValuesAreErrorsNamingTheBrokerKey() {
        assertRejected("log.roll.hours", () -> broker(Map.of("log.roll.hours", "0")), "segment.ms");
        assertRejected("log.roll.hours", () -> broker(Map.of("log.roll.hours", "two")), "expected int");
        assertRejected("log.segment.bytes", () -> broker(Map.of("log.segment.bytes", "1000")), "at least 1048576");
        assertRejected(
                "log.retention.minutes",
                () -> broker(Map.of("log.retention.minutes", "1.5", "log.retention.ms", "10")),
                "expected int");
        assertRejected("log.cleanup.policy", () -> broker(Map.of("log.cleanup.policy", "forever")), "compact, delete");
    }

    @Test
    void eachValueNamesItsSourceAndTheTopicsOwnWins() {
        LogConfig config = LogConfig.fromProps(
                Map.of(
                        "log.retention.hours",
                        "5",
                        "log.retention.minutes",
                        "7",
                        "log.segment.bytes",
                        "2097152",
                        "num.partitions",
                        "3",
                        "broker.id",
                        "1"),
                Map.of("retention.ms", "1000", "preallocate", "true"));
        assertEquals(1000, config.retentionMs());
        assertEquals(Set.of("retention.ms", "preallocate"), config.overriddenConfigs());

        ConfigEntry retention = config.entry(TopicConfigs.RETENTION_MS);
        assertEquals(ConfigSource.DYNAMIC_TOPIC_CONFIG, retention.source());
        assertEquals("1000", retention.valueText());
        assertEquals(
                List.of(
                        new Synonym("retention.ms", "1000", ConfigSource.DYNAMIC_TOPIC_CONFIG),
                        new Synonym("log.retention.minutes", "7", ConfigSource.STATIC_BROKER_CONFIG),
                        new Synonym("log.retention.hours", "5", ConfigSource.STATIC_BROKER_CONFIG),
                        new Synonym("retention.ms", "604800000", ConfigSource.DEFAULT_CONFIG)),
                retention.synonyms());

        ConfigEntry segmentBytes = config.entry(TopicConfigs.SEGMENT_BYTES);
        assertEquals(ConfigSource.STATIC_BROKER_CONFIG, segmentBytes.source());
        assertEquals(2 << 20, segmentBytes.value());
        assertEquals(
                ConfigSource.DEFAULT_CONFIG, config.entry(TopicConfigs.FLUSH_MS).source());
        assertEquals(
                List.of(new Synonym("flush.ms", String.valueOf(Long.MAX_VALUE), ConfigSource.DEFAULT_CONFIG)),
                config.entry(TopicConfigs.FLUSH_MS).synonyms());

        List<ConfigEntry> entries = config.entries();
        assertEquals(TopicConfigs.ALL, entries.stream().map(ConfigEntry::def).toList());
        assertEquals(
                3,
                entries.stream()
                        .filter(e -> e.source() != ConfigSource.DEFAULT_CONFIG)
                        .count());
        assertEquals(
                "LogConfig[segment.bytes=2097152 (broker), retention.ms=1000, preallocate=true]", config.toString());
    }

    @Test
    void remoteRetentionsResolveTheirSpecialValues() {
        LogConfig config = topic(Map.of(
                "retention.ms",
                "10000",
                "retention.bytes",
                "-1",
                "local.retention.ms",
                "4000",
                "remote.copy.lag.ms",
                "-1",
                "remote.copy.lag.bytes",
                "-1"));
        assertEquals(4000, config.localRetentionMs());
        assertEquals(-1, config.localRetentionBytes());
        assertEquals(4000, config.remoteCopyLagMs(), "-1 follows the local retention");
        assertEquals(-1, config.remoteCopyLagBytes(), "-1 with unlimited local retention: no size check");
        assertEquals(-1L, config.value(TopicConfigs.REMOTE_COPY_LAG_MS), "the raw value stays");
    }

    @Test
    void compressionResolvesToACodecAndLevel() {
        assertEquals(
                Optional.of(Compression.NONE),
                topic(Map.of("compression.type", "uncompressed")).compression());
        assertEquals(
                Optional.of(Compression.of(CompressionType.GZIP)),
                topic(Map.of("compression.type", "gzip")).compression());
        assertEquals(
                Optional.of(new Compression(CompressionType.GZIP, 6)),
                topic(Map.of("compression.type", "gzip", "compression.gzip.level", "6"))
                        .compression());
        assertEquals(
                Optional.of(new Compression(CompressionType.LZ4, 12)),
                topic(Map.of("compression.type", "lz4", "compression.lz4.level", "12"))
                        .compression());
        assertEquals(
                Optional.of(Compression.of(CompressionType.SNAPPY)),
                topic(Map.of("compression.type", "snappy")).compression());
    }

    @Test
    void validatorConfigCarriesTheProduceSettings() {
        LogConfig config = topic(Map.of(
                "max.message.bytes",
                "5000",
                "message.timestamp.type",
                "LogAppendTime",
                "message.timestamp.before.max.ms",
                "10",
                "message.timestamp.after.max.ms",
                "20",
                "compression.type",
                "lz4",
                "cleanup.policy",
                "compact",
                "max.decompressed.message.bytes",
                "70000"));
        assertEquals(
                new LogValidator.Config(
                        5000,
                        TimestampType.LOG_APPEND_TIME,
                        10,
                        20,
                        Optional.of(Compression.of(CompressionType.LZ4)),
                        true,
                        70_000),
                config.validatorConfig());
    }

    @Test
    void rollingFollowsSegmentMsJitterAndTheCompactionLag() {
        LogConfig jittered = topic(Map.of("segment.ms", "100", "segment.jitter.ms", "1000"));
        for (int n = 0; n < 1000; n++) {
            long jitter = jittered.randomSegmentJitter();
            assertTrue(jitter >= 0 && jitter < 100, "below min(segment.jitter.ms, segment.ms): " + jitter);
        }
        assertEquals(
                100,
                topic(Map.of("segment.ms", "100", "cleanup.policy", "compact", "max.compaction.lag.ms", "500"))
                        .maxSegmentMs());
        assertEquals(
                50,
                topic(Map.of("segment.ms", "100", "cleanup.policy", "compact", "max.compaction.lag.ms", "50"))
                        .maxSegmentMs());
        assertEquals(
                100,
                topic(Map.of("segment.ms", "100", "max.compaction.lag.ms", "50"))
                        .maxSegmentMs(),
                "the lag rolls compacted topics only");
    }

    @Test
    void compactionLagsMustBeOrdered() {
        assertRejected(
                "min.compaction.lag.ms",
                () -> LogConfig.validateNew(
                        Map.of(), Map.of("min.compaction.lag.ms", "10", "max.compaction.lag.ms", "5"), false),
                "max.compaction.lag.ms (5)");
        assertRejected(
                "min.compaction.lag.ms",
                () -> LogConfig.validateBrokerDefaults(
                        Map.of("log.cleaner.min.compaction.lag.ms", "10", "log.cleaner.max.compaction.lag.ms", "5"),
                        false),
                "(5)");
        LogConfig.validateNew(Map.of(), Map.of("min.compaction.lag.ms", "5", "max.compaction.lag.ms", "5"), false);
        assertEquals(
                10,
                topic(Map.of("min.compaction.lag.ms", "10", "max.compaction.lag.ms", "5"))
                        .minCompactionLagMs(),
                "a stored config still opens");
    }

    @Test
    void remoteStorageRulesNameTheKeyAtFault() {
        assertRejected("remote.storage.enable", () -> remote(Map.of(), false), "remote.log.storage.system.enable");
        assertRejected("cleanup.policy", () -> remote(Map.of("cleanup.policy", "compact")), "cleanup.policy=delete");
        assertRejected(
                "local.retention.bytes",
                () -> remote(Map.of("retention.bytes", "100", "local.retention.bytes", "101")),
                "retention.bytes (100)");
        assertRejected(
                "local.retention.bytes",
                () -> remote(Map.of("retention.bytes", "100", "local.retention.bytes", "-1")),
                "must not be -1");
        assertRejected(
                "local.retention.ms",
                () -> remote(Map.of("retention.ms", "1000", "local.retention.ms", "1001")),
                "retention.ms (1000)");
        assertRejected(
                "local.retention.ms",
                () -> LogConfig.validateNew(
                        Map.of("log.retention.ms", "1000"),
                        Map.of("remote.storage.enable", "true", "local.retention.ms", "2000"),
                        true),
                "retention.ms (1000)");
        assertRejected(
                "remote.copy.lag.ms",
                () -> remote(Map.of("local.retention.ms", "1000", "remote.copy.lag.ms", "1001")),
                "effective value 1000");
        assertRejected(
                "remote.copy.lag.bytes",
                () -> remote(Map.of("retention.bytes", "100", "remote.copy.lag.bytes", "101")),
                "effective value 100");
        assertRejected(
                "local.retention.ms",
                () -> remote(
                        Map.of("remote.log.copy.disable", "true", "retention.ms", "1000", "local.retention.ms", "500")),
                "must equal retention.ms");

        remote(Map.of("cleanup.policy", ""));
        remote(Map.of("retention.bytes", "100", "local.retention.bytes", "100", "remote.copy.lag.bytes", "100"));
        remote(Map.of("retention.ms", "-1", "local.retention.ms", "-1", "remote.copy.lag.ms", "999999"));
        remote(Map.of("remote.log.copy.disable", "true", "retention.ms", "1000", "local.retention.ms", "1000"));
        LogConfig.validateNew(Map.of(), Map.of("retention.ms", "1000", "local.retention.ms", "5000"), false);
    }

    @Test
    void remoteStorageIsTurnedOffOnlyWithDeleteOnDisable() {
        LogConfig tiered = remote(Map.of());
        assertRejected(
                "remote.storage.enable",
                () -> LogConfig.validateChange(tiered, Map.of(), Map.of("remote.storage.enable", "false"), true),
                "remote.log.delete.on.disable=true");
        assertRejected(
                "remote.storage.enable",
                () -> LogConfig.validateChange(tiered, Map.of(), Map.of(), true),
                "remote.log.delete.on.disable=true");
        LogConfig off = LogConfig.validateChange(
                tiered,
                Map.of(),
                Map.of("remote.storage.enable", "false", "remote.log.delete.on.disable", "true"),
                true);
        assertFalse(off.remoteStorageEnable());
        assertTrue(LogConfig.validateChange(
                        tiered,
                        Map.of(),
                        Map.of("remote.storage.enable", "true", "remote.log.copy.disable", "true"),
                        true)
                .remoteLogCopyDisable());
    }

    @Test
    void brokerDefaultsWithTieringKeepLocalRetentionWithinRetention() {
        assertRejected(
                "local.retention.ms",
                () -> LogConfig.validateBrokerDefaults(
                        Map.of("log.retention.hours", "1", "log.local.retention.ms", "7200000"), true),
                "retention.ms (3600000)");
        LogConfig.validateBrokerDefaults(
                Map.of("log.retention.hours", "1", "log.local.retention.ms", "7200000"), false);
        LogConfig.validateBrokerDefaults(Map.of("log.retention.hours", "2", "log.local.retention.ms", "7200000"), true);
    }

    private static LogConfig topic(Map<String, ?> overrides) {
        return LogConfig.fromProps(Map.of(), overrides);
    }

    private static LogConfig broker(Map<String, ?> brokerProps) {
        return LogConfig.fromProps(brokerProps, Map.of());
    }

    private static LogConfig remote(Map<String, String> overrides) {
        return remote(overrides, true);
    }

    private static LogConfig remote(Map<String, String> overrides, boolean systemEnabled) {
        Map<String, String> withRemote = new java.util.HashMap<>(overrides);
        withRemote.put("remote.storage.enable", "true");
        return LogConfig.validateNew(Map.of(), withRemote, systemEnabled);
    }

    private static void assertRejected(String key, Executable action, String detail) {
        ConfigException e = assertThrows(ConfigException.class, action);
        assertTrue(e.getMessage().contains(key), () -> "'" + e.getMessage() + "' does not name " + key);
        assertTrue(e.getMessage().contains(detail), () -> "'" + e.getMessage() + "' does not say " + detail);
    }
}
