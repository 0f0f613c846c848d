package io.krabka.kernel.log.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.server.config.ConfigSynonym;
import org.apache.kafka.server.config.ServerTopicConfigSynonyms;
import org.junit.jupiter.api.Test;

/**
 * Kafka 4.4's own topic configuration judges Krabka's, read from Kafka's classes rather than restated, so any
 * drift fails: the same settings in the same order, types, defaults and broker synonyms; the same values accepted
 * and rejected and parsed alike; the same typed view; the same verdicts on the rules between settings.
 */
class KafkaLogConfigCompatibilityTest {

    /** Values tried on every setting: boundaries of Kafka's ranges, names in and out of case, malformed text. */
    private static final List<String> PROBES = List.of(
            "-131073",
            "-131072",
            "-3",
            "-2",
            "-1",
            "0",
            "1",
            "3",
            "4",
            "9",
            "10",
            "17",
            "18",
            "22",
            "23",
            " 42 ",
            "1048575",
            "1048576",
            "2147483639",
            "2147483640",
            "9223372036854775807",
            "9223372036854775808",
            "0.5",
            "1.5",
            "1e3",
            "abc",
            "",
            " ",
            "true",
            "TRUE",
            "yes",
            "CreateTime",
            "createtime",
            "LogAppendTime",
            "gzip",
            "GZIP",
            "producer",
            "uncompressed",
            "none",
            "zstd",
            "delete",
            "compact",
            "compact,delete",
            "compact, delete",
            "delete,delete",
            "delete,",
            ",delete",
            "delete,,compact",
            "Delete",
            "*",
            " * ",
            "*,0:1",
            "0:1,1:2",
            "0:1,",
            "0 : 1",
            "0-1",
            "a:b");

    @Test
    void theSameSettingsInKafkasOrder() {
        List<String> kafkas = kafkaKeys().keySet().stream()
                .filter(name -> !kafkaKeys().get(name).internalConfig)
                .toList();
        assertEquals(kafkas, TopicConfigs.ALL.stream().map(TopicConfigDef::name).toList());
    }

    @Test
    void typesAndDefaultsAreKafkas() {
        org.apache.kafka.storage.internals.log.LogConfig kafkaDefaults =
                new org.apache.kafka.storage.internals.log.LogConfig(Map.of());
        LogConfig defaults = LogConfig.defaults();
        for (TopicConfigDef def : TopicConfigs.ALL) {
            ConfigDef.ConfigKey theirs = kafkaKeys().get(def.name());
            assertEquals(theirs.type.name(), def.key().type().name(), def.name());
            assertEquals(theirs.defaultValue, def.defaultValue(), def.name());
            assertEquals(kafkaDefaults.values().get(def.name()), defaults.value(def), def.name());
            assertEquals(ConfigSource.DEFAULT_CONFIG, defaults.entry(def).source(), def.name());
        }
    }

    @Test
    void brokerSynonymsAreKafkasInPrecedenceOrder() {
        for (TopicConfigDef def : TopicConfigs.ALL) {
            List<ConfigSynonym> theirs =
                    ServerTopicConfigSynonyms.ALL_TOPIC_CONFIG_SYNONYMS.getOrDefault(def.name(), List.of());
            assertEquals(
                    theirs.stream().map(ConfigSynonym::name).toList(),
                    def.brokerSynonyms().stream()
                            .map(io.krabka.kernel.log.config.ConfigSynonym::name)
                            .toList(),
                    def.name());
            String probe = def.toText(def.defaultValue());
            for (int i = 0; i < theirs.size(); i++) {
                io.krabka.kernel.log.config.ConfigSynonym ours =
                        def.brokerSynonyms().get(i);
                assertEquals(
                        theirs.get(i).converter().apply(probe),
                        def.toText(def.parseSynonym(ours, probe)),
                        ours.name() + "=" + probe);
            }
        }
    }

    @Test
    void everyProbeIsAcceptedOrRejectedAsKafkaDoesAndParsedAlike() {
        List<String> differences = new ArrayList<>();
        for (TopicConfigDef def : TopicConfigs.ALL) {
            for (String probe : PROBES) {
                Optional<Object> theirs = kafkaValue(def.name(), probe);
                Optional<Object> ours = ourValue(def.name(), probe);
                if (!theirs.equals(ours)) {
                    differences.add(def.name() + "=[" + probe + "]: Kafka " + theirs + ", Krabka " + ours);
                }
            }
        }
        assertTrue(differences.isEmpty(), () -> String.join("\n", differences));
    }

