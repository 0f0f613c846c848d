package io.krabka.kernel.tiered;

import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.config.ConfigValues;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.ConfigValidator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The broker settings of tiered storage, Kafka's {@code RemoteLogManagerConfig}: every key with Kafka 4.4's name
 * and default. The topic settings ({@code remote.storage.enable}, {@code local.retention.*} and the others) are
 * {@link io.krabka.kernel.log.config.LogConfig}'s.
 *
 * <p>Where Krabka differs from Kafka: {@code remote.log.storage.manager.class.name} and
 * {@code remote.log.metadata.manager.class.name} take a plugin's provider name ({@code local}, {@code topic},
 * {@code inmemory}, {@code s3}, {@code gcs}), an alias a plugin declares (the {@code topic} plugin answers to
 * Kafka's {@code TopicBasedRemoteLogMetadataManager} class name) or a class name; the metadata manager's default is
 * {@code topic}, Kafka's topic-based manager.
 *
 * <p>Who reads what: {@link RemoteLogManager} the custom metadata limit, the task interval and retries and the copy
 * quota; the broker's wiring the plugin names, class paths and prefixes ({@link #withoutPrefix}) and the thread pool
 * sizes (of the scheduler it gives the remote log manager); the remote read path the reader, fetch quota and
 * timeout settings; {@link RemoteIndexCache} the index cache size.
 *
 * @param remoteLogStorageSystemEnable               {@code remote.log.storage.system.enable}
 * @param remoteStorageManagerClassName              {@code remote.log.storage.manager.class.name}: a provider name
 *                                                   or a class name; none by default
 * @param remoteStorageManagerClassPath              {@code remote.log.storage.manager.class.path}
 * @param remoteStorageManagerPrefix                 {@code remote.log.storage.manager.impl.prefix}: the prefix of
 *                                                   the settings given to the storage manager
 * @param remoteLogMetadataManagerClassName          {@code remote.log.metadata.manager.class.name}
 * @param remoteLogMetadataManagerClassPath          {@code remote.log.metadata.manager.class.path}
 * @param remoteLogMetadataManagerPrefix             {@code remote.log.metadata.manager.impl.prefix}
 * @param remoteLogMetadataManagerListenerName       {@code remote.log.metadata.manager.listener.name}
 * @param remoteLogMetadataCustomMetadataMaxBytes    {@code remote.log.metadata.custom.metadata.max.bytes}: the
 *                                                   largest custom metadata a copy may return
 * @param remoteLogIndexFileCacheTotalSizeBytes      {@code remote.log.index.file.cache.total.size.bytes}
 * @param remoteLogManagerThreadPoolSize             {@code remote.log.manager.thread.pool.size}
 * @param remoteLogManagerCopierThreadPoolSize       {@code remote.log.manager.copier.thread.pool.size}
 * @param remoteLogManagerExpirationThreadPoolSize   {@code remote.log.manager.expiration.thread.pool.size}
 * @param remoteLogManagerTaskIntervalMs             {@code remote.log.manager.task.interval.ms}: how often each
 *                                                   partition's copy and expiration run
 * @param remoteLogManagerTaskRetryBackoffMs         {@code remote.log.manager.task.retry.backoff.ms}
 * @param remoteLogManagerTaskRetryBackoffMaxMs      {@code remote.log.manager.task.retry.backoff.max.ms}
 * @param remoteLogManagerTaskRetryJitter            {@code remote.log.manager.task.retry.jitter}
 * @param remoteLogReaderThreads                     {@code remote.log.reader.threads}
 * @param remoteLogReaderMaxPendingTasks             {@code remote.log.reader.max.pending.tasks}
 * @param remoteLogManagerCopyMaxBytesPerSecond      {@code remote.log.manager.copy.max.bytes.per.second}
 * @param remoteLogManagerCopyQuotaWindowNum         {@code remote.log.manager.copy.quota.window.num}
 * @param remoteLogManagerCopyQuotaWindowSizeSeconds {@code remote.log.manager.copy.quota.window.size.seconds}
 * @param remoteLogManagerFetchMaxBytesPerSecond     {@code remote.log.manager.fetch.max.bytes.per.second}
 * @param remoteLogManagerFetchQuotaWindowNum        {@code remote.log.manager.fetch.quota.window.num}
 * @param remoteLogManagerFetchQuotaWindowSizeSeconds {@code remote.log.manager.fetch.quota.window.size.seconds}
 * @param remoteFetchMaxWaitMs                       {@code remote.fetch.max.wait.ms}
 * @param remoteListOffsetsRequestTimeoutMs          {@code remote.list.offsets.request.timeout.ms}
 */
public record RemoteLogManagerConfig(
        boolean remoteLogStorageSystemEnable,
        Optional<String> remoteStorageManagerClassName,
        Optional<String> remoteStorageManagerClassPath,
        String remoteStorageManagerPrefix,
        String remoteLogMetadataManagerClassName,
        Optional<String> remoteLogMetadataManagerClassPath,
        String remoteLogMetadataManagerPrefix,
        Optional<String> remoteLogMetadataManagerListenerName,
        int remoteLogMetadataCustomMetadataMaxBytes,
        long remoteLogIndexFileCacheTotalSizeBytes,
        int remoteLogManagerThreadPoolSize,
        int remoteLogManagerCopierThreadPoolSize,
        int remoteLogManagerExpirationThreadPoolSize,
        long remoteLogManagerTaskIntervalMs,
        long remoteLogManagerTaskRetryBackoffMs,
        long remoteLogManagerTaskRetryBackoffMaxMs,
        double remoteLogManagerTaskRetryJitter,
        int remoteLogReaderThreads,
        int remoteLogReaderMaxPendingTasks,
        long remoteLogManagerCopyMaxBytesPerSecond,
        int remoteLogManagerCopyQuotaWindowNum,
        int remoteLogManagerCopyQuotaWindowSizeSeconds,
        long remoteLogManagerFetchMaxBytesPerSecond,
        int remoteLogManagerFetchQuotaWindowNum,
        int remoteLogManagerFetchQuotaWindowSizeSeconds,
        long remoteFetchMaxWaitMs,
        long remoteListOffsetsRequestTimeoutMs) {

    /** {@code remote.log.storage.system.enable}: the log manager's key, the same one. */
    public static final ConfigKey REMOTE_LOG_STORAGE_SYSTEM_ENABLE = LogManagerConfig.REMOTE_LOG_STORAGE_SYSTEM_ENABLE;

    public static final ConfigKey REMOTE_STORAGE_MANAGER_CLASS_NAME = unset(
            "remote.log.storage.manager.class.name",
            "The remote storage manager: a plugin's provider name (local, s3, gcs) or a class name.");
    public static final ConfigKey REMOTE_STORAGE_MANAGER_CLASS_PATH = unset(
            "remote.log.storage.manager.class.path",
            "A class path from which the remote storage manager is loaded, isolated from the broker's classes.");
    public static final ConfigKey REMOTE_STORAGE_MANAGER_CONFIG_PREFIX = ConfigKey.optional(
                    "remote.log.storage.manager.impl.prefix",
                    ConfigType.STRING,
                    "rsm.config.",
                    "The prefix of the settings given to the remote storage manager, without the prefix.")
            .withValidator(ConfigValidator.nonBlank());
    public static final ConfigKey REMOTE_LOG_METADATA_MANAGER_CLASS_NAME = ConfigKey.optional(
                    "remote.log.metadata.manager.class.name",
                    ConfigType.STRING,
                    "topic",
                    "The remote log metadata manager: a plugin's name or alias (topic, inmemory) or a class name.")
            .withValidator(ConfigValidator.nonBlank());
    public static final ConfigKey REMOTE_LOG_METADATA_MANAGER_CLASS_PATH = unset(
            "remote.log.metadata.manager.class.path",
            "A class path from which the remote log metadata manager is loaded, isolated from the broker's classes.");
    public static final ConfigKey REMOTE_LOG_METADATA_MANAGER_CONFIG_PREFIX = ConfigKey.optional(
                    "remote.log.metadata.manager.impl.prefix",
                    ConfigType.STRING,
                    "rlmm.config.",
                    "The prefix of the settings given to the remote log metadata manager, without the prefix.")
            .withValidator(ConfigValidator.nonBlank());
    public static final ConfigKey REMOTE_LOG_METADATA_MANAGER_LISTENER_NAME = unset(
            "remote.log.metadata.manager.listener.name",
            "The listener a metadata manager that talks to the broker connects to.");
    public static final ConfigKey REMOTE_LOG_METADATA_CUSTOM_METADATA_MAX_BYTES = ConfigKey.optional(
                    "remote.log.metadata.custom.metadata.max.bytes",
                    ConfigType.INT,
                    128,
                    "The largest custom metadata a copy may return; a larger one stops the partition's copies.")
            .withValidator(ConfigValidator.atLeast(0));
    public static final ConfigKey REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES = ConfigKey.optional(
                    "remote.log.index.file.cache.total.size.bytes",
                    ConfigType.LONG,
                    1024L * 1024 * 1024,
                    "The bytes of remote segments' indexes cached on local disk.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REMOTE_LOG_MANAGER_THREAD_POOL_SIZE = ConfigKey.optional(
                    "remote.log.manager.thread.pool.size",
                    ConfigType.INT,
                    2,
                    "The threads of the remote log manager's own work (follower tasks in Kafka).")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REMOTE_LOG_MANAGER_COPIER_THREAD_POOL_SIZE = ConfigKey.optional(
                    "remote.log.manager.copier.thread.pool.size",
                    ConfigType.INT,
                    10,
                    "The threads copying segments to the remote tier.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REMOTE_LOG_MANAGER_EXPIRATION_THREAD_POOL_SIZE = ConfigKey.optional(
                    "remote.log.manager.expiration.thread.pool.size",
                    ConfigType.INT,
                    10,
                    "The threads deleting expired segments from the remote tier.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REMOTE_LOG_MANAGER_TASK_INTERVAL_MS = ConfigKey.optional(
                    "remote.log.manager.task.interval.ms",
                    ConfigType.LONG,
                    30_000L,
                    "How often each partition's copy and expiration tasks run.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REMOTE_LOG_MANAGER_TASK_RETRY_BACKOFF_MS = ConfigKey.optional(
                    "remote.log.manager.task.retry.backoff.ms",
                    ConfigType.LONG,
                    500L,
                    "The first wait before a failed task tries again; it doubles with each failure in a row.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REMOTE_LOG_MANAGER_TASK_RETRY_BACKOFF_MAX_MS = ConfigKey.optional(
                    "remote.log.manager.task.retry.backoff.max.ms",
                    ConfigType.LONG,
                    30_000L,
                    "The longest wait before a failed task tries again.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REMOTE_LOG_MANAGER_TASK_RETRY_JITTER = ConfigKey.optional(
                    "remote.log.manager.task.retry.jitter",
                    ConfigType.DOUBLE,
                    0.2,
                    "The random part of a retry's wait, as a fraction of it, from 0 to 0.5.")
            .withValidator(RemoteLogManagerConfig::checkJitter);
    public static final ConfigKey REMOTE_LOG_READER_THREADS = ConfigKey.optional(
                    "remote.log.reader.threads",
                    ConfigType.INT,
                    10,
                    "The threads reading from the remote tier for fetches.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REMOTE_LOG_READER_MAX_PENDING_TASKS = ConfigKey.optional(
                    "remote.log.reader.max.pending.tasks",
                    ConfigType.INT,
                    100,
                    "The remote reads that may wait for a reader thread; more are refused.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REMOTE_LOG_MANAGER_COPY_MAX_BYTES_PER_SECOND = ConfigKey.optional(
                    "remote.log.manager.copy.max.bytes.per.second",
                    ConfigType.LONG,
                    Long.MAX_VALUE,
                    "The bytes per second the broker copies to the remote tier, at most (KIP-956).")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REMOTE_LOG_MANAGER_COPY_QUOTA_WINDOW_NUM = ConfigKey.optional(
                    "remote.log.manager.copy.quota.window.num",
                    ConfigType.INT,
                    11,
                    "The windows over which the copy rate is measured.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REMOTE_LOG_MANAGER_COPY_QUOTA_WINDOW_SIZE_SECONDS = ConfigKey.optional(
                    "remote.log.manager.copy.quota.window.size.seconds",
                    ConfigType.INT,
                    1,
                    "The length of each window of the copy rate.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REMOTE_LOG_MANAGER_FETCH_MAX_BYTES_PER_SECOND = ConfigKey.optional(
                    "remote.log.manager.fetch.max.bytes.per.second",
                    ConfigType.LONG,
                    Long.MAX_VALUE,
                    "The bytes per second the broker reads from the remote tier, at most (KIP-956).")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REMOTE_LOG_MANAGER_FETCH_QUOTA_WINDOW_NUM = ConfigKey.optional(
                    "remote.log.manager.fetch.quota.window.num",
                    ConfigType.INT,
                    11,
                    "The windows over which the fetch rate is measured.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REMOTE_LOG_MANAGER_FETCH_QUOTA_WINDOW_SIZE_SECONDS = ConfigKey.optional(
                    "remote.log.manager.fetch.quota.window.size.seconds",
                    ConfigType.INT,
                    1,
                    "The length of each window of the fetch rate.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REMOTE_FETCH_MAX_WAIT_MS = ConfigKey.optional(
                    "remote.fetch.max.wait.ms",
                    ConfigType.LONG,
                    500L,
                    "How long a fetch that reads from the remote tier may wait for it.")
            .withValidator(ConfigValidator.atLeast(1));
    public static final ConfigKey REMOTE_LIST_OFFSETS_REQUEST_TIMEOUT_MS = ConfigKey.optional(
                    "remote.list.offsets.request.timeout.ms",
                    ConfigType.LONG,
                    30_000L,
                    "How long a ListOffsets request that looks in the remote tier may wait for it.")
            .withValidator(ConfigValidator.atLeast(1));

    /** Every key {@link #fromProps} reads, in the order of the record's components. */
    public static final List<ConfigKey> KEYS = List.of(
            REMOTE_LOG_STORAGE_SYSTEM_ENABLE,
            REMOTE_STORAGE_MANAGER_CLASS_NAME,
            REMOTE_STORAGE_MANAGER_CLASS_PATH,
            REMOTE_STORAGE_MANAGER_CONFIG_PREFIX,
            REMOTE_LOG_METADATA_MANAGER_CLASS_NAME,
            REMOTE_LOG_METADATA_MANAGER_CLASS_PATH,
            REMOTE_LOG_METADATA_MANAGER_CONFIG_PREFIX,
            REMOTE_LOG_METADATA_MANAGER_LISTENER_NAME,
            REMOTE_LOG_METADATA_CUSTOM_METADATA_MAX_BYTES,
            REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES,
            REMOTE_LOG_MANAGER_THREAD_POOL_SIZE,
            REMOTE_LOG_MANAGER_COPIER_THREAD_POOL_SIZE,
            REMOTE_LOG_MANAGER_EXPIRATION_THREAD_POOL_SIZE,
            REMOTE_LOG_MANAGER_TASK_INTERVAL_MS,
            REMOTE_LOG_MANAGER_TASK_RETRY_BACKOFF_MS,
            REMOTE_LOG_MANAGER_TASK_RETRY_BACKOFF_MAX_MS,
            REMOTE_LOG_MANAGER_TASK_RETRY_JITTER,
            REMOTE_LOG_READER_THREADS,
            REMOTE_LOG_READER_MAX_PENDING_TASKS,
            REMOTE_LOG_MANAGER_COPY_MAX_BYTES_PER_SECOND,
            REMOTE_LOG_MANAGER_COPY_QUOTA_WINDOW_NUM,
            REMOTE_LOG_MANAGER_COPY_QUOTA_WINDOW_SIZE_SECONDS,
            REMOTE_LOG_MANAGER_FETCH_MAX_BYTES_PER_SECOND,
            REMOTE_LOG_MANAGER_FETCH_QUOTA_WINDOW_NUM,
            REMOTE_LOG_MANAGER_FETCH_QUOTA_WINDOW_SIZE_SECONDS,
            REMOTE_FETCH_MAX_WAIT_MS,
            REMOTE_LIST_OFFSETS_REQUEST_TIMEOUT_MS);

    /**
     * Checks the values.
     *
     * @throws ConfigException naming the key, for a value out of range, or no storage manager while tiered
     *                         storage is enabled
     */
    public RemoteLogManagerConfig {
        Objects.requireNonNull(remoteStorageManagerClassName, "remoteStorageManagerClassName");
        Objects.requireNonNull(remoteStorageManagerClassPath, "remoteStorageManagerClassPath");
        Objects.requireNonNull(remoteLogMetadataManagerClassPath, "remoteLogMetadataManagerClassPath");
        Objects.requireNonNull(remoteLogMetadataManagerListenerName, "remoteLogMetadataManagerListenerName");
        Object[] values = {
            remoteLogStorageSystemEnable,
            remoteStorageManagerClassName.orElse(null),
            remoteStorageManagerClassPath.orElse(null),
            remoteStorageManagerPrefix,
            remoteLogMetadataManagerClassName,
            remoteLogMetadataManagerClassPath.orElse(null),
            remoteLogMetadataManagerPrefix,
            remoteLogMetadataManagerListenerName.orElse(null),
            remoteLogMetadataCustomMetadataMaxBytes,
            remoteLogIndexFileCacheTotalSizeBytes,
            remoteLogManagerThreadPoolSize,
            remoteLogManagerCopierThreadPoolSize,
            remoteLogManagerExpirationThreadPoolSize,
            remoteLogManagerTaskIntervalMs,
            remoteLogManagerTaskRetryBackoffMs,
            remoteLogManagerTaskRetryBackoffMaxMs,
            remoteLogManagerTaskRetryJitter,
            remoteLogReaderThreads,
            remoteLogReaderMaxPendingTasks,
            remoteLogManagerCopyMaxBytesPerSecond,
            remoteLogManagerCopyQuotaWindowNum,
            remoteLogManagerCopyQuotaWindowSizeSeconds,
            remoteLogManagerFetchMaxBytesPerSecond,
            remoteLogManagerFetchQuotaWindowNum,
            remoteLogManagerFetchQuotaWindowSizeSeconds,
            remoteFetchMaxWaitMs,
            remoteListOffsetsRequestTimeoutMs
        };
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                KEYS.get(i).validator().ensureValid(KEYS.get(i).name(), values[i]);
            }
        }
        if (remoteLogManagerTaskRetryBackoffMaxMs < remoteLogManagerTaskRetryBackoffMs) {
            throw new ConfigException(
                    REMOTE_LOG_MANAGER_TASK_RETRY_BACKOFF_MAX_MS.name(),
                    remoteLogManagerTaskRetryBackoffMaxMs,
                    "is below " + REMOTE_LOG_MANAGER_TASK_RETRY_BACKOFF_MS.name() + " ("
                            + remoteLogManagerTaskRetryBackoffMs + ")");
        }
        if (remoteLogStorageSystemEnable && remoteStorageManagerClassName.isEmpty()) {
            throw new ConfigException(
                    REMOTE_STORAGE_MANAGER_CLASS_NAME.name(),
                    null,
                    "is required when " + REMOTE_LOG_STORAGE_SYSTEM_ENABLE.name() + " is true");
        }
    }

    /** The settings of remote reads. */
    public RemoteReadConfig readConfig() {
        return new RemoteReadConfig(
                remoteLogReaderThreads,
                remoteLogReaderMaxPendingTasks,
                remoteFetchMaxWaitMs,
                remoteLogManagerFetchMaxBytesPerSecond,
                remoteLogManagerFetchQuotaWindowNum,
                remoteLogManagerFetchQuotaWindowSizeSeconds,
                remoteListOffsetsRequestTimeoutMs);
    }

    /**
     * The settings in broker properties ({@code server.properties}), Kafka's defaults for those not set.
     *
     * @throws ConfigException naming the key, for a value of the wrong type or range
     */
    public static RemoteLogManagerConfig fromProps(Map<String, ?> props) {
        return new RemoteLogManagerConfig(
                (Boolean) ConfigValues.value(props, REMOTE_LOG_STORAGE_SYSTEM_ENABLE),
                text(props, REMOTE_STORAGE_MANAGER_CLASS_NAME),
                text(props, REMOTE_STORAGE_MANAGER_CLASS_PATH),
                (String) ConfigValues.value(props, REMOTE_STORAGE_MANAGER_CONFIG_PREFIX),
                (String) ConfigValues.value(props, REMOTE_LOG_METADATA_MANAGER_CLASS_NAME),
                text(props, REMOTE_LOG_METADATA_MANAGER_CLASS_PATH),
                (String) ConfigValues.value(props, REMOTE_LOG_METADATA_MANAGER_CONFIG_PREFIX),
                text(props, REMOTE_LOG_METADATA_MANAGER_LISTENER_NAME),
                (Integer) ConfigValues.value(props, REMOTE_LOG_METADATA_CUSTOM_METADATA_MAX_BYTES),
                (Long) ConfigValues.value(props, REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES),
                (Integer) ConfigValues.value(props, REMOTE_LOG_MANAGER_THREAD_POOL_SIZE),
                (Integer) ConfigValues.value(props, REMOTE_LOG_MANAGER_COPIER_THREAD_POOL_SIZE),
                (Integer) ConfigValues.value(props, REMOTE_LOG_MANAGER_EXPIRATION_THREAD_POOL_SIZE),
                (Long) ConfigValues.value(props, REMOTE_LOG_MANAGER_TASK_INTERVAL_MS),
                (Long) ConfigValues.value(props, REMOTE_LOG_MANAGER_TASK_RETRY_BACKOFF_MS),
                (Long) ConfigValues.value(props, REMOTE_LOG_MANAGER_TASK_RETRY_BACKOFF_MAX_MS),
                (Double) ConfigValues.value(props, REMOTE_LOG_MANAGER_TASK_RETRY_JITTER),
                (Integer) ConfigValues.value(props, REMOTE_LOG_READER_THREADS),
                (Integer) ConfigValues.value(props, REMOTE_LOG_READER_MAX_PENDING_TASKS),
                (Long) ConfigValues.value(props, REMOTE_LOG_MANAGER_COPY_MAX_BYTES_PER_SECOND),
                (Integer) ConfigValues.value(props, REMOTE_LOG_MANAGER_COPY_QUOTA_WINDOW_NUM),
                (Integer) ConfigValues.value(props, REMOTE_LOG_MANAGER_COPY_QUOTA_WINDOW_SIZE_SECONDS),
                (Long) ConfigValues.value(props, REMOTE_LOG_MANAGER_FETCH_MAX_BYTES_PER_SECOND),
                (Integer) ConfigValues.value(props, REMOTE_LOG_MANAGER_FETCH_QUOTA_WINDOW_NUM),
                (Integer) ConfigValues.value(props, REMOTE_LOG_MANAGER_FETCH_QUOTA_WINDOW_SIZE_SECONDS),
                (Long) ConfigValues.value(props, REMOTE_FETCH_MAX_WAIT_MS),
                (Long) ConfigValues.value(props, REMOTE_LIST_OFFSETS_REQUEST_TIMEOUT_MS));
    }

    /**
     * The settings under {@code prefix} in {@code props}, without the prefix: what a plugin is configured with
     * ({@link #remoteStorageManagerPrefix} or {@link #remoteLogMetadataManagerPrefix}).
     */
    public static Map<String, Object> withoutPrefix(Map<String, ?> props, String prefix) {
        Map<String, Object> settings = new TreeMap<>();
        props.forEach((key, value) -> {
            if (key.startsWith(prefix) && key.length() > prefix.length()) {
                settings.put(key.substring(prefix.length()), value);
            }
        });
        return settings;
    }

    private static ConfigKey unset(String name, String documentation) {
        return new ConfigKey(name, ConfigType.STRING, Optional.empty(), documentation, ConfigValidator.any());
    }

    // A key without a default: absent, or blank as Kafka's null, is empty.
    private static Optional<String> text(Map<String, ?> props, ConfigKey key) {
        Object raw = props.get(key.name());
        return raw == null
                ? Optional.empty()
                : Optional.of(((String) key.type().parse(key.name(), raw)).trim())
                        .filter(text -> !text.isEmpty());
    }

    private static void checkJitter(String key, Object value) {
        double jitter = (Double) value;
        if (!(jitter >= 0 && jitter <= 0.5)) {
            throw new ConfigException(key, value, "must be from 0 to 0.5");
        }
    }
}
