package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.config.ConfigValues;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.ConfigValidator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The broker settings of the log cleaner, Kafka's {@code CleanerConfig} with its names, defaults and checks. The
 * cleaner's topic defaults ({@code log.cleaner.min.cleanable.ratio}, {@code log.cleaner.delete.retention.ms},
 * {@code log.cleaner.min.compaction.lag.ms}, {@code log.cleaner.max.compaction.lag.ms}) are
 * {@link LogConfig}'s, as each topic may override them.
 *
 * @param numThreads             {@code log.cleaner.threads}
 * @param dedupeBufferSize       {@code log.cleaner.dedupe.buffer.size}: the offset maps' memory, split evenly
 *                               between the threads (at most 2 GiB each)
 * @param dedupeBufferLoadFactor {@code log.cleaner.io.buffer.load.factor}: how full an offset map may get
 * @param ioBufferSize           {@code log.cleaner.io.buffer.size}: the read and write buffers' memory, split
 *                               between the threads, half each for reading and writing
 * @param maxMessageSize         {@code message.max.bytes}: the largest batch the buffers grow to
 * @param maxIoBytesPerSecond    {@code log.cleaner.io.max.bytes.per.second}: the throttle on the bytes all threads
 *                               read and write
 * @param backoffMs              {@code log.cleaner.backoff.ms}: how long a thread sleeps when no log needs cleaning
 * @param enableCleaner          {@code log.cleaner.enable}
 */