    @Test
    void theTypedViewIsKafkas() {
        List<Map<String, String>> configurations = List.of(
                Map.of(),
                Map.of("retention.ms", "1000", "retention.bytes", "5000"),
                Map.of("retention.ms", "1000", "local.retention.ms", "500", "local.retention.bytes", "-1"),
                Map.of("retention.ms", "-1", "remote.copy.lag.ms", "-1", "remote.copy.lag.bytes", "-1"),
                Map.of(
                        "local.retention.ms",
                        "700",
                        "local.retention.bytes",
                        "900",
                        "remote.copy.lag.ms",
                        "-1",
                        "remote.copy.lag.bytes",
                        "-1"),
                Map.of("cleanup.policy", "compact", "max.compaction.lag.ms", "1000", "segment.ms", "5000"),
                Map.of("cleanup.policy", "compact,delete", "segment.ms", "500", "max.compaction.lag.ms", "1000"),
                Map.of("cleanup.policy", ""),
                Map.of("preallocate", "true", "segment.bytes", "2097152"),
                Map.of("compression.type", "zstd", "compression.zstd.level", "7"),
                Map.of("compression.type", "gzip", "compression.gzip.level", "4"),
                Map.of("compression.type", "gzip"),
                Map.of("compression.type", "lz4", "compression.lz4.level", "12"),
                Map.of("compression.type", "snappy"),
                Map.of("compression.type", "uncompressed"),
                Map.of("message.timestamp.type", "LogAppendTime", "message.timestamp.before.max.ms", "10"),
                Map.of(
                        "leader.replication.throttled.replicas",
                        "0:1,1:2",
                        "follower.replication.throttled.replicas",
                        "*"),
                Map.of(
                        "remote.storage.enable",
                        "true",
                        "remote.log.copy.disable",
                        "true",
                        "remote.log.delete.on.disable",
                        "true",
                        "errors.deadletterqueue.group.enable",
                        "true"));
        for (Map<String, String> overrides : configurations) {
            Properties properties = new Properties();
            properties.putAll(overrides);
            var theirs = org.apache.kafka.storage.internals.log.LogConfig.fromProps(Map.of(), properties);
            LogConfig ours = LogConfig.fromProps(Map.of(), overrides);
            Comparison both = new Comparison();
            both.add("segmentBytes", theirs.segmentSize(), ours.segmentBytes());
            both.add("segmentMs", theirs.segmentMs, ours.segmentMs());
            both.add("segmentJitterMs", theirs.segmentJitterMs, ours.segmentJitterMs());
            both.add("maxSegmentMs", theirs.maxSegmentMs(), ours.maxSegmentMs());
            both.add("initFileSize", theirs.initFileSize(), ours.initFileSize());
            both.add("segmentIndexBytes", theirs.maxIndexSize, ours.segmentIndexBytes());
            both.add("indexIntervalBytes", theirs.indexInterval, ours.indexIntervalBytes());
            both.add("flushMessages", theirs.flushInterval, ours.flushMessages());
            both.add("flushMs", theirs.flushMs, ours.flushMs());
            both.add("retentionMs", theirs.retentionMs, ours.retentionMs());
            both.add("retentionBytes", theirs.retentionSize, ours.retentionBytes());
            both.add("localRetentionMs", theirs.localRetentionMs(), ours.localRetentionMs());
            both.add("localRetentionBytes", theirs.localRetentionBytes(), ours.localRetentionBytes());
            both.add("remoteCopyLagMs", theirs.remoteCopyLagMs(), ours.remoteCopyLagMs());
            both.add("remoteCopyLagBytes", theirs.remoteCopyLagBytes(), ours.remoteCopyLagBytes());
            both.add("maxMessageBytes", theirs.maxMessageSize(), ours.maxMessageBytes());
            both.add(
                    "maxDecompressedMessageBytes",
                    theirs.maxDecompressedMessageBytes(),
                    ours.maxDecompressedMessageBytes());
            both.add("fileDeleteDelayMs", theirs.fileDeleteDelayMs, ours.fileDeleteDelayMs());
            both.add("deleteRetentionMs", theirs.deleteRetentionMs, ours.deleteRetentionMs());
            both.add("minCompactionLagMs", theirs.compactionLagMs, ours.minCompactionLagMs());
            both.add("maxCompactionLagMs", theirs.maxCompactionLagMs, ours.maxCompactionLagMs());
            both.add("minCleanableDirtyRatio", theirs.minCleanableRatio, ours.minCleanableDirtyRatio());
            both.add("compact", theirs.compact, ours.isCompact());
            both.add("delete", theirs.delete, ours.isDelete());
            both.add("uncleanLeaderElection", theirs.uncleanLeaderElectionEnable, ours.uncleanLeaderElectionEnable());
            both.add("minInSyncReplicas", theirs.minInSyncReplicas, ours.minInSyncReplicas());
            both.add(
                    "compressionType",
                    theirs.compressionType.name,
                    ours.compressionType().kafkaName());
            both.add("compression", theirs.compression, ours.compression().map(KafkaLogConfigCompatibilityTest::kafka));
            both.add("preallocate", theirs.preallocate, ours.preallocate());
            both.add(
                    "timestampType",
                    theirs.messageTimestampType.name,
                    ours.messageTimestampType().kafkaName());
            both.add("timestampBefore", theirs.messageTimestampBeforeMaxMs, ours.messageTimestampBeforeMaxMs());
            both.add("timestampAfter", theirs.messageTimestampAfterMaxMs, ours.messageTimestampAfterMaxMs());
            both.add(
                    "leaderThrottled",
                    theirs.leaderReplicationThrottledReplicas,
                    ours.leaderReplicationThrottledReplicas());
            both.add(
                    "followerThrottled",
                    theirs.followerReplicationThrottledReplicas,
                    ours.followerReplicationThrottledReplicas());
            both.add("remoteStorageEnable", theirs.remoteStorageEnable(), ours.remoteStorageEnable());
            both.add("remoteLogCopyDisable", theirs.remoteLogCopyDisable(), ours.remoteLogCopyDisable());
            both.add("remoteLogDeleteOnDisable", theirs.remoteLogDeleteOnDisable(), ours.remoteLogDeleteOnDisable());
            both.add("dlqEnable", theirs.errorsDeadletterqueueGroupEnable(), ours.errorsDeadletterqueueGroupEnable());
            both.add("overriddenConfigs", theirs.overriddenConfigs, ours.overriddenConfigs());
            assertEquals(both.kafka, both.krabka, overrides.toString());
        }
    }

