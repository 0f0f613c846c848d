package io.krabka.kernel.broker;

import static io.krabka.kernel.broker.BrokerConfigs.*;

import io.krabka.kernel.group.GroupConfigDefaults;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.network.Listener;
import io.krabka.kernel.network.SocketServerConfig;
import io.krabka.kernel.network.Transport;
import io.krabka.kernel.security.AuthorizerConfig;
import io.krabka.kernel.security.ListenerProps;
import io.krabka.kernel.security.ListenerSasl;
import io.krabka.kernel.security.ListenerTls;
import io.krabka.kernel.security.ScramCredentials;
import io.krabka.kernel.security.SecurityConfigException;
import io.krabka.kernel.security.SecurityConfigs;
import io.krabka.kernel.tiered.RemoteLogManagerConfig;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * The broker's settings, as Kafka's {@code KafkaConfig} reads {@code server.properties}: every key it knows parsed,
 * checked and turned into the settings records of the broker's parts ({@link #socketServerConfig()}, {@link
 * #logManagerConfig()}, {@link #logConfigDefaults()}), or read through an accessor. The first bad value stops it
 * with a {@link BrokerConfigException} naming the key; keys it does not know are kept, listed by {@link
 * #unknownKeys()}, for a warning as Kafka gives.
 */
public final class BrokerConfig {

    /** What names {@link #tieredStorageDir()} after the first log directory. */
    public static final String TIERED_STORAGE_DIR_SUFFIX = "-tiered";

    private final Map<String, String> originals;
    private final Map<String, Object> values = new HashMap<>();
    private final SortedSet<String> unknownKeys;
    private final LogManagerConfig logManagerConfig;
    private final RemoteLogManagerConfig remoteLogManagerConfig;
    private final GroupConfigDefaults groupConfigDefaults;
    private final LogConfig logConfigDefaults;
    private final Listeners listeners;
    private final Optional<InetSocketAddress> healthListenAddress;
    private final Optional<AuthorizerConfig> authorizerConfig;

    private BrokerConfig(Map<String, String> props) {
        this.originals = Map.copyOf(props);
        for (ConfigKey key : BrokerConfigs.ALL) {
            values.put(key.name(), parse(key, props.get(key.name())));
        }
        for (ConfigKey key : SecurityConfigs.KEYS) {
            values.put(key.name(), parse(key, props.get(key.name())));
        }
        this.logManagerConfig = wrap(() -> LogManagerConfig.fromProps(props));
        this.remoteLogManagerConfig = wrap(() -> RemoteLogManagerConfig.fromProps(props));
        this.groupConfigDefaults = wrap(() -> GroupConfigDefaults.fromProps(props));
        boolean tiering = logManagerConfig.remoteLogStorageSystemEnable();
        this.logConfigDefaults = wrap(() -> {
            LogConfig.validateBrokerDefaults(props, tiering);
            return LogConfig.fromProps(props, Map.of());
        });
        this.listeners = Listeners.of(
                string(LISTENERS),
                string(ADVERTISED_LISTENERS),
                list(CONTROLLER_LISTENER_NAMES),
                string(LISTENER_SECURITY_PROTOCOL_MAP),
                props.containsKey(LISTENER_SECURITY_PROTOCOL_MAP.name()),
                string(SecurityConfigs.INTER_BROKER_LISTENER_NAME),
                string(SecurityConfigs.SECURITY_INTER_BROKER_PROTOCOL),
                props.containsKey(SecurityConfigs.SECURITY_INTER_BROKER_PROTOCOL.name()));
        this.healthListenAddress = healthAddress(string(HEALTH_LISTEN_ADDR));
        try {
            this.authorizerConfig = AuthorizerConfig.of(props);
        } catch (IllegalArgumentException e) {
            throw BrokerConfigException.of(SUPER_USERS.name(), e.getMessage());
        }
        if (integer(GROUP_MIN_SESSION_TIMEOUT_MS) > integer(GROUP_MAX_SESSION_TIMEOUT_MS)) {
            throw new BrokerConfigException(
                    GROUP_MAX_SESSION_TIMEOUT_MS.name(),
                    integer(GROUP_MAX_SESSION_TIMEOUT_MS),
                    "must be at least group.min.session.timeout.ms (" + integer(GROUP_MIN_SESSION_TIMEOUT_MS) + ")");
        }
        this.unknownKeys = new TreeSet<>(props.keySet());
        unknownKeys.removeAll(knownKeys());
        // A plugin's settings are the plugin's to check, when it is configured.
        unknownKeys.removeIf(key -> key.startsWith(remoteLogManagerConfig.remoteStorageManagerPrefix())
                || key.startsWith(remoteLogManagerConfig.remoteLogMetadataManagerPrefix()));
        // A listener's own security settings: listener.name.<listener>.<key>, read with the listener's TLS and SASL.
        unknownKeys.removeIf(key -> listeners.brokers().stream()
                .anyMatch(listener -> key.startsWith(ListenerProps.prefix(listener.name()))));
    }

    /**
     * The settings in {@code props} (as {@code server.properties} holds them), Kafka's defaults for the rest.
     *
     * @throws BrokerConfigException naming the first key that is missing, of the wrong type or range, or at odds
     *                               with another
     */
    public static BrokerConfig fromProps(Map<String, String> props) {
        return new BrokerConfig(props);
    }

    /**
     * Every key a broker reads: its own, the log manager's, the remote log manager's, the transaction coordinator's,
     * the defaults and bounds of group configs and the broker defaults of topic settings.
     */
    public static SortedSet<String> knownKeys() {
        return new TreeSet<>(BrokerConfigKeys.ALL.keySet());
    }

    private static Object parse(ConfigKey key, String raw) {
        if (raw == null) {
            return key.defaultValue()
                    .orElseThrow(() -> BrokerConfigException.of(
                            key.name(),
                            "Missing required configuration \"" + key.name() + "\" which has no default value."));
        }
        try {
            Object value = key.type().parse(key.name(), raw);
            key.validator().ensureValid(key.name(), value);
            return value;
        } catch (BrokerConfigException e) {
            throw e;
        } catch (ConfigException e) {
            throw BrokerConfigException.of(key.name(), e.getMessage());
        }
    }

    // The log engine's checks throw the SPI's ConfigException, whose message names the key.
    private static <T> T wrap(java.util.function.Supplier<T> parse) {
        try {
            return parse.get();
        } catch (BrokerConfigException e) {
            throw e;
        } catch (ConfigException e) {
            throw BrokerConfigException.of(keyIn(e.getMessage()), e.getMessage());
        }
    }

    // The known key a message names, for BrokerConfigException.key(); the longest wins (log.retention.ms over log.dir).
    private static String keyIn(String message) {
        return knownKeys().stream()
                .filter(key -> message.contains(" " + key + ":") || message.contains(" " + key + " "))
                .max((a, b) -> Integer.compare(a.length(), b.length()))
                .orElse("");
    }

    private static Optional<InetSocketAddress> healthAddress(String text) {
        if (text.isEmpty() || text.equalsIgnoreCase("none")) {
            return Optional.empty();
        }
        return Optional.of(Endpoint.parseHostPort(HEALTH_LISTEN_ADDR_CONFIG, "HEALTH", text)
                .socketAddress());
    }

    /** The settings as given, unparsed: what topic settings resolve their broker defaults from. */
    public Map<String, String> originals() {
        return originals;
    }

    /** The keys given that no part of the broker reads, sorted. */
    public SortedSet<String> unknownKeys() {
        return new TreeSet<>(unknownKeys);
    }

    /** {@code node.id}. */
    public int nodeId() {
        return integer(NODE_ID);
    }

    /** {@code process.roles}: broker and controller. */
    public Set<String> processRoles() {
        return Set.copyOf(list(PROCESS_ROLES));
    }

    /** The broker's first listener, from {@code listeners}. */
    public Endpoint listener() {
        return listeners.brokers().getFirst().endpoint();
    }

    /** What clients are told of the first listener: {@code advertised.listeners}, else the listener itself. */
    public Endpoint advertisedListener() {
        return listeners.brokers().getFirst().advertised();
    }

    /** What clients are told of each broker listener, by listener name, in the order of {@code listeners}. */
    public Map<String, Endpoint> advertisedListeners() {
        Map<String, Endpoint> advertised = new LinkedHashMap<>();
        listeners.brokers().forEach(listener -> advertised.put(listener.name(), listener.advertised()));
        return advertised;
    }

    /** The inter-broker listener's name: {@code inter.broker.listener.name}, else {@code security.inter.broker.protocol}. */
    public String interBrokerListenerName() {
        return listeners.interBroker();
    }

    /**
     * The broker's listeners as the socket server binds them, with their TLS (the key and trust stores read now) and
     * SASL (the JAAS logins read now).
     *
     * @param scram where SASL/SCRAM reads the users' credentials
     * @throws BrokerConfigException naming the key at fault: a store that is missing or whose password is wrong, a
     *                               mechanism Krabka does not serve, a SASL mechanism without a JAAS login
     */
    public List<Listener> networkListeners(ScramCredentials scram) {
        List<Listener> bound = new ArrayList<>();
        for (Listeners.BrokerListener listener : listeners.brokers()) {
            SecurityProtocol protocol = listener.protocol();
            boolean tls = protocol == SecurityProtocol.SSL || protocol == SecurityProtocol.SASL_SSL;
            boolean sasl = protocol == SecurityProtocol.SASL_PLAINTEXT || protocol == SecurityProtocol.SASL_SSL;
            try {
                bound.add(new Listener(
                        listener.name(),
                        listener.endpoint().socketAddress(),
                        protocol,
                        tls ? Optional.of(tls(listener.name())) : Optional.empty(),
                        sasl
                                ? Optional.of(ListenerSasl.of(originals, listener.name(), protocol, scram))
                                : Optional.empty()));
            } catch (SecurityConfigException e) {
                throw BrokerConfigException.of(e.key(), e.key() + ": " + e.getMessage());
            }
        }
        return bound;
    }

    private ListenerTls tls(String listenerName) {
        try {
            return ListenerTls.of(originals, listenerName);
        } catch (KafkaException e) {
            String key = givenKey(listenerName, tlsKeyAtFault(e));
            throw BrokerConfigException.of(key, key + " of listener " + listenerName + ": " + causes(e));
        }
    }

    // The store a message of DefaultSslEngineFactory names, and whether its password was refused.
    private static String tlsKeyAtFault(KafkaException e) {
        String text = causes(e).toLowerCase(Locale.ROOT);
        boolean password = text.contains("password") || text.contains("mac");
        if (e instanceof org.apache.kafka.common.config.ConfigException config && text.contains("ssl.")) {
            return SecurityConfigs.KEYS.stream()
                    .map(key -> key.name())
                    .filter(name -> config.getMessage().contains(name))
                    .max((a, b) -> Integer.compare(a.length(), b.length()))
                    .orElse(SecurityConfigs.SSL_KEYSTORE_LOCATION.name());
        }
        if (text.contains("truststore") || text.contains("trust store")) {
            return password
                    ? SecurityConfigs.SSL_TRUSTSTORE_PASSWORD.name()
                    : SecurityConfigs.SSL_TRUSTSTORE_LOCATION.name();
        }
        if (text.contains("key password") || text.contains("recover key") || text.contains("ssl.key.password")) {
            return SecurityConfigs.SSL_KEY_PASSWORD.name();
        }
        return password ? SecurityConfigs.SSL_KEYSTORE_PASSWORD.name() : SecurityConfigs.SSL_KEYSTORE_LOCATION.name();
    }

    // A key as given: listener.name.<l>.<key> where the listener overrides it.
    private String givenKey(String listenerName, String key) {
        String prefixed = ListenerProps.prefix(listenerName) + key;
        return originals.containsKey(prefixed) ? prefixed : key;
    }

    private static String causes(Throwable e) {
        StringBuilder text = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            text.append(": ").append(cause.getMessage());
        }
        return text.toString();
    }

    /** The controller's listener among {@code listeners}, if one is named there. */
    public Optional<Endpoint> controllerListener() {
        return listeners.controller();
    }

    /** {@code krabka.health.listen.addr}: where the health endpoint listens; empty when it is disabled. */
    public Optional<InetSocketAddress> healthListenAddress() {
        return healthListenAddress;
    }

    /** {@code log.dirs}, else {@code log.dir}. */
    public List<Path> logDirs() {
        return logManagerConfig.logDirs();
    }

    /** {@code metadata.log.dir}, else the first log directory: where {@code __cluster_metadata-0} is. */
    public Path metadataLogDir() {
        String dir = string(METADATA_LOG_DIR);
        return dir.isEmpty() ? logDirs().getFirst() : Path.of(dir);
    }

    /**
     * Where tiered storage keeps its files on this node by default: {@code <first log directory>-tiered}, beside
     * the log directory and not in it, because Kafka's {@code LogManager} refuses to start on a log directory that
     * holds any directory but partitions', {@code __cluster_metadata-0} and {@code remote-log-index-cache}.
     *
     * @throws BrokerConfigException if the first log directory is a file system's root, which has no sibling
     */
    public Path tieredStorageDir() {
        Path first = logDirs().getFirst().toAbsolutePath().normalize();
        if (first.getFileName() == null) {
            throw new BrokerConfigException(
                    LogManagerConfig.LOG_DIRS.name(),
                    first,
                    "a file system root has no sibling for " + "tiered storage's files; use a directory below it");
        }
        return first.resolveSibling(first.getFileName() + TIERED_STORAGE_DIR_SUFFIX);
    }

    /** The log directories and the metadata log directory, each once: every directory that must be formatted. */
    public List<Path> allLogDirs() {
        return Stream.concat(logDirs().stream(), Stream.of(metadataLogDir()))
                .map(dir -> dir.toAbsolutePath().normalize())
                .distinct()
                .toList();
    }

    /** {@code num.io.threads}. */
    public int numIoThreads() {
        return integer(NUM_IO_THREADS);
    }

    /** {@code background.threads}: the scheduler's threads. */
    public int backgroundThreads() {
        return integer(BACKGROUND_THREADS);
    }

    /** {@code num.partitions}. */
    public int numPartitions() {
        return integer(NUM_PARTITIONS);
    }

    /** {@code default.replication.factor}. */
    public short defaultReplicationFactor() {
        return (short) Math.min(Short.MAX_VALUE, integer(DEFAULT_REPLICATION_FACTOR));
    }

    /**
     * The authorizer's settings ({@code authorizer.class.name}, {@code super.users}, {@code
     * allow.everyone.if.no.acl.found}); empty when no authorizer is configured.
     */
    public Optional<AuthorizerConfig> authorizerConfig() {
        return authorizerConfig;
    }

    /** {@code auto.create.topics.enable}. */
    public boolean autoCreateTopicsEnable() {
        return bool(AUTO_CREATE_TOPICS_ENABLE);
    }

    /** {@code delete.topic.enable}. */
    public boolean deleteTopicEnable() {
        return bool(DELETE_TOPIC_ENABLE);
    }

    /** {@code min.insync.replicas}: the broker default of topics. */
    public int minInSyncReplicas() {
        return logConfigDefaults.minInSyncReplicas();
    }

    /** {@code message.max.bytes}: the broker default of {@code max.message.bytes}. */
    public int messageMaxBytes() {
        return logConfigDefaults.maxMessageBytes();
    }

    /** {@code offsets.topic.num.partitions}. */
    public int offsetsTopicNumPartitions() {
        return integer(OFFSETS_TOPIC_NUM_PARTITIONS);
    }

    /** {@code offsets.topic.replication.factor}. */
    public short offsetsTopicReplicationFactor() {
        return (short) Math.min(Short.MAX_VALUE, integer(OFFSETS_TOPIC_REPLICATION_FACTOR));
    }

    /** {@code offsets.topic.segment.bytes}. */
    public int offsetsTopicSegmentBytes() {
        return integer(OFFSETS_TOPIC_SEGMENT_BYTES);
    }

    /** {@code offsets.topic.compression.codec}: Kafka's codec id. */
    public int offsetsTopicCompressionCodec() {
        return integer(OFFSETS_TOPIC_COMPRESSION_CODEC);
    }

    /** {@code offsets.load.buffer.size}. */
    public int offsetsLoadBufferSize() {
        return integer(OFFSETS_LOAD_BUFFER_SIZE);
    }

    /** {@code offsets.retention.minutes}, as a duration. */
    public Duration offsetsRetention() {
        return Duration.ofMinutes(integer(OFFSETS_RETENTION_MINUTES));
    }

    /** {@code offsets.retention.check.interval.ms}. */
    public long offsetsRetentionCheckIntervalMs() {
        return longValue(OFFSETS_RETENTION_CHECK_INTERVAL_MS);
    }

    /** {@code offsets.commit.timeout.ms}. */
    public int offsetsCommitTimeoutMs() {
        return integer(OFFSETS_COMMIT_TIMEOUT_MS);
    }

    /** {@code group.min.session.timeout.ms}. */
    public int groupMinSessionTimeoutMs() {
        return integer(GROUP_MIN_SESSION_TIMEOUT_MS);
    }

    /** {@code group.max.session.timeout.ms}. */
    public int groupMaxSessionTimeoutMs() {
        return integer(GROUP_MAX_SESSION_TIMEOUT_MS);
    }

    /** {@code group.initial.rebalance.delay.ms}. */
    public int groupInitialRebalanceDelayMs() {
        return integer(GROUP_INITIAL_REBALANCE_DELAY_MS);
    }

    /** {@code group.max.size}. */
    public int groupMaxSize() {
        return integer(GROUP_MAX_SIZE);
    }

    /** {@code max.incremental.fetch.session.cache.slots}. */
    public int maxIncrementalFetchSessionCacheSlots() {
        return integer(MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS);
    }

    /** {@code fetch.max.bytes}: the most bytes of one Fetch response. */
    public int fetchMaxBytes() {
        return integer(FETCH_MAX_BYTES);
    }

    /** {@code remote.log.storage.system.enable}. */
    public boolean remoteLogStorageSystemEnable() {
        return logManagerConfig.remoteLogStorageSystemEnable();
    }

    /** The tiered storage settings: {@code remote.log.*} and the remote log manager's. */
    public RemoteLogManagerConfig remoteLogManagerConfig() {
        return remoteLogManagerConfig;
    }

    /** The defaults and bounds of group configs: the {@code group.consumer.*}, {@code group.share.*} and
     * {@code group.streams.*} keys. */
    public GroupConfigDefaults groupConfigDefaults() {
        return groupConfigDefaults;
    }

    /** The socket server's settings: the broker listener's address, the {@code socket.*} and {@code queued.*} keys. */
    public SocketServerConfig socketServerConfig() {
        InetSocketAddress address = listener().socketAddress();
        SocketServerConfig defaults = SocketServerConfig.defaults(address);
        return new SocketServerConfig(
                address,
                Transport.NIO,
                integer(NUM_NETWORK_THREADS),
                integer(SOCKET_REQUEST_MAX_BYTES),
                integer(QUEUED_MAX_REQUESTS),
                longValue(QUEUED_MAX_REQUEST_BYTES),
                defaults.maxInFlightRequestsPerConnection(),
                defaults.maxQueuedResponseBytes(),
                Duration.ofMillis(longValue(CONNECTIONS_MAX_IDLE_MS)),
                integer(MAX_CONNECTIONS),
                defaults.shutdownTimeout(),
                integer(SOCKET_SEND_BUFFER_BYTES),
                integer(SOCKET_RECEIVE_BUFFER_BYTES));
    }

    /** The log manager's settings. */
    public LogManagerConfig logManagerConfig() {
        return logManagerConfig;
    }

    /** The topic settings of a topic that sets none: Kafka's defaults under the broker's {@code log.*} keys. */
    public LogConfig logConfigDefaults() {
        return logConfigDefaults;
    }

    /**
     * The settings of a topic with these overrides over the broker's defaults.
     *
     * @throws ConfigException naming the key, for an unknown topic setting or a bad value
     */
    public LogConfig topicLogConfig(Map<String, String> topicOverrides) {
        return LogConfig.fromProps(originals, topicOverrides);
    }

    private int integer(ConfigKey key) {
        return (Integer) values.get(key.name());
    }

    private long longValue(ConfigKey key) {
        return (Long) values.get(key.name());
    }

    private boolean bool(ConfigKey key) {
        return (Boolean) values.get(key.name());
    }

    private String string(ConfigKey key) {
        return (String) values.get(key.name());
    }

    private List<String> list(ConfigKey key) {
        return ((List<?>) values.get(key.name())).stream().map(String::valueOf).toList();
    }

    @Override
    public String toString() {
        return "BrokerConfig(node " + nodeId() + ", " + listener() + ", advertised " + advertisedListener() + ", "
                + logDirs() + ")";
    }
}