public record CleanerConfig(
        int numThreads,
        long dedupeBufferSize,
        double dedupeBufferLoadFactor,
        int ioBufferSize,
        int maxMessageSize,
        double maxIoBytesPerSecond,
        long backoffMs,
        boolean enableCleaner) {

    /** Kafka's hash of keys in the offset map. */
    public static final String HASH_ALGORITHM = "MD5";

    public static final ConfigKey LOG_CLEANER_ENABLE = ConfigKey.optional(
            "log.cleaner.enable",
            ConfigType.BOOLEAN,
            true,
            "Whether the log cleaner runs. Without it, compacted topics (__consumer_offsets among them) are not "
                    + "compacted, nor does retention delete their old segments, and they grow for ever.");
    public static final ConfigKey LOG_CLEANER_THREADS = ConfigKey.optional(
                    "log.cleaner.threads", ConfigType.INT, 1, "The number of threads cleaning logs.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey LOG_CLEANER_DEDUPE_BUFFER_SIZE = ConfigKey.optional(
            "log.cleaner.dedupe.buffer.size",
            ConfigType.LONG,
            128 * 1024 * 1024L,
            "The memory of the offset maps (the latest offset of each key) of all cleaner threads together; a log "
                    + "whose dirty part has more keys than a thread's map holds is cleaned in several passes.");
    public static final ConfigKey LOG_CLEANER_IO_BUFFER_SIZE = ConfigKey.optional(
                    "log.cleaner.io.buffer.size",
                    ConfigType.INT,
                    512 * 1024,
                    "The memory of the read and write buffers of all cleaner threads together.")
            .withValidator(ConfigValidator.atLeast(0));
    public static final ConfigKey LOG_CLEANER_IO_BUFFER_LOAD_FACTOR = ConfigKey.optional(
            "log.cleaner.io.buffer.load.factor",
            ConfigType.DOUBLE,
            0.9,
            "How full an offset map may get (Kafka's name for the dedupe buffer's load factor): higher cleans more "
                    + "of a log at once, with more hash collisions.");
    public static final ConfigKey LOG_CLEANER_IO_MAX_BYTES_PER_SECOND = ConfigKey.optional(
            "log.cleaner.io.max.bytes.per.second",
            ConfigType.DOUBLE,
            Double.MAX_VALUE,
            "The bytes per second the cleaner threads read and write together, on average.");
    public static final ConfigKey LOG_CLEANER_BACKOFF_MS = ConfigKey.optional(
                    "log.cleaner.backoff.ms",
                    ConfigType.LONG,
                    15_000L,
                    "How long a cleaner thread sleeps when no log needs cleaning.")
            .withValidator(ConfigValidator.atLeast(0));

    /** Every key {@link #fromProps} reads besides {@code message.max.bytes}, a topic default. */
    public static final List<ConfigKey> KEYS = List.of(
            LOG_CLEANER_ENABLE,
            LOG_CLEANER_THREADS,
            LOG_CLEANER_DEDUPE_BUFFER_SIZE,
            LOG_CLEANER_IO_BUFFER_SIZE,
            LOG_CLEANER_IO_BUFFER_LOAD_FACTOR,
            LOG_CLEANER_IO_MAX_BYTES_PER_SECOND,
            LOG_CLEANER_BACKOFF_MS);

    /** The broker settings a running cleaner takes without a restart: Kafka's {@code ReconfigurableConfigs}. */
    public static final Set<String> RECONFIGURABLE_CONFIGS = Set.of(
            LOG_CLEANER_THREADS.name(),
            LOG_CLEANER_DEDUPE_BUFFER_SIZE.name(),
            LOG_CLEANER_IO_BUFFER_LOAD_FACTOR.name(),
            LOG_CLEANER_IO_BUFFER_SIZE.name(),
            "message.max.bytes",
            LOG_CLEANER_IO_MAX_BYTES_PER_SECOND.name(),
            LOG_CLEANER_BACKOFF_MS.name());

    /** Checks what Kafka's {@code KafkaConfig} checks of them. */
    public CleanerConfig {
        if (ioBufferSize < 0 || backoffMs < 0) {
            throw new IllegalArgumentException("out of range: log.cleaner.io.buffer.size " + ioBufferSize
                    + ", log.cleaner.backoff.ms " + backoffMs);
        }
        if (numThreads < 1) {
            // Kafka's key allows 0, but its broker then fails to start: it divides the dedupe buffer by it.
            throw new ConfigException(LOG_CLEANER_THREADS.name(), numThreads, "must be at least 1");
        }
        if (dedupeBufferSize / numThreads <= 1024 * 1024) {
            throw new ConfigException(
                    LOG_CLEANER_DEDUPE_BUFFER_SIZE.name(),
                    dedupeBufferSize,
                    "must be at least 1MB per cleaner thread (log.cleaner.threads is " + numThreads + ")");
        }
    }

    /**
     * The settings in broker properties, Kafka's defaults for those not set.
     *
     * @throws ConfigException naming the key, for a value of the wrong type or range
     */
    public static CleanerConfig fromProps(Map<String, ?> props) {
        return new CleanerConfig(
                (Integer) ConfigValues.value(props, LOG_CLEANER_THREADS),
                (Long) ConfigValues.value(props, LOG_CLEANER_DEDUPE_BUFFER_SIZE),
                (Double) ConfigValues.value(props, LOG_CLEANER_IO_BUFFER_LOAD_FACTOR),
                (Integer) ConfigValues.value(props, LOG_CLEANER_IO_BUFFER_SIZE),
                LogConfig.fromProps(props, Map.of()).maxMessageBytes(),
                (Double) ConfigValues.value(props, LOG_CLEANER_IO_MAX_BYTES_PER_SECOND),
                (Long) ConfigValues.value(props, LOG_CLEANER_BACKOFF_MS),
                (Boolean) ConfigValues.value(props, LOG_CLEANER_ENABLE));
    }

    /** A thread's offset map memory: its share of the dedupe buffer, at most 2 GiB. */
    int offsetMapMemoryPerThread() {
        return (int) Math.min(dedupeBufferSize / numThreads, Integer.MAX_VALUE);
    }

    /** The size of a thread's read buffer, and of its write buffer: half the thread's share of the I/O buffer. */
    int ioBufferSizePerThread() {
        return ioBufferSize / numThreads / 2;
    }
}