    @Test
    void theRulesBetweenSettingsGiveKafkasVerdicts() {
        List<Map<String, String>> topics = List.of(
                Map.of("min.compaction.lag.ms", "10", "max.compaction.lag.ms", "5"),
                Map.of("min.compaction.lag.ms", "5", "max.compaction.lag.ms", "5"),
                Map.of("remote.storage.enable", "true"),
                Map.of("remote.storage.enable", "true", "cleanup.policy", "compact"),
                Map.of("remote.storage.enable", "true", "cleanup.policy", "delete,compact"),
                Map.of("remote.storage.enable", "true", "cleanup.policy", ""),
                Map.of("remote.storage.enable", "true", "cleanup.policy", "delete,delete"),
                Map.of("cleanup.policy", "compact"),
                Map.of("remote.storage.enable", "true", "retention.bytes", "100", "local.retention.bytes", "101"),
                Map.of("remote.storage.enable", "true", "retention.bytes", "100", "local.retention.bytes", "100"),
                Map.of("remote.storage.enable", "true", "retention.bytes", "100", "local.retention.bytes", "-1"),
                Map.of("remote.storage.enable", "true", "retention.bytes", "-1", "local.retention.bytes", "5000"),
                Map.of("remote.storage.enable", "true", "retention.ms", "1000", "local.retention.ms", "1001"),
                Map.of("remote.storage.enable", "true", "retention.ms", "1000", "local.retention.ms", "-1"),
                Map.of("remote.storage.enable", "true", "retention.ms", "1000", "local.retention.ms", "-2"),
                Map.of("remote.storage.enable", "true", "retention.ms", "-1", "local.retention.ms", "-1"),
                Map.of("retention.ms", "1000", "local.retention.ms", "5000"),
                Map.of("remote.storage.enable", "true", "local.retention.ms", "1000", "remote.copy.lag.ms", "1001"),
                Map.of("remote.storage.enable", "true", "local.retention.ms", "1000", "remote.copy.lag.ms", "1000"),
                Map.of("remote.storage.enable", "true", "local.retention.ms", "-1", "remote.copy.lag.ms", "99999"),
                Map.of("remote.storage.enable", "true", "retention.ms", "1000", "remote.copy.lag.ms", "1001"),
                Map.of("remote.storage.enable", "true", "retention.bytes", "100", "remote.copy.lag.bytes", "101"),
                Map.of("remote.storage.enable", "true", "local.retention.bytes", "100", "remote.copy.lag.bytes", "100"),
                Map.of(
                        "remote.storage.enable",
                        "true",
                        "remote.log.copy.disable",
                        "true",
                        "retention.ms",
                        "1000",
                        "local.retention.ms",
                        "500"),
                Map.of(
                        "remote.storage.enable",
                        "true",
                        "remote.log.copy.disable",
                        "true",
                        "retention.ms",
                        "1000",
                        "local.retention.ms",
                        "1000"),
                Map.of(
                        "remote.storage.enable",
                        "true",
                        "remote.log.copy.disable",
                        "true",
                        "retention.bytes",
                        "1000",
                        "local.retention.bytes",
                        "10"),
                Map.of("remote.storage.enable", "true", "remote.log.copy.disable", "true"),
                Map.of("remote.storage.enable", "false"),
                Map.of("remote.storage.enable", "false", "remote.log.delete.on.disable", "true"));
        Map<String, String> brokerDefaults = new LinkedHashMap<>();
        LogConfig.defaults().entries().forEach(entry -> brokerDefaults.put(entry.name(), entry.valueText()));
        List<String> differences = new ArrayList<>();
        for (Map<String, String> topic : topics) {
            for (boolean systemEnabled : new boolean[] {true, false}) {
                for (boolean wasRemote : new boolean[] {false, true}) {
                    Map<String, String> existing = wasRemote ? Map.of("remote.storage.enable", "true") : Map.of();
                    Optional<String> theirs = verdict(() -> org.apache.kafka.storage.internals.log.LogConfig.validate(
                            existing, topic, brokerDefaults, systemEnabled));
                    LogConfig current = LogConfig.fromProps(Map.of(), existing);
                    Optional<String> ours =
                            verdict(() -> LogConfig.validateChange(current, Map.of(), topic, systemEnabled));
                    if (theirs.isPresent() != ours.isPresent()) {
                        differences.add(topic + " system=" + systemEnabled + " wasRemote=" + wasRemote + ": Kafka "
                                + theirs + ", Krabka " + ours);
                    }
                    if (!wasRemote) {
                        Optional<String> created = verdict(() -> LogConfig.validateNew(Map.of(), topic, systemEnabled));
                        assertEquals(ours, created, topic.toString());
                    }
                }
            }
        }
        assertTrue(differences.isEmpty(), () -> String.join("\n", differences));
    }

