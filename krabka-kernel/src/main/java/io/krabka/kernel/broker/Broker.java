package io.krabka.kernel.broker;

import io.krabka.kernel.log.LogDirFailureChannel;
import io.krabka.kernel.log.LogDirWriteStates;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.MetaPropertiesEnsemble;
import io.krabka.kernel.log.MetaPropertiesException;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.metrics.MetricName;
import io.krabka.kernel.metrics.MetricsRegistry;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Listener;
import io.krabka.kernel.network.RequestDispatcher;
import io.krabka.kernel.network.SocketServer;
import io.krabka.kernel.scheduler.KafkaScheduler;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * A single-node broker (its own controller), Kafka's {@code KafkaRaftServer} in combined mode: its lifecycle.
 * {@link #start} checks the log directories are formatted for one cluster and this node, opens the health endpoint
 * (not ready), starts the services' controller, loads the logs, starts the listener with the services' handlers and
 * ApiVersions, and is then ready; its thread pools, logs and listener take their dynamic configs
 * ({@link DynamicBrokerConfig}) as they start and whenever they change. {@link #close} is ready no more, stops accepting and answers the requests in
 * flight, stops the services, and shuts the logs down cleanly (flushed, checkpointed, marked), so the next start
 * recovers nothing.
 *
 * <p>A log directory an I/O error took offline ({@link LogDirFailureChannel}) has its partitions taken out of
 * service by the services and its logs closed; when no log directory is left, or the metadata log's directory is the
 * one that failed, the broker shuts down by itself, as Kafka does, and {@link #logDirFailure()} says why.
 */
public final class Broker implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Broker.class.getName());

    /** Where a broker is in its life. */
    public enum State {
        /** Starting: not serving yet. */
        STARTING,
        /** Serving its listener. */
        SERVING,
        /** Shutting down: not accepting. */
        SHUTTING_DOWN,
        /** Stopped. */
        STOPPED
    }

    private final BrokerConfig config;
    private final String clusterId;
    private final BrokerServices services;
    private final List<AutoCloseable> started = new ArrayList<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final MetricsRegistry metrics = MetricsRegistry.jmx();
    private final LogDirFailureChannel logDirFailureChannel = new LogDirFailureChannel();
    private volatile Optional<String> logDirFailure = Optional.empty();
    private volatile State state = State.STARTING;
    private volatile boolean stoppedCleanly;
    private volatile Map<String, Endpoint> advertisedListeners = Map.of();
    private Optional<HealthServer> health = Optional.empty();
    private LogManager logManager;
    private SocketServer socketServer;
    private List<Listener> listeners = List.of();

    private Broker(BrokerConfig config, String clusterId, BrokerServices services) {
        this.config = config;
        this.clusterId = clusterId;
        this.services = services;
    }

    /**
     * Starts a broker; on failure, whatever had started is stopped again.
     *
     * @throws MetaPropertiesException if a log directory is not formatted, or they name another cluster or node
     * @throws IOException             if a log directory is locked or unreadable, or an address cannot be bound
     */
    public static Broker start(BrokerConfig config, BrokerServices services) throws IOException, InterruptedException {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(services, "services");
        long startNanos = System.nanoTime();
        if (!config.unknownKeys().isEmpty()) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "These configurations '" + config.unknownKeys()
                            + "' were supplied but are not known to Krabka; they are ignored.");
        }
        String clusterId = MetaPropertiesEnsemble.verify(config.allLogDirs(), config.nodeId());
        Broker broker = new Broker(config, clusterId, services);
        try {
            broker.startup(startNanos);
        } catch (IOException | InterruptedException | RuntimeException e) {
            broker.close();
            throw e;
        }
        return broker;
    }

    private void startup(long startNanos) throws IOException, InterruptedException {
        // Kafka's protocol classes (every message schema: a few hundred classes, the larger part of an empty
        // broker's start) load while the logs do.
        Thread.ofVirtual().name("krabka-protocol-classes").start(() -> ApiKeys.values());
        if (config.healthListenAddress().isPresent()) {
            InetSocketAddress address = config.healthListenAddress().get();
            HealthServer server;
            try {
                server = HealthServer.start(address, () -> state == State.SERVING, metrics::prometheusText);
            } catch (IOException e) {
                throw bindFailure("the health endpoint " + address.getHostString() + ":" + address.getPort(), e);
            }
            started.add(server);
            health = Optional.of(server);
        }
        KafkaScheduler scheduler = new KafkaScheduler(config.backgroundThreads(), "kafka-scheduler-");
        started.add(scheduler::shutdown);
        DynamicBrokerConfig dynamicConfig = new DynamicBrokerConfig(config);
        BrokerContext context = new BrokerContext(
                config,
                clusterId,
                scheduler,
                InstantSource.system(),
                this::advertisedListener,
                metrics,
                logDirFailureChannel,
                dynamicConfig);
        started.add(metrics);
        started.add(services);
        Function<String, LogConfig> topicConfigs = services.startBeforeLogs(context);
        logManager = new LogManager(
                config.logManagerConfig(), topicConfigs, scheduler, context.time(), logDirFailureChannel);
        dynamicConfig.addReconfigurable(new DynamicThreadPool(scheduler, logManager, config.numIoThreads()));
        dynamicConfig.addReconfigurable(new DynamicProducerStateManagerConfig(logManager));
        // Once the directories are locked, so that no other broker runs on them while their files move.
        TieredStorageDirMigration.migrate(config.logDirs().getFirst(), config.tieredStorageDir());
        // Shut down (and marked clean) only once every log loaded: a directory whose loading failed must be
        // recovered next time, as Kafka marks only directories whose logs all loaded. Until the process exits, the
        // directories stay locked.
        logManager.startup();
        dynamicConfig.addReconfigurable(new DynamicLogCleaner(logManager));
        for (Path logDir : config.logDirs()) {
            // Krabka's: Kafka tells usable bytes only through DescribeLogDirs (KIP-827).
            metrics.gauge(
                    MetricName.of("kafka.log", "LogManager", "LogDirectoryUsableBytes")
                            .tagged("logDirectory", logDir.toAbsolutePath().toString()),
                    () -> LogDirWriteStates.usableBytes(logDir));
        }
        metrics.gauge(
                MetricName.of("kafka.log", "LogManager", "OfflineLogDirectoryCount"),
                () -> logManager.logDirs().size() - logManager.liveLogDirs().size());
        logManager.cleaner().ifPresent(cleaner -> LogCleanerMetrics.register(metrics, cleaner, config.logDirs()));
        // The logs shut down after the services that write them (the coordinator, tiered storage), as Kafka's.
        started.add(started.indexOf(services), () -> logManager.shutdown(-1));
        List<ApiHandler> handlers = services.handlers(context, logManager);
        Thread failureHandler =
                Thread.ofPlatform().name("LogDirFailureHandler").daemon().start(this::handleLogDirFailures);
        started.add(failureHandler::interrupt);
        RequestDispatcher dispatcher = RequestDispatcher.create(
                handlers, table -> new ApiVersionsHandler(table, clusterId, config.nodeId(), services::features));
        List<Listener> listeners = config.networkListeners(services.scramCredentials());
        try {
            socketServer = SocketServer.start(config.socketServerConfig(), listeners, dispatcher);
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) { // Netty rethrows a failed bind's IOException undeclared
            throw e instanceof IOException io
                    ? bindFailure(
                            (listeners.size() == 1 ? "the listener " : "the listeners ")
                                    + String.join(
                                            ", ",
                                            listeners.stream()
                                                    .map(l -> l.name() + "://"
                                                            + l.address().getHostString() + ":"
                                                            + l.address().getPort())
                                                    .toList()),
                            io)
                    : new IOException(e);
        }
        started.add(socketServer);
        dynamicConfig.addReconfigurable(new DynamicSocketServerConfig(socketServer));
        Map<String, Endpoint> advertised = new LinkedHashMap<>();
        for (Map.Entry<String, Endpoint> listener : config.advertisedListeners().entrySet()) {
            advertised.put(
                    listener.getKey(),
                    advertised(
                            listener.getValue(), socketServer.localAddresses().get(listener.getKey())));
        }
        advertisedListeners = Map.copyOf(advertised);
        listeners.forEach(this::warnIfExposed);
        listeners.forEach(this::authenticationMetrics);
        this.listeners = List.copyOf(listeners);
        state = State.SERVING;
        LOG.log(
                System.Logger.Level.INFO,
                "Krabka node " + config.nodeId() + " of cluster " + clusterId
                        + " started in " + (System.nanoTime() - startNanos) / 1_000_000 + " ms: serves "
                        + socketServer.localAddresses() + ", advertised as " + advertised.values()
                        + health.map(h -> "; health on http://" + h.address().getHostString() + ":"
                                        + h.address().getPort())
                                .orElse(""));
    }

    // Kafka's LogDirFailureHandler: each directory reported offline, in turn, until the broker closes.
    private void handleLogDirFailures() {
        Path metadataLogDir = config.metadataLogDir().toAbsolutePath().normalize();
        try {
            while (true) {
                Path dir = logDirFailureChannel.takeNextOfflineLogDir();
                services.handleLogDirFailure(dir);
                logManager.handleLogDirFailure(dir);
                if (logManager.liveLogDirs().isEmpty()) {
                    stopOnLogDirFailure("all log dirs in " + logManager.logDirs() + " have failed");
                } else if (dir.equals(metadataLogDir)) {
                    stopOnLogDirFailure("the metadata log dir " + dir + " has failed");
                }
            }
        } catch (InterruptedException e) {
            // The broker is closing.
        }
    }

    private void stopOnLogDirFailure(String why) {
        String reason = "Shutdown broker because " + why;
        LOG.log(System.Logger.Level.ERROR, reason);
        logDirFailure = Optional.of(reason);
        Thread.ofPlatform().name("krabka-log-dir-failure-shutdown").start(this::close);
    }

    private static BindException bindFailure(String what, IOException cause) {
        BindException failure = new BindException("cannot listen on " + what + ": " + cause.getMessage());
        failure.initCause(cause);
        return failure;
    }

    // Kafka's counts of a listener's authentications (its socket-server-metrics, summed over network threads).
    private void authenticationMetrics(Listener listener) {
        listener.sasl().ifPresent(sasl -> {
            for (var count : Map.<String, java.util.function.LongSupplier>of(
                            "successful-authentication-total", sasl::authentications,
                            "successful-reauthentication-total", sasl::reauthentications,
                            "failed-authentication-total", sasl::failures)
                    .entrySet()) {
                metrics.gauge(
                        MetricName.of("kafka.server", "socket-server-metrics", count.getKey())
                                .tagged("listener", listener.name()),
                        count.getValue());
            }
        });
    }

    // Anyone who reaches a PLAINTEXT listener beyond this machine is served as ANONYMOUS; without an authorizer
    // that is everything.
    private void warnIfExposed(Listener listener) {
        if (listener.protocol() == SecurityProtocol.PLAINTEXT
                && !listener.address().getAddress().isLoopbackAddress()
                && config.authorizerConfig().isEmpty()) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Listener " + listener.name() + " is PLAINTEXT on " + listener.address() + ", beyond loopback, "
                            + "and no authorizer is set (authorizer.class.name): anyone who reaches it can read, "
                            + "write and delete every topic, group and config of this broker");
        }
        // Kafka's files make User:ANONYMOUS a super user for their controller listener; here it would be anyone
        // who reaches a broker listener that lets clients in without a name.
        boolean anonymousSuperUser = config.authorizerConfig()
                .map(authorizer -> authorizer.superUsers().contains(KafkaPrincipal.ANONYMOUS.toString()))
                .orElse(false);
        boolean admitsAnonymous = listener.protocol() == SecurityProtocol.PLAINTEXT
                || listener.tls()
                        .filter(tls -> listener.sasl().isEmpty())
                        .map(tls -> !tls.requiresClientCertificate())
                        .orElse(false);
        if (anonymousSuperUser && admitsAnonymous) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Listener " + listener.name() + " (" + listener.protocol() + ") serves clients that show no "
                            + "certificate or credentials as User:ANONYMOUS, and super.users names User:ANONYMOUS: "
                            + "every such client may do everything");
        }
    }

    // As Kafka: an empty host advertises the local host's name, port 0 the port bound.
    private static Endpoint advertised(Endpoint configured, InetSocketAddress bound) throws UnknownHostException {
        String host =
                configured.host().isEmpty() ? InetAddress.getLocalHost().getCanonicalHostName() : configured.host();
        return configured.at(host, configured.port() == 0 ? bound.getPort() : configured.port());
    }

    /** The cluster the log directories belong to. */
    public String clusterId() {
        return clusterId;
    }

    /** Where the broker is in its life. */
    public State state() {
        return state;
    }

    /** The address the first listener is bound to. */
    public InetSocketAddress listenAddress() {
        return socketServer.localAddress();
    }

    /** The listeners served, with their TLS and SASL. */
    public List<Listener> listeners() {
        return listeners;
    }

    /** The address each listener is bound to, by listener name. */
    public Map<String, InetSocketAddress> listenAddresses() {
        return socketServer.localAddresses();
    }

    /** What clients of the first listener are told of. */
    public Endpoint advertisedListener() {
        return advertisedListener(config.listener().name());
    }

    /**
     * What the clients of a listener are told of, by listener name; the inter-broker listener's for a name that is
     * none of the broker's.
     */
    public Endpoint advertisedListener(String listenerName) {
        Endpoint endpoint = advertisedListeners.get(listenerName);
        return endpoint != null ? endpoint : advertisedListeners.get(config.interBrokerListenerName());
    }

    /** The health endpoint's address, when it is enabled. */
    public Optional<InetSocketAddress> healthAddress() {
        return health.map(HealthServer::address);
    }

    /** The broker's metrics. */
    public MetricsRegistry metrics() {
        return metrics;
    }

    /** The broker's logs. */
    public LogManager logManager() {
        return logManager;
    }

    /**
     * Why the broker shut down by itself after log directories failed (none left, or the metadata log's); empty
     * if it did not.
     */
    public Optional<String> logDirFailure() {
        return logDirFailure;
    }

    /** Whether the broker has stopped and every step of its shutdown succeeded. */
    public boolean stoppedCleanly() {
        return state == State.STOPPED && stoppedCleanly;
    }

    /** Waits until the broker has stopped. */
    public void awaitShutdown() throws InterruptedException {
        stopped.await();
    }

    /**
     * Shuts down cleanly, in the reverse order of start-up: not ready, the listener stopped (requests in flight
     * answered), the services stopped, the logs shut down cleanly, the background threads and the health endpoint
     * stopped. A step that fails is logged and the others still run. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (state == State.STOPPED) {
            return;
        }
        state = State.SHUTTING_DOWN;
        LOG.log(System.Logger.Level.INFO, "Shutting down");
        boolean clean = true;
        for (AutoCloseable part : started.reversed()) {
            try {
                part.close();
            } catch (Exception e) {
                clean = false;
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                LOG.log(System.Logger.Level.ERROR, "Shutting down " + part + " failed", e);
            }
        }
        started.clear();
        stoppedCleanly = clean;
        state = State.STOPPED;
        // Logged before the waiters are released: the process may exit as soon as they are.
        LOG.log(
                clean ? System.Logger.Level.INFO : System.Logger.Level.WARNING,
                clean
                        ? "Shut down cleanly"
                        : "Shut down, with failures (logged above): the next start may recover logs");
        stopped.countDown();
    }
}
