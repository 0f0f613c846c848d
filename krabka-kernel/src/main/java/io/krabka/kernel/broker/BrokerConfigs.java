package io.krabka.kernel.broker;

import static io.krabka.spi.plugin.ConfigType.BOOLEAN;
import static io.krabka.spi.plugin.ConfigType.INT;
import static io.krabka.spi.plugin.ConfigType.LIST;
import static io.krabka.spi.plugin.ConfigType.LONG;
import static io.krabka.spi.plugin.ConfigType.STRING;
import static io.krabka.spi.plugin.ConfigValidator.atLeast;

import io.krabka.kernel.security.AuthorizerConfig;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.ConfigValidator;
import java.util.List;

/**
 * The broker's own settings, with Kafka's names and defaults ({@code KafkaConfig} and the config classes it is made
 * of) unless the documentation says otherwise. The log manager's settings are {@link
 * io.krabka.kernel.log.LogManagerConfig}'s, the topic defaults ({@code log.retention.hours}, {@code
 * message.max.bytes}, ...) {@link io.krabka.kernel.log.config.TopicConfigs}' broker synonyms.
 */
public final class BrokerConfigs {

    /** Krabka's own key for the health endpoint; not a Kafka setting. */
    public static final String HEALTH_LISTEN_ADDR_CONFIG = "krabka.health.listen.addr";