    /** The same properties read from Kafka's view and Krabka's. */
    private static final class Comparison {
        final Map<String, Object> kafka = new LinkedHashMap<>();
        final Map<String, Object> krabka = new LinkedHashMap<>();

        void add(String name, Object kafkaValue, Object krabkaValue) {
            kafka.put(name, kafkaValue);
            krabka.put(name, krabkaValue);
        }
    }

    private static Map<String, ConfigDef.ConfigKey> kafkaKeys() {
        return org.apache.kafka.storage.internals.log.LogConfig.configKeys();
    }

    private static Optional<Object> kafkaValue(String name, String text) {
        try {
            org.apache.kafka.storage.internals.log.LogConfig.validate(Map.of(name, text));
            return Optional.of(new org.apache.kafka.storage.internals.log.LogConfig(Map.of(name, text))
                    .values()
                    .get(name));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<Object> ourValue(String name, String text) {
        try {
            return Optional.of(LogConfig.fromProps(Map.of(), Map.of(name, text))
                    .value(TopicConfigs.find(name).orElseThrow()));
        } catch (io.krabka.spi.plugin.ConfigException e) {
            assertTrue(e.getMessage().contains(name), e.getMessage());
            return Optional.empty();
        }
    }

    private static Optional<String> verdict(Runnable validation) {
        try {
            validation.run();
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static org.apache.kafka.common.compress.Compression kafka(io.krabka.kernel.record.Compression compression) {
        return switch (compression.type()) {
            case NONE -> org.apache.kafka.common.compress.Compression.NONE;
            case GZIP ->
                org.apache.kafka.common.compress.Compression.gzip()
                        .level(compression.level())
                        .build();
            case SNAPPY -> org.apache.kafka.common.compress.Compression.snappy().build();
            case LZ4 ->
                org.apache.kafka.common.compress.Compression.lz4()
                        .level(compression.level())
                        .build();
            case ZSTD ->
                org.apache.kafka.common.compress.Compression.zstd()
                        .level(compression.level())
                        .build();
        };
    }
}
