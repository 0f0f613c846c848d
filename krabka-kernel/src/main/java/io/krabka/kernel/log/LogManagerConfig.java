package io.krabka.kernel.log;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The broker settings of the {@link LogManager}, with Kafka's names and defaults; the topic settings' broker
 * defaults ({@code log.retention.ms} and the others) are {@link io.krabka.kernel.log.config.LogConfig}'s.
 *
 * @param logDirs                             {@code log.dirs} (else {@code log.dir}): the log directories
 * @param nodeId                              {@code node.id}: the node their {@code meta.properties} must name
 * @param numRecoveryThreadsPerDataDir        {@code num.recovery.threads.per.data.dir}: threads loading each
 *                                            directory's logs at startup
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
 */
public record LogManagerConfig(List<Path> logDirs, int nodeId, int numRecoveryThreadsPerDataDir, long flushCheckMs,
                               long flushRecoveryOffsetCheckpointMs, long flushStartOffsetCheckpointMs,
                               long highWatermarkCheckpointMs, long retentionCheckMs, long initialTaskDelayMs,
                               long fileDeleteDelayMs, int maxTransactionTimeoutMs, int producerIdExpirationMs,
                               int producerIdExpirationCheckIntervalMs) {

    /** Kafka's default of {@code log.dir}. */
    public static final String DEFAULT_LOG_DIR = "/tmp/kafka-logs";

    /** Checks the values and freezes the list. */
    public LogManagerConfig {
        logDirs = List.copyOf(logDirs);
        if (logDirs.isEmpty()) {
            throw new IllegalArgumentException("no log directory");
        }
        if (nodeId < 0 || numRecoveryThreadsPerDataDir < 1 || maxTransactionTimeoutMs < 1 || producerIdExpirationMs < 1
                || producerIdExpirationCheckIntervalMs < 1) {
            throw new IllegalArgumentException("out of range: node.id " + nodeId + ", num.recovery.threads.per.data.dir "
                    + numRecoveryThreadsPerDataDir + ", transaction.max.timeout.ms " + maxTransactionTimeoutMs
                    + ", producer.id.expiration.ms " + producerIdExpirationMs
                    + ", producer.id.expiration.check.interval.ms " + producerIdExpirationCheckIntervalMs);
        }
        for (long ms : new long[] {flushCheckMs, flushRecoveryOffsetCheckpointMs, flushStartOffsetCheckpointMs,
                highWatermarkCheckpointMs, retentionCheckMs}) {
            if (ms < 1) {
                throw new IllegalArgumentException("a periodic task's interval must be at least 1 ms: " + ms);
            }
        }
        if (initialTaskDelayMs < 0 || fileDeleteDelayMs < 0) {
            throw new IllegalArgumentException("negative delay: log.initial.task.delay.ms " + initialTaskDelayMs
                    + ", log.segment.delete.delay.ms " + fileDeleteDelayMs);
        }
    }

    /** Every broker key {@link #fromProps} reads. */
    public static final Set<String> KEYS = Set.of("log.dirs", "log.dir", "node.id", "num.recovery.threads.per.data.dir",
            "log.flush.scheduler.interval.ms", "log.flush.offset.checkpoint.interval.ms",
            "log.flush.start.offset.checkpoint.interval.ms", "replica.high.watermark.checkpoint.interval.ms",
            "log.retention.check.interval.ms", "log.initial.task.delay.ms", "log.segment.delete.delay.ms",
            "transaction.max.timeout.ms", ProducerStateManagerConfig.PRODUCER_ID_EXPIRATION_MS_CONFIG,
            "producer.id.expiration.check.interval.ms");

    /**
     * The settings in broker properties ({@code server.properties}), Kafka's defaults for those not set.
     *
     * @throws ConfigException naming the key, for a value of the wrong type or range, or no {@code node.id}
     */
    public static LogManagerConfig fromProps(Map<String, ?> props) {
        String dirsKey = props.get("log.dirs") != null ? "log.dirs" : "log.dir";
        Object dirs = props.get(dirsKey) != null ? props.get(dirsKey) : DEFAULT_LOG_DIR;
        List<Path> logDirs = ((List<?>) ConfigType.LIST.parse(dirsKey, dirs)).stream()
                .map(dir -> String.valueOf(dir).trim()).filter(dir -> !dir.isEmpty()).map(Path::of).toList();
        if (logDirs.isEmpty()) {
            throw new ConfigException(dirsKey, dirs, "names no directory");
        }
        Object nodeId = props.get("node.id");
        if (nodeId == null) {
            throw new ConfigException("node.id", null, "is required");
        }
        return new LogManagerConfig(logDirs, intValue(props, "node.id", 0, 0),
                intValue(props, "num.recovery.threads.per.data.dir", 2, 1),
                longValue(props, "log.flush.scheduler.interval.ms", Long.MAX_VALUE, 1),
                longValue(props, "log.flush.offset.checkpoint.interval.ms", 60_000, 1),
                longValue(props, "log.flush.start.offset.checkpoint.interval.ms", 60_000, 1),
                longValue(props, "replica.high.watermark.checkpoint.interval.ms", 5_000, 1),
                longValue(props, "log.retention.check.interval.ms", 300_000, 1),
                longValue(props, "log.initial.task.delay.ms", 30_000, 0),
                longValue(props, "log.segment.delete.delay.ms", 60_000, 0),
                intValue(props, "transaction.max.timeout.ms", 900_000, 1),
                intValue(props, ProducerStateManagerConfig.PRODUCER_ID_EXPIRATION_MS_CONFIG,
                        ProducerStateManagerConfig.DEFAULT_PRODUCER_ID_EXPIRATION_MS, 1),
                intValue(props, "producer.id.expiration.check.interval.ms", 600_000, 1));
    }

    private static int intValue(Map<String, ?> props, String key, int defaultValue, int min) {
        return (int) longValue(props, key, ConfigType.INT, defaultValue, min);
    }

    private static long longValue(Map<String, ?> props, String key, long defaultValue, long min) {
        return longValue(props, key, ConfigType.LONG, defaultValue, min);
    }

    private static long longValue(Map<String, ?> props, String key, ConfigType type, long defaultValue, long min) {
        Object raw = props.get(key);
        long value = raw == null ? defaultValue : ((Number) type.parse(key, raw)).longValue();
        if (value < min) {
            throw new ConfigException(key, value, "must be at least " + min);
        }
        return value;
    }

    /** The producer state settings shared by every partition. */
    public ProducerStateManagerConfig producerStateManagerConfig() {
        return new ProducerStateManagerConfig(producerIdExpirationMs);
    }
}
