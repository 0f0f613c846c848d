package io.krabka.kernel.log.config;

import static io.krabka.kernel.log.config.ConfigSynonym.millisFrom;
import static io.krabka.kernel.log.config.ConfigSynonym.same;
import static io.krabka.spi.plugin.ConfigType.BOOLEAN;
import static io.krabka.spi.plugin.ConfigType.DOUBLE;
import static io.krabka.spi.plugin.ConfigType.INT;
import static io.krabka.spi.plugin.ConfigType.LIST;
import static io.krabka.spi.plugin.ConfigType.LONG;
import static io.krabka.spi.plugin.ConfigType.STRING;
import static io.krabka.spi.plugin.ConfigValidator.any;
import static io.krabka.spi.plugin.ConfigValidator.atLeast;
import static io.krabka.spi.plugin.ConfigValidator.between;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.ConfigValidator;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Every topic setting of Kafka 4.4 ({@code TopicConfig} and storage's {@code LogConfig}), in Kafka's order, with
 * Kafka's names, types, defaults, checks and broker synonyms ({@code ServerTopicConfigSynonyms}). Kafka's
 * test-only {@value #INTERNAL_SEGMENT_BYTES_CONFIG} is not among them: {@link LogConfig#fromProps} takes it as a
 * topic override without a default, check or entry, as Kafka's internal setting.
 */
public final class TopicConfigs {

    /** Kafka's internal, test-only segment size: any int, overriding {@code segment.bytes} where set. */
    public static final String INTERNAL_SEGMENT_BYTES_CONFIG = "internal.segment.bytes";

    private static final long DAY_MS = TimeUnit.DAYS.toMillis(1);
    private static final long WEEK_MS = TimeUnit.DAYS.toMillis(7);

    public static final TopicConfigDef SEGMENT_BYTES = def(
            "segment.bytes",
            INT,
            1024 * 1024 * 1024,
            atLeast(1024 * 1024),
            "The size at which a segment file is rolled; also bounds retention's granularity.",
            same("log.segment.bytes", INT));
    public static final TopicConfigDef SEGMENT_MS = def(
            "segment.ms",
            LONG,
            WEEK_MS,
            atLeast(1),
            "The time after which a segment is rolled even if not full, so retention can delete or compact it.",
            same("log.roll.ms", LONG),
            millisFrom("log.roll.hours", TimeUnit.HOURS));
    public static final TopicConfigDef SEGMENT_JITTER_MS = def(
            "segment.jitter.ms",
            LONG,
            0L,
            atLeast(0),
            "The largest random amount taken off segment.ms per segment, so partitions do not all roll at once.",
            same("log.roll.jitter.ms", LONG),
            millisFrom("log.roll.jitter.hours", TimeUnit.HOURS));
    public static final TopicConfigDef SEGMENT_INDEX_BYTES = def(
            "segment.index.bytes",
            INT,
            10 * 1024 * 1024,
            atLeast(4),
            "The size of a segment's offset and time index files, preallocated and trimmed when the segment rolls.",
            same("log.index.size.max.bytes", INT));
    public static final TopicConfigDef FLUSH_MESSAGES = def(
            "flush.messages",
            LONG,
            Long.MAX_VALUE,
            atLeast(1),
            "The number of records after which the log is fsynced; by default the OS decides and replication protects.",
            same("log.flush.interval.messages", LONG));
    public static final TopicConfigDef FLUSH_MS = def(
            "flush.ms",
            LONG,
            Long.MAX_VALUE,
            atLeast(0),
            "The time after which the log is fsynced; by default the OS decides and replication protects.",
            same("log.flush.interval.ms", LONG),
            same("log.flush.scheduler.interval.ms", LONG));
    public static final TopicConfigDef RETENTION_BYTES = def(
            "retention.bytes",
            LONG,
            -1L,
            any(),
            "The size a partition may grow to before old segments are deleted (delete policy); -1 for no limit.",
            same("log.retention.bytes", LONG));
    public static final TopicConfigDef RETENTION_MS = def(
            "retention.ms",
            LONG,
            WEEK_MS,
            atLeast(-1),
            "The time a record is kept before its segment may be deleted (delete policy); -1 for no limit.",
            same("log.retention.ms", LONG).negativeAsUnlimited(),
            millisFrom("log.retention.minutes", TimeUnit.MINUTES).negativeAsUnlimited(),
            millisFrom("log.retention.hours", TimeUnit.HOURS).negativeAsUnlimited());
    public static final TopicConfigDef MAX_MESSAGE_BYTES = def(
            "max.message.bytes",
            INT,
            1024 * 1024 + 12,
            atLeast(0),
            "The largest record batch the topic accepts, after compression.",
            same("message.max.bytes", INT));
    public static final TopicConfigDef MAX_DECOMPRESSED_MESSAGE_BYTES = def(
            "max.decompressed.message.bytes",
            INT,
            Integer.MAX_VALUE - 8,
            between(1, Integer.MAX_VALUE - 8),
            "The largest size a record of a compressed batch may decompress to.",
            same("max.decompressed.message.bytes", INT));
    public static final TopicConfigDef INDEX_INTERVAL_BYTES = def(
            "index.interval.bytes",
            INT,
            4096,
            atLeast(0),
            "The number of log bytes between offset index entries.",
            same("log.index.interval.bytes", INT));
    public static final TopicConfigDef DELETE_RETENTION_MS = def(
            "delete.retention.ms",
            LONG,
            DAY_MS,
            atLeast(0),
            "The time tombstones are kept in a compacted topic.",
            same("log.cleaner.delete.retention.ms", LONG));
    public static final TopicConfigDef MIN_COMPACTION_LAG_MS = def(
            "min.compaction.lag.ms",
            LONG,
            0L,
            atLeast(0),
            "The time a record stays uncompacted.",
            same("log.cleaner.min.compaction.lag.ms", LONG));
    public static final TopicConfigDef MAX_COMPACTION_LAG_MS = def(
            "max.compaction.lag.ms",
            LONG,
            Long.MAX_VALUE,
            atLeast(1),
            "The time after which a record may be compacted regardless of the dirty ratio; also rolls the active "
                    + "segment of a compacted topic.",
            same("log.cleaner.max.compaction.lag.ms", LONG));
    public static final TopicConfigDef FILE_DELETE_DELAY_MS = def(
            "file.delete.delay.ms",
            LONG,
            60_000L,
            atLeast(0),
            "The time a deleted segment's files wait, renamed .deleted, before they are removed.",
            same("log.segment.delete.delay.ms", LONG));
    public static final TopicConfigDef MIN_CLEANABLE_DIRTY_RATIO = def(
            "min.cleanable.dirty.ratio",
            DOUBLE,
            0.5,
            between(0, 1),
            "The share of uncompacted log above which compaction runs.",
            same("log.cleaner.min.cleanable.ratio", DOUBLE));
    public static final TopicConfigDef CLEANUP_POLICY = def(
            "cleanup.policy",
            LIST,
            List.of("delete"),
            new Validators.ValidList(List.of("compact", "delete")),
            "delete (old segments removed by retention), compact (the latest record per key kept by the log "
                    + "cleaner), both, or none (an empty list: kept forever).",
            same("log.cleanup.policy", LIST));
    public static final TopicConfigDef UNCLEAN_LEADER_ELECTION_ENABLE = def(
            "unclean.leader.election.enable",
            BOOLEAN,
            false,
            any(),
            "Whether a replica outside the ISR may become leader as a last resort, losing data.",
            same("unclean.leader.election.enable", BOOLEAN));
    public static final TopicConfigDef MIN_IN_SYNC_REPLICAS = def(
            "min.insync.replicas",
            INT,
            1,
            atLeast(1),
            "The in-sync replicas, leader included, an acks=all write needs.",
            same("min.insync.replicas", INT));
    public static final TopicConfigDef COMPRESSION_TYPE = def(
            "compression.type",
            STRING,
            "producer",
            Validators.in("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"),
            "The codec batches are stored with: gzip, snappy, lz4, zstd, uncompressed, or producer (as sent).",
            same("compression.type", STRING));
    public static final TopicConfigDef COMPRESSION_GZIP_LEVEL = def(
            "compression.gzip.level",
            INT,
            -1,
            Validators.betweenOr(1, 9, -1),
            "The gzip level when compression.type is gzip; -1 for the codec's default.",
            same("compression.gzip.level", INT));
    public static final TopicConfigDef COMPRESSION_LZ4_LEVEL = def(
            "compression.lz4.level",
            INT,
            9,
            between(1, 17),
            "The LZ4 level when compression.type is lz4.",
            same("compression.lz4.level", INT));
    public static final TopicConfigDef COMPRESSION_ZSTD_LEVEL = def(
            "compression.zstd.level",
            INT,
            3,
            between(-131072, 22),
            "The zstd level when compression.type is zstd.",
            same("compression.zstd.level", INT));
    public static final TopicConfigDef PREALLOCATE = def(
            "preallocate",
            BOOLEAN,
            false,
            any(),
            "Whether a new segment file is preallocated to segment.bytes.",
            same("log.preallocate", BOOLEAN));
    public static final TopicConfigDef MESSAGE_TIMESTAMP_TYPE = def(
            "message.timestamp.type",
            STRING,
            "CreateTime",
            Validators.in("CreateTime", "LogAppendTime"),
            "CreateTime (the producer's timestamp) or LogAppendTime (the broker's, set on append).",
            same("log.message.timestamp.type", STRING));
    public static final TopicConfigDef MESSAGE_TIMESTAMP_BEFORE_MAX_MS = def(
            "message.timestamp.before.max.ms",
            LONG,
            Long.MAX_VALUE,
            atLeast(0),
            "How far a CreateTime timestamp may lie before the broker's clock.",
            same("log.message.timestamp.before.max.ms", LONG));
    public static final TopicConfigDef MESSAGE_TIMESTAMP_AFTER_MAX_MS = def(
            "message.timestamp.after.max.ms",
            LONG,
            TimeUnit.HOURS.toMillis(1),
            atLeast(0),
            "How far a CreateTime timestamp may lie after the broker's clock.",
            same("log.message.timestamp.after.max.ms", LONG));
    public static final TopicConfigDef LEADER_REPLICATION_THROTTLED_REPLICAS = def(
            "leader.replication.throttled.replicas",
            LIST,
            List.of(),
            Validators.throttledReplicas(),
            "The replicas (partitionId:brokerId, or *) whose replication the leader throttles.");
    public static final TopicConfigDef FOLLOWER_REPLICATION_THROTTLED_REPLICAS = def(
            "follower.replication.throttled.replicas",
            LIST,
            List.of(),
            Validators.throttledReplicas(),
            "The replicas (partitionId:brokerId, or *) whose replication the follower throttles.");
    public static final TopicConfigDef REMOTE_STORAGE_ENABLE = def(
            "remote.storage.enable",
            BOOLEAN,
            false,
            any(),
            "Whether the topic's segments are copied to remote storage; turning it off needs "
                    + "remote.log.delete.on.disable.");
    public static final TopicConfigDef LOCAL_RETENTION_MS = def(
            "local.retention.ms",
            LONG,
            -2L,
            atLeast(-2),
            "The time a segment is kept locally once tiered; -2 for retention.ms. At most retention.ms.",
            same("log.local.retention.ms", LONG));
    public static final TopicConfigDef LOCAL_RETENTION_BYTES = def(
            "local.retention.bytes",
            LONG,
            -2L,
            atLeast(-2),
            "The local size a tiered partition may grow to; -2 for retention.bytes. At most retention.bytes.",
            same("log.local.retention.bytes", LONG));
    public static final TopicConfigDef REMOTE_LOG_COPY_DISABLE = def(
            "remote.log.copy.disable",
            BOOLEAN,
            false,
            any(),
            "Whether copying to remote storage stops (tiered data becomes read-only; retention.* then governs).");
    public static final TopicConfigDef REMOTE_COPY_LAG_MS = def(
            "remote.copy.lag.ms",
            LONG,
            0L,
            atLeast(-1),
            "The age a rolled segment reaches before it may be tiered; 0 at once, -1 for the local retention time.",
            same("log.remote.copy.lag.ms", LONG));
    public static final TopicConfigDef REMOTE_COPY_LAG_BYTES = def(
            "remote.copy.lag.bytes",
            LONG,
            -1L,
            atLeast(-1),
            "The newer local bytes after a rolled segment before it may be tiered; 0 at once, -1 for the local "
                    + "retention size.",
            same("log.remote.copy.lag.bytes", LONG));
    public static final TopicConfigDef REMOTE_LOG_DELETE_ON_DISABLE = def(
            "remote.log.delete.on.disable",
            BOOLEAN,
            false,
            any(),
            "Whether turning remote.storage.enable off deletes the topic's tiered data.");
    public static final TopicConfigDef ERRORS_DEADLETTERQUEUE_GROUP_ENABLE = def(
            "errors.deadletterqueue.group.enable",
            BOOLEAN,
            false,
            any(),
            "Whether share groups may use the topic as a dead-letter queue.");

    /** Every topic setting, in Kafka's order. */
    public static final List<TopicConfigDef> ALL = List.of(
            SEGMENT_BYTES,
            SEGMENT_MS,
            SEGMENT_JITTER_MS,
            SEGMENT_INDEX_BYTES,
            FLUSH_MESSAGES,
            FLUSH_MS,
            RETENTION_BYTES,
            RETENTION_MS,
            MAX_MESSAGE_BYTES,
            MAX_DECOMPRESSED_MESSAGE_BYTES,
            INDEX_INTERVAL_BYTES,
            DELETE_RETENTION_MS,
            MIN_COMPACTION_LAG_MS,
            MAX_COMPACTION_LAG_MS,
            FILE_DELETE_DELAY_MS,
            MIN_CLEANABLE_DIRTY_RATIO,
            CLEANUP_POLICY,
            UNCLEAN_LEADER_ELECTION_ENABLE,
            MIN_IN_SYNC_REPLICAS,
            COMPRESSION_TYPE,
            COMPRESSION_GZIP_LEVEL,
            COMPRESSION_LZ4_LEVEL,
            COMPRESSION_ZSTD_LEVEL,
            PREALLOCATE,
            MESSAGE_TIMESTAMP_TYPE,
            MESSAGE_TIMESTAMP_BEFORE_MAX_MS,
            MESSAGE_TIMESTAMP_AFTER_MAX_MS,
            LEADER_REPLICATION_THROTTLED_REPLICAS,
            FOLLOWER_REPLICATION_THROTTLED_REPLICAS,
            REMOTE_STORAGE_ENABLE,
            LOCAL_RETENTION_MS,
            LOCAL_RETENTION_BYTES,
            REMOTE_LOG_COPY_DISABLE,
            REMOTE_COPY_LAG_MS,
            REMOTE_COPY_LAG_BYTES,
            REMOTE_LOG_DELETE_ON_DISABLE,
            ERRORS_DEADLETTERQUEUE_GROUP_ENABLE);

    private static final Map<String, TopicConfigDef> BY_NAME = byName();

    private TopicConfigs() {}

    /** The topic setting named {@code name}. */
    public static Optional<TopicConfigDef> find(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    private static TopicConfigDef def(
            String name,
            ConfigType type,
            Object defaultValue,
            ConfigValidator validator,
            String documentation,
            ConfigSynonym... brokerSynonyms) {
        return new TopicConfigDef(
                ConfigKey.optional(name, type, defaultValue, documentation).withValidator(validator),
                Arrays.asList(brokerSynonyms));
    }

    private static Map<String, TopicConfigDef> byName() {
        Map<String, TopicConfigDef> byName = new LinkedHashMap<>();
        for (TopicConfigDef def : ALL) {
            if (byName.put(def.name(), def) != null) {
                throw new IllegalStateException("topic setting declared twice: " + def.name());
            }
        }
        return Map.copyOf(byName);
    }
}
