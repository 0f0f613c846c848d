package io.krabka.plugin.rlmm.topic;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.ConfigValidator;
import io.krabka.spi.plugin.OfferedKeys;
import io.krabka.spi.plugin.PluginConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The settings of the topic-based manager, given under {@code rlmm.config.}: Kafka's
 * {@code TopicBasedRemoteLogMetadataManagerConfig} keys with Kafka's defaults and meaning, what the broker offers
 * ({@code broker.id}, {@code tiered.storage.dir}, and the listener's address under the common client prefix), and the local
 * snapshot, which is Krabka's.
 *
 * @param topicPartitions   {@code remote.log.metadata.topic.num.partitions}
 * @param replicationFactor {@code remote.log.metadata.topic.replication.factor}
 * @param retentionMs       {@code remote.log.metadata.topic.retention.ms}, -1 for unlimited
 * @param minIsr            {@code remote.log.metadata.topic.min.isr}: the topic's {@code min.insync.replicas}
 * @param consumeWait       {@code remote.log.metadata.consume.wait.ms}: how long a write waits to be read back
 * @param initRetryTimeout  {@code remote.log.metadata.initialization.retry.max.timeout.ms}
 * @param initRetryInterval {@code remote.log.metadata.initialization.retry.interval.ms}
 * @param snapshot          the local snapshot file
 * @param snapshotInterval  how often, at most, the snapshot is rewritten while events arrive
 * @param producer          the producer's client settings: the common ones, then the producer's own
 * @param consumer          the consumer's client settings: the common ones, then the consumer's own
 * @param admin             the admin client's settings: the common ones, then the admin client's own
 * @param clientIdPrefix    Kafka's client id prefix, {@code __remote_log_metadata_client_<broker.id>}
 */
record TopicBasedRemoteLogMetadataManagerConfig(
        int topicPartitions,
        short replicationFactor,
        long retentionMs,
        int minIsr,
        Duration consumeWait,
        Duration initRetryTimeout,
        Duration initRetryInterval,
        Path snapshot,
        Duration snapshotInterval,
        Map<String, Object> producer,
        Map<String, Object> consumer,
        Map<String, Object> admin,
        String clientIdPrefix) {

    /** The metadata topic, as Kafka names it. */
    static final String TOPIC = "__remote_log_metadata";

    static final String COMMON_CLIENT_PREFIX = "remote.log.metadata.common.client.";
    static final String PRODUCER_PREFIX = "remote.log.metadata.producer.";
    static final String CONSUMER_PREFIX = "remote.log.metadata.consumer.";
    static final String ADMIN_PREFIX = "remote.log.metadata.admin.";
    static final String PARTITIONS = "remote.log.metadata.topic.num.partitions";
    static final String REPLICATION_FACTOR = "remote.log.metadata.topic.replication.factor";
    static final String RETENTION_MS = "remote.log.metadata.topic.retention.ms";
    static final String MIN_ISR = "remote.log.metadata.topic.min.isr";
    static final String CONSUME_WAIT_MS = "remote.log.metadata.consume.wait.ms";
    static final String INIT_RETRY_TIMEOUT_MS = "remote.log.metadata.initialization.retry.max.timeout.ms";
    static final String INIT_RETRY_INTERVAL_MS = "remote.log.metadata.initialization.retry.interval.ms";
    static final String BOOTSTRAP_SERVERS = COMMON_CLIENT_PREFIX + "bootstrap.servers";
    static final String SECURITY_PROTOCOL = COMMON_CLIENT_PREFIX + "security.protocol";
    static final String SNAPSHOT_PATH = "snapshot.path";
    static final String SNAPSHOT_INTERVAL_MS = "snapshot.interval.ms";
    static final String BROKER_ID = OfferedKeys.BROKER_ID;
    static final String TIERED_STORAGE_DIR = OfferedKeys.TIERED_STORAGE_DIR;
    static final String CLUSTER_ID = OfferedKeys.CLUSTER_ID;
    /** The snapshot's name in the broker's tiered-storage directory, outside every log directory. */
    static final String DEFAULT_SNAPSHOT = "remote-log-metadata-topic.snapshot";

    private static final ConfigValidator AT_LEAST_ONE = (name, value) -> {
        if (((Number) value).longValue() < 1) {
            throw new ConfigException(name, value, "must be at least 1");
        }
    };
    private static final ConfigValidator NOT_NEGATIVE = (name, value) -> {
        if (((Number) value).longValue() < 0) {
            throw new ConfigException(name, value, "must be at least 0");
        }
    };

    /** Every setting the manager declares; the client settings under the four prefixes come on top. */
    static final List<ConfigKey> KEYS = List.of(
            ConfigKey.optional(
                            PARTITIONS,
                            ConfigType.INT,
                            50,
                            "The number of partitions of " + TOPIC
                                    + ", as Kafka's; it must match the topic's if it exists.")
                    .withValidator(AT_LEAST_ONE),
            ConfigKey.optional(
                            REPLICATION_FACTOR,
                            ConfigType.INT,
                            3,
                            "The replication factor " + TOPIC + " is created with, as Kafka's.")
                    .withValidator(AT_LEAST_ONE),
            ConfigKey.optional(
                    RETENTION_MS,
                    ConfigType.LONG,
                    -1L,
                    "The retention of " + TOPIC + " in milliseconds; -1 keeps every event, as Kafka's default."),
            ConfigKey.optional(
                            MIN_ISR,
                            ConfigType.INT,
                            2,
                            "The min.insync.replicas " + TOPIC
                                    + " is created with, as Kafka's; like Kafka, a partition never "
                                    + "asks for more replicas than it has.")
                    .withValidator(AT_LEAST_ONE),
            ConfigKey.optional(
                            CONSUME_WAIT_MS,
                            ConfigType.LONG,
                            120_000L,
                            "How long a change waits for the manager's consumer to read it back before it fails.")
                    .withValidator(NOT_NEGATIVE),
            ConfigKey.optional(
                            INIT_RETRY_TIMEOUT_MS,
                            ConfigType.LONG,
                            120_000L,
                            "How long creating or finding " + TOPIC + " and starting the clients is retried before the "
                                    + "manager gives up.")
                    .withValidator(NOT_NEGATIVE),
            ConfigKey.optional(
                            INIT_RETRY_INTERVAL_MS,
                            ConfigType.LONG,
                            100L,
                            "The pause between two attempts of that initialization.")
                    .withValidator(NOT_NEGATIVE),
            ConfigKey.optional(
                    BOOTSTRAP_SERVERS,
                    ConfigType.STRING,
                    "",
                    "Given by the broker: host:port of its listener remote.log.metadata.manager.listener.name."),
            ConfigKey.optional(
                    SECURITY_PROTOCOL,
                    ConfigType.STRING,
                    "PLAINTEXT",
                    "Given by the broker: the security protocol of that listener."),
            ConfigKey.optional(
                    SNAPSHOT_PATH,
                    ConfigType.STRING,
                    "",
                    "The local snapshot: consumed offsets and the cache, so that a restart reads only newer events. "
                            + "Empty: tiered.storage.dir's " + DEFAULT_SNAPSHOT + "."),
            ConfigKey.optional(
                            SNAPSHOT_INTERVAL_MS,
                            ConfigType.LONG,
                            10_000L,
                            "How often, at most, the snapshot is rewritten while events arrive; it is also written on close.")
                    .withValidator(NOT_NEGATIVE),
            ConfigKey.optional(BROKER_ID, ConfigType.INT, -1, "Given by the broker: its id, for the client ids."),
            ConfigKey.optional(CLUSTER_ID, ConfigType.STRING, "", "Given by the broker: its cluster id (unused)."),
            ConfigKey.required(
                    TIERED_STORAGE_DIR,
                    ConfigType.STRING,
                    "Given by the broker: its tiered-storage directory, <first log dir>-tiered, where the snapshot goes by default."));

    /** Validates the parts and freezes the client settings. */
    TopicBasedRemoteLogMetadataManagerConfig {
        Objects.requireNonNull(snapshot, "snapshot");
        producer = Map.copyOf(producer);
        consumer = Map.copyOf(consumer);
        admin = Map.copyOf(admin);
    }

    /**
     * Checks and parses raw settings (keys without {@code rlmm.config.}).
     *
     * @throws ConfigException for an unknown or invalid setting, a missing {@code log.dir}, or no bootstrap servers
     */
    static TopicBasedRemoteLogMetadataManagerConfig parse(Map<String, ?> raw) {
        Map<String, Object> own = new HashMap<>();
        Map<String, Object> common = new HashMap<>();
        Map<String, Object> producerOnly = new HashMap<>();
        Map<String, Object> consumerOnly = new HashMap<>();
        Map<String, Object> adminOnly = new HashMap<>();
        raw.forEach((key, value) -> {
            if (key.equals(BOOTSTRAP_SERVERS) || key.equals(SECURITY_PROTOCOL)) {
                own.put(key, value);
            } else if (key.startsWith(COMMON_CLIENT_PREFIX)) {
                common.put(key.substring(COMMON_CLIENT_PREFIX.length()), value);
            } else if (key.startsWith(PRODUCER_PREFIX)) {
                producerOnly.put(key.substring(PRODUCER_PREFIX.length()), value);
            } else if (key.startsWith(CONSUMER_PREFIX)) {
                consumerOnly.put(key.substring(CONSUMER_PREFIX.length()), value);
            } else if (key.startsWith(ADMIN_PREFIX)) {
                adminOnly.put(key.substring(ADMIN_PREFIX.length()), value);
            } else {
                own.put(key, value);
            }
        });
        PluginConfig config = PluginConfig.parse(KEYS, own);
        if (config.getString(BOOTSTRAP_SERVERS).isBlank()) {
            throw new ConfigException(
                    BOOTSTRAP_SERVERS,
                    "",
                    "no broker to reach " + TOPIC
                            + " through: set remote.log.metadata.manager.listener.name, or this key");
        }
        common.put("bootstrap.servers", config.getString(BOOTSTRAP_SERVERS));
        common.put("security.protocol", config.getString(SECURITY_PROTOCOL));
        long retention = config.getLong(RETENTION_MS);
        if (retention != -1 && retention <= 0) {
            throw new ConfigException(RETENTION_MS, retention, "must be -1 (unlimited) or above 0");
        }
        String clientIdPrefix = "__remote_log_metadata_client_" + config.getInt(BROKER_ID);
        Map<String, Object> producer = new HashMap<>(common);
        producer.putAll(producerOnly);
        Map<String, Object> consumer = new HashMap<>(common);
        consumer.putAll(consumerOnly);
        Map<String, Object> admin = new HashMap<>(common);
        admin.putAll(adminOnly);
        String snapshot = config.getString(SNAPSHOT_PATH);
        Path snapshotPath = snapshot.isEmpty()
                ? Path.of(config.getString(TIERED_STORAGE_DIR)).resolve(DEFAULT_SNAPSHOT)
                : Path.of(snapshot);
        return new TopicBasedRemoteLogMetadataManagerConfig(
                config.getInt(PARTITIONS),
                (short) config.getInt(REPLICATION_FACTOR),
                retention,
                config.getInt(MIN_ISR),
                Duration.ofMillis(config.getLong(CONSUME_WAIT_MS)),
                Duration.ofMillis(config.getLong(INIT_RETRY_TIMEOUT_MS)),
                Duration.ofMillis(config.getLong(INIT_RETRY_INTERVAL_MS)),
                snapshotPath.toAbsolutePath(),
                Duration.ofMillis(config.getLong(SNAPSHOT_INTERVAL_MS)),
                producer,
                consumer,
                admin,
                clientIdPrefix);
    }
}