    public static final ConfigKey NODE_ID = ConfigKey.required(
                    "node.id", INT, "This node's id, the one its log directories were formatted for.")
            .withValidator(atLeast(0));
    public static final ConfigKey PROCESS_ROLES = ConfigKey.required(
                    "process.roles",
                    LIST,
                    "The node's roles: broker,controller (a single node that is its own controller) is the one Krabka runs.")
            .withValidator(BrokerConfigs::combinedRoles);
    public static final ConfigKey LISTENERS = key(
            "listeners",
            STRING,
            "PLAINTEXT://:9092",
            "The listeners, NAME://HOST:PORT, comma-separated; an empty host takes every interface. Those not named in "
                    + "controller.listener.names are the broker's, each bound with its own security protocol.");
    public static final ConfigKey ADVERTISED_LISTENERS = key(
            "advertised.listeners",
            STRING,
            "",
            "What clients of each broker listener are told to connect to, NAME://HOST:PORT; empty for the listeners "
                    + "themselves.");
    public static final ConfigKey CONTROLLER_LISTENER_NAMES = key(
            "controller.listener.names",
            LIST,
            "CONTROLLER",
            "The names of the controller's listeners among listeners (Kafka has no default).");
    public static final ConfigKey LISTENER_SECURITY_PROTOCOL_MAP = key(
            "listener.security.protocol.map",
            STRING,
            "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL",
            "Each listener's security protocol, NAME:PROTOCOL: PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL.");
    public static final ConfigKey NUM_NETWORK_THREADS =
            key("num.network.threads", INT, 3, "The event loops that read requests and write responses.", atLeast(1));
    public static final ConfigKey NUM_IO_THREADS = key(
            "num.io.threads",
            INT,
            8,
            "Kafka's request handler threads. Krabka handles each request on a virtual thread, bounded by "
                    + "queued.max.requests, so this only has to be valid.",
            atLeast(1));
    public static final ConfigKey BACKGROUND_THREADS = key(
            "background.threads",
            INT,
            10,
            "The threads of background work: log retention, flushes, checkpoints, deletions.",
            atLeast(1));
    public static final ConfigKey SOCKET_SEND_BUFFER_BYTES = key(
            "socket.send.buffer.bytes",
            INT,
            102_400,
            "SO_SNDBUF of each connection; -1 for the OS default.",
            atLeast(-1));
    public static final ConfigKey SOCKET_RECEIVE_BUFFER_BYTES = key(
            "socket.receive.buffer.bytes",
            INT,
            102_400,
            "SO_RCVBUF of each connection; -1 for the OS default.",
            atLeast(-1));
    public static final ConfigKey SOCKET_REQUEST_MAX_BYTES = key(
            "socket.request.max.bytes",
            INT,
            104_857_600,
            "The largest request frame; a larger one closes the connection.",
            atLeast(1));
    public static final ConfigKey QUEUED_MAX_REQUESTS = key(
            "queued.max.requests",
            INT,
            500,
            "The requests in flight in the whole broker before connections stop being read.",
            atLeast(1));
    public static final ConfigKey QUEUED_MAX_REQUEST_BYTES = key(
            "queued.max.request.bytes",
            LONG,
            -1L,
            "The bytes of the requests in flight before connections stop being read; -1 for no bound.",
            (key, value) -> {
                long bytes = (Long) value;
                if (bytes != -1 && bytes < 1) {
                    throw new BrokerConfigException(key, value, "must be positive, or -1 for no bound");
                }
            });
    public static final ConfigKey MAX_CONNECTIONS = key(
            "max.connections",
            INT,
            Integer.MAX_VALUE,
            "The connections open at once; further ones wait to be accepted (Kafka allows 0).",
            atLeast(1));
    public static final ConfigKey CONNECTIONS_MAX_IDLE_MS =
            key("connections.max.idle.ms", LONG, 600_000L, "Connections idle this long are closed.", atLeast(1));
    public static final ConfigKey NUM_PARTITIONS = key(
            "num.partitions",
            INT,
            1,
            "The partitions of a topic created without a count (auto-created, or CreateTopics with -1).",
            atLeast(1));
    public static final ConfigKey DEFAULT_REPLICATION_FACTOR = key(
            "default.replication.factor",
            INT,
            1,
            "The replication factor of a topic created without one; a single node serves 1.",
            atLeast(1));
    public static final ConfigKey AUTO_CREATE_TOPICS_ENABLE = key(
            "auto.create.topics.enable",
            BOOLEAN,
            true,
            "Whether Metadata requests create the topics they name that do not exist.");
    public static final ConfigKey DELETE_TOPIC_ENABLE =
            key("delete.topic.enable", BOOLEAN, true, "Whether DeleteTopics deletes topics.");
    public static final ConfigKey OFFSETS_TOPIC_NUM_PARTITIONS = key(
            "offsets.topic.num.partitions",
            INT,
            50,
            "The partitions of __consumer_offsets, fixed once it exists.",
            atLeast(1));
    public static final ConfigKey OFFSETS_TOPIC_REPLICATION_FACTOR = key(
            "offsets.topic.replication.factor",
            INT,
            1,
            "The replication factor of __consumer_offsets: 1 on a single node (Kafka's default is 3).",
            atLeast(1));
    public static final ConfigKey OFFSETS_TOPIC_SEGMENT_BYTES =
            key("offsets.topic.segment.bytes", INT, 104_857_600, "The segment size of __consumer_offsets.", atLeast(1));
    public static final ConfigKey OFFSETS_TOPIC_COMPRESSION_CODEC = key(
            "offsets.topic.compression.codec",
            INT,
            0,
            "The codec of the offset commits written to __consumer_offsets: 0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd.",
            ConfigValidator.between(0, 4));
    public static final ConfigKey OFFSETS_LOAD_BUFFER_SIZE = key(
            "offsets.load.buffer.size",
            INT,
            5_242_880,
            "The bytes read at a time when a __consumer_offsets partition is loaded.",
            atLeast(1));
    public static final ConfigKey OFFSETS_RETENTION_MINUTES = key(
            "offsets.retention.minutes",
            INT,
            10_080,
            "How long the committed offsets of an empty group are kept.",
            atLeast(1));
    public static final ConfigKey OFFSETS_RETENTION_CHECK_INTERVAL_MS = key(
            "offsets.retention.check.interval.ms",
            LONG,
            600_000L,
            "How often expired offsets are looked for.",
            atLeast(1));
    public static final ConfigKey OFFSETS_COMMIT_TIMEOUT_MS = key(
            "offsets.commit.timeout.ms",
            INT,
            5_000,
            "How long an offset commit waits for its write before it fails.",
            atLeast(1));
    public static final ConfigKey OFFSET_METADATA_MAX_BYTES = key(
            "offset.metadata.max.bytes",
            INT,
            4_096,
            "The longest metadata string an offset commit may carry.",
            atLeast(0));
    public static final ConfigKey GROUP_MIN_SESSION_TIMEOUT_MS =
            key("group.min.session.timeout.ms", INT, 6_000, "The shortest session timeout a member may ask for.");
    public static final ConfigKey GROUP_MAX_SESSION_TIMEOUT_MS =
            key("group.max.session.timeout.ms", INT, 1_800_000, "The longest session timeout a member may ask for.");
    public static final ConfigKey GROUP_INITIAL_REBALANCE_DELAY_MS = key(
            "group.initial.rebalance.delay.ms",
            INT,
            3_000,
            "How long a new group waits for more members before its first rebalance; it then waits for the members that"
                    + " have their member id and are about to join.",
            atLeast(0));
    public static final ConfigKey GROUP_MAX_SIZE =
            key("group.max.size", INT, Integer.MAX_VALUE, "The members a classic group may have.", atLeast(1));
    public static final ConfigKey MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS = key(
            "max.incremental.fetch.session.cache.slots",
            INT,
            1_000,
            "The incremental fetch sessions kept at once.",
            atLeast(0));
    public static final ConfigKey FETCH_MAX_BYTES = key(
            "fetch.max.bytes",
            INT,
            57_671_680,
            "The most bytes one Fetch response carries, whatever the request asks.",
            atLeast(1024));
    public static final ConfigKey METADATA_LOG_DIR = key(
            "metadata.log.dir",
            STRING,
            "",
            "The directory of the metadata log (__cluster_metadata-0); empty for the first of log.dirs.");
    public static final ConfigKey AUTHORIZER_CLASS_NAME = key(
                    AuthorizerConfig.AUTHORIZER_CLASS_NAME,
                    STRING,
                    "",
                    "The authorizer: " + AuthorizerConfig.STANDARD_AUTHORIZER + " (served by Krabka's own, with its "
                            + "semantics, over the ACLs in the metadata log) or empty for none.")
            .withValidator(BrokerConfigs::standardAuthorizer);
    public static final ConfigKey SUPER_USERS = key(
            AuthorizerConfig.SUPER_USERS,
            STRING,
            "",
            "The principals allowed everything whatever the ACLs say, semicolon-separated: User:admin;User:ops.");
    public static final ConfigKey ALLOW_EVERYONE_IF_NO_ACL_FOUND = key(
            AuthorizerConfig.ALLOW_EVERYONE_IF_NO_ACL_FOUND,
            BOOLEAN,
            false,
            "Whether an action on a resource no ACL names is allowed; with false only super users may act on it.");
    public static final ConfigKey HEALTH_LISTEN_ADDR = key(
            HEALTH_LISTEN_ADDR_CONFIG,
            STRING,
            "127.0.0.1:9405",
            "Where the health endpoint listens, HOST:PORT: /healthz and /readyz over HTTP. Empty or none disables it.");

