package io.krabka.kernel.log;

import io.krabka.kernel.log.cleaner.CleanerConfig;
import io.krabka.kernel.log.config.ConfigValues;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.ConfigValidator;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The broker settings of the {@link LogManager}, with Kafka's names and defaults; the topic settings' broker
 * defaults ({@code log.retention.ms} and the others) are {@link io.krabka.kernel.log.config.LogConfig}'s.
 *
 * @param logDirs                             {@code log.dirs} (else {@code log.dir}): the log directories
 * @param nodeId                              {@code node.id}: the node their {@code meta.properties} must name
 * @param numRecoveryThreadsPerDataDir        {@code num.recovery.threads.per.data.dir}: threads loading each
 *                                            directory's logs at startup and closing them at shutdown
 * @param flushCheckMs                        {@code log.flush.scheduler.interval.ms}: how often logs are checked
 *                                            against {@code flush.ms}
 * @param flushRecoveryOffsetCheckpointMs     {@code log.flush.offset.checkpoint.interval.ms}
 * @param flushStartOffsetCheckpointMs        {@code log.flush.start.offset.checkpoint.interval.ms}
 * @param highWatermarkCheckpointMs           {@code replica.high.watermark.checkpoint.interval.ms}
 * @param retentionCheckMs                    {@code log.retention.check.interval.ms}
 * @param initialTaskDelayMs                  {@code log.initial.task.delay.ms}: before the first periodic task
 * @param fileDeleteDelayMs                   {@code log.segment.delete.delay.ms}: how long a deleted log's
 *                                            directory waits before it is removed
 * @param maxTransactionTimeoutMs             {@code transaction.max.timeout.ms}
 * @param producerIdExpirationMs              {@code producer.id.expiration.ms}
 * @param producerIdExpirationCheckIntervalMs {@code producer.id.expiration.check.interval.ms}
 * @param transactionVerificationEnabled      {@code transaction.partition.verification.enable}
 * @param remoteLogStorageSystemEnable        {@code remote.log.storage.system.enable}: whether logs of topics with
 *                                            {@code remote.storage.enable} are tiered (their start may then lie
 *                                            below their first local segment)
 * @param cleanerConfig                       the log cleaner's settings ({@code log.cleaner.*})
 */