    /** Every key, in the order of the documentation. */
    public static final List<ConfigKey> ALL = List.of(
            NODE_ID,
            PROCESS_ROLES,
            LISTENERS,
            ADVERTISED_LISTENERS,
            CONTROLLER_LISTENER_NAMES,
            LISTENER_SECURITY_PROTOCOL_MAP,
            NUM_NETWORK_THREADS,
            NUM_IO_THREADS,
            BACKGROUND_THREADS,
            SOCKET_SEND_BUFFER_BYTES,
            SOCKET_RECEIVE_BUFFER_BYTES,
            SOCKET_REQUEST_MAX_BYTES,
            QUEUED_MAX_REQUESTS,
            QUEUED_MAX_REQUEST_BYTES,
            MAX_CONNECTIONS,
            CONNECTIONS_MAX_IDLE_MS,
            NUM_PARTITIONS,
            DEFAULT_REPLICATION_FACTOR,
            AUTO_CREATE_TOPICS_ENABLE,
            DELETE_TOPIC_ENABLE,
            OFFSETS_TOPIC_NUM_PARTITIONS,
            OFFSETS_TOPIC_REPLICATION_FACTOR,
            OFFSETS_TOPIC_SEGMENT_BYTES,
            OFFSETS_TOPIC_COMPRESSION_CODEC,
            OFFSETS_LOAD_BUFFER_SIZE,
            OFFSETS_RETENTION_MINUTES,
            OFFSETS_RETENTION_CHECK_INTERVAL_MS,
            OFFSETS_COMMIT_TIMEOUT_MS,
            OFFSET_METADATA_MAX_BYTES,
            GROUP_MIN_SESSION_TIMEOUT_MS,
            GROUP_MAX_SESSION_TIMEOUT_MS,
            GROUP_INITIAL_REBALANCE_DELAY_MS,
            GROUP_MAX_SIZE,
            MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS,
            FETCH_MAX_BYTES,
            METADATA_LOG_DIR,
            AUTHORIZER_CLASS_NAME,
            SUPER_USERS,
            ALLOW_EVERYONE_IF_NO_ACL_FOUND,
            HEALTH_LISTEN_ADDR);

    private BrokerConfigs() {}

    private static ConfigKey key(String name, ConfigType type, Object defaultValue, String documentation) {
        return ConfigKey.optional(name, type, defaultValue, documentation);
    }

    private static ConfigKey key(
            String name, ConfigType type, Object defaultValue, String documentation, ConfigValidator validator) {
        return ConfigKey.optional(name, type, defaultValue, documentation).withValidator(validator);
    }

    // Krabka's authorizer has the semantics of Kafka's StandardAuthorizer, the one class it takes the name of.
    private static void standardAuthorizer(String key, Object value) {
        String name = ((String) value).trim();
        if (!name.isEmpty() && !name.equals(AuthorizerConfig.STANDARD_AUTHORIZER)) {
            throw new BrokerConfigException(
                    key, name, "Krabka serves only " + AuthorizerConfig.STANDARD_AUTHORIZER + " (or empty for none)");
        }
    }

    // Kafka accepts broker, controller or both; Krabka runs one node that is both.
    private static void combinedRoles(String key, Object value) {
        List<?> roles = (List<?>) value;
        if (roles.size() != 2 || !roles.contains("broker") || !roles.contains("controller")) {
            throw new BrokerConfigException(
                    key,
                    String.join(",", roles.stream().map(String::valueOf).toList()),
                    "must be broker,controller: Krabka runs a single node that is its own controller");
        }
    }
}