public record LogManagerConfig(
        List<Path> logDirs,
        int nodeId,
        int numRecoveryThreadsPerDataDir,
        long flushCheckMs,
        long flushRecoveryOffsetCheckpointMs,
        long flushStartOffsetCheckpointMs,
        long highWatermarkCheckpointMs,
        long retentionCheckMs,
        long initialTaskDelayMs,
        long fileDeleteDelayMs,
        int maxTransactionTimeoutMs,
        int producerIdExpirationMs,
        int producerIdExpirationCheckIntervalMs,
        boolean transactionVerificationEnabled,
        boolean remoteLogStorageSystemEnable,
        CleanerConfig cleanerConfig) {

    /** {@code log.dirs}: no default; without it, {@link #LOG_DIR}. */
    public static final ConfigKey LOG_DIRS = new ConfigKey(
            "log.dirs",
            ConfigType.LIST,
            Optional.empty(),
            "The log directories, comma-separated; when not set, log.dir.",
            ConfigValidator.any());

    public static final ConfigKey LOG_DIR = ConfigKey.optional(
            "log.dir",
            ConfigType.STRING,
            "/tmp/kafka-logs",
            "The log directory (or directories, comma-separated) when log.dirs is not set.");
    /** {@code node.id}: required. */
    public static final ConfigKey NODE_ID = ConfigKey.required(
                    "node.id", ConfigType.INT, "The broker's id; every log directory's meta.properties must name it.")
            .withValidator(ConfigValidator.atLeast(0));

    public static final ConfigKey NUM_RECOVERY_THREADS_PER_DATA_DIR = ConfigKey.optional(
                    "num.recovery.threads.per.data.dir",
                    ConfigType.INT,
                    2,
                    "The threads per log directory that load (and after an unclean shutdown recover) its logs at startup, "
                            + "and close them at a clean shutdown.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey LOG_FLUSH_SCHEDULER_INTERVAL_MS = ConfigKey.optional(
                    "log.flush.scheduler.interval.ms",
                    ConfigType.LONG,
                    Long.MAX_VALUE,
                    "How often the logs are checked against their flush.ms.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS = ConfigKey.optional(
                    "log.flush.offset.checkpoint.interval.ms",
                    ConfigType.LONG,
                    60_000L,
                    "How often recovery-point-offset-checkpoint is written.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey LOG_FLUSH_START_OFFSET_CHECKPOINT_INTERVAL_MS = ConfigKey.optional(
                    "log.flush.start.offset.checkpoint.interval.ms",
                    ConfigType.LONG,
                    60_000L,
                    "How often log-start-offset-checkpoint is written.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS = ConfigKey.optional(
                    "replica.high.watermark.checkpoint.interval.ms",
                    ConfigType.LONG,
                    5_000L,
                    "How often replication-offset-checkpoint (the high watermarks) is written.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey LOG_RETENTION_CHECK_INTERVAL_MS = ConfigKey.optional(
                    "log.retention.check.interval.ms",
                    ConfigType.LONG,
                    300_000L,
                    "How often the logs are checked for segments to delete by retention.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey LOG_INITIAL_TASK_DELAY_MS = ConfigKey.optional(
                    "log.initial.task.delay.ms",
                    ConfigType.LONG,
                    30_000L,
                    "The delay before the first run of each periodic task after startup.")
            .withValidator(ConfigValidator.atLeast(0));
    public static final ConfigKey LOG_SEGMENT_DELETE_DELAY_MS = ConfigKey.optional(
                    "log.segment.delete.delay.ms",
                    ConfigType.LONG,
                    60_000L,
                    "How long a deleted log's directory, renamed -delete, waits before it is removed.")
            .withValidator(ConfigValidator.atLeast(0));
    public static final ConfigKey TRANSACTION_MAX_TIMEOUT_MS = ConfigKey.optional(
                    "transaction.max.timeout.ms",
                    ConfigType.INT,
                    900_000,
                    "The longest transaction timeout; a transaction open longer is late, holding back the last stable offset.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey PRODUCER_ID_EXPIRATION_MS = ConfigKey.optional(
                    ProducerStateManagerConfig.PRODUCER_ID_EXPIRATION_MS_CONFIG,
                    ConfigType.INT,
                    ProducerStateManagerConfig.DEFAULT_PRODUCER_ID_EXPIRATION_MS,
                    "How long a producer without an open transaction is remembered after its last write.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS = ConfigKey.optional(
                    "producer.id.expiration.check.interval.ms",
                    ConfigType.INT,
                    600_000,
                    "How often expired producers are removed.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey TRANSACTION_PARTITION_VERIFICATION_ENABLE = ConfigKey.optional(
            ProducerStateManagerConfig.TRANSACTION_PARTITION_VERIFICATION_ENABLE_CONFIG,
            ConfigType.BOOLEAN,
            true,
            "Whether a partition asks the transaction coordinator that it is in a transaction before it appends the "
                    + "transaction's first batch (KIP-890), so that a batch the transaction ended before cannot open a "
                    + "transaction that nothing will close.");
    /**
     * {@code remote.log.storage.system.enable}: Kafka's key of the remote log manager's settings, read here too, as
     * Kafka's log manager does, so that each log knows whether it is tiered.
     */
    public static final ConfigKey REMOTE_LOG_STORAGE_SYSTEM_ENABLE = ConfigKey.optional(
            "remote.log.storage.system.enable",
            ConfigType.BOOLEAN,
            false,
            "Whether tiered storage is enabled on the broker: the remote log manager runs, and the topics with "
                    + "remote.storage.enable are tiered.");

    /** Every key {@link #fromProps} reads, in the order of the record's components. */
    public static final List<ConfigKey> KEYS = Stream.concat(
                    Stream.of(
                            LOG_DIRS,
                            LOG_DIR,
                            NODE_ID,
                            NUM_RECOVERY_THREADS_PER_DATA_DIR,
                            LOG_FLUSH_SCHEDULER_INTERVAL_MS,
                            LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS,
                            LOG_FLUSH_START_OFFSET_CHECKPOINT_INTERVAL_MS,
                            REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS,
                            LOG_RETENTION_CHECK_INTERVAL_MS,
                            LOG_INITIAL_TASK_DELAY_MS,
                            LOG_SEGMENT_DELETE_DELAY_MS,
                            TRANSACTION_MAX_TIMEOUT_MS,
                            PRODUCER_ID_EXPIRATION_MS,
                            PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS,
                            TRANSACTION_PARTITION_VERIFICATION_ENABLE,
                            REMOTE_LOG_STORAGE_SYSTEM_ENABLE),
                    CleanerConfig.KEYS.stream())
            .toList();

    /** Checks the values and freezes the list. */
    public LogManagerConfig {
        logDirs = List.copyOf(logDirs);
        Objects.requireNonNull(cleanerConfig, "cleanerConfig");
        if (logDirs.isEmpty()) {
            throw new IllegalArgumentException("no log directory");
        }
        if (nodeId < 0
                || numRecoveryThreadsPerDataDir < 1
                || maxTransactionTimeoutMs < 1
                || producerIdExpirationMs < 1
                || producerIdExpirationCheckIntervalMs < 1) {
            throw new IllegalArgumentException(
                    "out of range: node.id " + nodeId + ", num.recovery.threads.per.data.dir "
                            + numRecoveryThreadsPerDataDir + ", transaction.max.timeout.ms " + maxTransactionTimeoutMs
                            + ", producer.id.expiration.ms " + producerIdExpirationMs
                            + ", producer.id.expiration.check.interval.ms " + producerIdExpirationCheckIntervalMs);
        }
        for (long ms : new long[] {
            flushCheckMs,
            flushRecoveryOffsetCheckpointMs,
            flushStartOffsetCheckpointMs,
            highWatermarkCheckpointMs,
            retentionCheckMs
        }) {
            if (ms < 1) {
                throw new IllegalArgumentException("a periodic task's interval must be at least 1 ms: " + ms);
            }
        }
        if (initialTaskDelayMs < 0 || fileDeleteDelayMs < 0) {
            throw new IllegalArgumentException("negative delay: log.initial.task.delay.ms " + initialTaskDelayMs
                    + ", log.segment.delete.delay.ms " + fileDeleteDelayMs);
        }
    }

    /**
     * The settings in broker properties ({@code server.properties}), Kafka's defaults for those not set.
     *
     * @throws ConfigException naming the key, for a value of the wrong type or range, or no {@code node.id}
     */
    public static LogManagerConfig fromProps(Map<String, ?> props) {
        String dirsKey = props.get(LOG_DIRS.name()) != null ? LOG_DIRS.name() : LOG_DIR.name();
        Object dirs = props.get(dirsKey) != null
                ? props.get(dirsKey)
                : LOG_DIR.defaultValue().orElseThrow();
        List<Path> logDirs = ((List<?>) ConfigType.LIST.parse(dirsKey, dirs))
                .stream()
                        .map(dir -> String.valueOf(dir).trim())
                        .filter(dir -> !dir.isEmpty())
                        .map(Path::of)
                        .toList();
        if (logDirs.isEmpty()) {
            throw new ConfigException(dirsKey, dirs, "names no directory");
        }
        if (props.get(NODE_ID.name()) == null) {
            throw new ConfigException(NODE_ID.name(), null, "is required");
        }
        return new LogManagerConfig(
                logDirs,
                (Integer) ConfigValues.value(props, NODE_ID),
                (Integer) ConfigValues.value(props, NUM_RECOVERY_THREADS_PER_DATA_DIR),
                (Long) ConfigValues.value(props, LOG_FLUSH_SCHEDULER_INTERVAL_MS),
                (Long) ConfigValues.value(props, LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS),
                (Long) ConfigValues.value(props, LOG_FLUSH_START_OFFSET_CHECKPOINT_INTERVAL_MS),
                (Long) ConfigValues.value(props, REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS),
                (Long) ConfigValues.value(props, LOG_RETENTION_CHECK_INTERVAL_MS),
                (Long) ConfigValues.value(props, LOG_INITIAL_TASK_DELAY_MS),
                (Long) ConfigValues.value(props, LOG_SEGMENT_DELETE_DELAY_MS),
                (Integer) ConfigValues.value(props, TRANSACTION_MAX_TIMEOUT_MS),
                (Integer) ConfigValues.value(props, PRODUCER_ID_EXPIRATION_MS),
                (Integer) ConfigValues.value(props, PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS),
                (Boolean) ConfigValues.value(props, TRANSACTION_PARTITION_VERIFICATION_ENABLE),
                (Boolean) ConfigValues.value(props, REMOTE_LOG_STORAGE_SYSTEM_ENABLE),
                CleanerConfig.fromProps(props));
    }

    /** The producer state settings shared by every partition. */
    public ProducerStateManagerConfig producerStateManagerConfig() {
        return new ProducerStateManagerConfig(producerIdExpirationMs, transactionVerificationEnabled);
    }
}
