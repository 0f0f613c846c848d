package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.controller.Controllers;
import io.krabka.kernel.controller.QuorumController;
import io.krabka.kernel.fetch.FetchManager;
import io.krabka.kernel.fetch.FetchSessionCache;
import io.krabka.kernel.fetch.FetchSessionCacheConfig;
import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.group.GroupCoordinatorConfig;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.MetaPropertiesEnsemble;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.PartitionRegistration;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.metrics.MetricsRegistry;
import io.krabka.kernel.network.KafkaWire;
import io.krabka.kernel.network.Servers;
import io.krabka.kernel.network.SocketServer;
import io.krabka.kernel.replica.Partition;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.kernel.replica.ReplicaManagerConfig;
import io.krabka.kernel.scheduler.KafkaScheduler;
import io.krabka.kernel.security.Authorizer;
import io.krabka.kernel.tiered.AsyncRemoteLogReader;
import io.krabka.kernel.tiered.RemoteFetchMetrics;
import io.krabka.kernel.tiered.RemoteReadConfig;
import io.krabka.kernel.tiered.RemoteTierFixture;
import io.krabka.kernel.transaction.ProducerIdManager;
import io.krabka.kernel.transaction.TransactionCoordinator;
import io.krabka.kernel.transaction.TransactionCoordinatorConfig;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopicConfig;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The data plane of a single node for the tests, over TCP: a real controller on {@code dir/metadata}, the log
 * manager on {@code dir/data}, the replica manager following the controller, the group and transaction coordinators,
 * and a socket server with the Produce, Fetch, ListOffsets, Metadata and InitProducerId handlers. {@link #restart} closes it all cleanly (or then drops
 * the clean-shutdown marker and the high watermark checkpoint, as a crash would) and opens the same directories
 * again. As a {@code @RegisterExtension} field ({@link #perTest}) it starts in a new directory with one topic before
 * each test and is closed, its directory deleted, after it.
 */
final class DataPlane implements AutoCloseable, BeforeEachCallback, AfterEachCallback {

    static final int NODE_ID = Controllers.NODE_ID;

    private final FetchSessionCacheConfig sessions;
    private final Topic topic;
    private final boolean tiered;
    private final AuthHelper auth;
    private RemoteTierFixture tier;
    private AsyncRemoteLogReader remoteReader;
    private Path tempDir;
    private Path logDir;
    private Controllers controllers;
    QuorumController controller;
    KafkaScheduler scheduler;
    LogManager logManager;
    ReplicaManager replicaManager;
    GroupCoordinator groups;
    TransactionCoordinator transactions;
    FetchManager fetchManager;
    SocketServer server;

    /** The topic a per-test data plane creates before the test. */
    private record Topic(String name, int partitions, Map<String, String> configs) {}

    private DataPlane(FetchSessionCacheConfig sessions, Topic topic, boolean tiered) {
        this(sessions, topic, tiered, AuthHelper.NONE);
    }

    private DataPlane(FetchSessionCacheConfig sessions, Topic topic, boolean tiered, AuthHelper auth) {
        this.sessions = sessions;
        this.topic = topic;
        this.tiered = tiered;
        this.auth = auth;
    }

    /** A data plane for {@code @RegisterExtension}: started before each test with this topic, closed after it. */
    static DataPlane perTest(String topic, int partitions, Map<String, String> configs) {
        return new DataPlane(
                FetchSessionCacheConfig.DEFAULTS, new Topic(topic, partitions, Map.copyOf(configs)), false);
    }

    /** A per-test data plane whose handlers ask {@code authorizer}. */
    static DataPlane perTestAuthorized(String topic, int partitions, Authorizer authorizer) {
        return new DataPlane(
                FetchSessionCacheConfig.DEFAULTS,
                new Topic(topic, partitions, Map.of()),
                false,
                new AuthHelper(Optional.of(authorizer)));
    }

    /**
     * A per-test data plane whose broker has a remote tier of the real {@code local} and {@code inmemory} plugins
     * ({@link #tier()}), read for the offsets below a tiered log's local start.
     */
    static DataPlane perTestTiered(String topic, int partitions, Map<String, String> configs) {
        return new DataPlane(FetchSessionCacheConfig.DEFAULTS, new Topic(topic, partitions, Map.copyOf(configs)), true);
    }

    static DataPlane start(Path dir, FetchSessionCacheConfig sessions) throws Exception {
        DataPlane plane = new DataPlane(sessions, null, false);
        plane.formatAndOpen(dir);
        return plane;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        tempDir = Files.createTempDirectory("data-plane-");
        formatAndOpen(tempDir);
        createTopic(topic.name(), topic.partitions(), topic.configs());
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        try {
            close();
        } finally {
            try (Stream<Path> paths = Files.walk(tempDir)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    private void formatAndOpen(Path dir) throws Exception {
        logDir = dir.resolve("data");
        MetaPropertiesEnsemble.format(List.of(logDir), Servers.CLUSTER_ID, NODE_ID);
        controllers = Controllers.formatAndStart(dir.resolve("metadata"), Map.of(), tiered);
        if (tiered) {
            tier = new RemoteTierFixture(dir.resolve("remote"));
        }
        open();
    }

    private void open() throws Exception {
        controller = controllers.controller();
        scheduler = new KafkaScheduler(2, "data-plane-test-");
        logManager = new LogManager(
                LogManagerConfig.fromProps(Map.of(
                        "log.dirs",
                        logDir.toString(),
                        "node.id",
                        String.valueOf(NODE_ID),
                        "remote.log.storage.system.enable",
                        String.valueOf(tiered))),
                topic -> LogConfig.fromProps(Map.of(), controller.image().topicConfig(topic)),
                scheduler,
                InstantSource.system());
        logManager.startup();
        remoteReader = tiered
                ? new AsyncRemoteLogReader(
                        tier.reader(),
                        RemoteReadConfig.DEFAULTS,
                        new RemoteFetchMetrics(MetricsRegistry.unpublished()),
                        InstantSource.system())
                : null;
        replicaManager = new ReplicaManager(
                new ReplicaManagerConfig(NODE_ID, Map.of()), logManager, scheduler, Optional.ofNullable(remoteReader));
        controller.register(replicaManager);
        groups = new GroupCoordinator(
                NODE_ID, GroupCoordinatorConfig.DEFAULTS, controller, logManager, scheduler, InstantSource.system());
        controller.register(groups);
        transactions = new TransactionCoordinator(
                NODE_ID,
                TransactionCoordinatorConfig.DEFAULTS,
                controller,
                logManager,
                replicaManager,
                groups,
                new ProducerIdManager(controller, NODE_ID),
                scheduler,
                InstantSource.system());
        controller.register(transactions);
        fetchManager = new FetchManager(new FetchSessionCache(sessions, InstantSource.system()));
        server = Servers.start(
                Servers.config(),
                new ProduceHandler(auth, replicaManager, controller::image, transactions),
                new FetchHandler(auth, FetchConfig.DEFAULTS, replicaManager, fetchManager, controller::image),
                new ListOffsetsHandler(auth, replicaManager),
                new DeleteRecordsHandler(auth, replicaManager),
                new OffsetForLeaderEpochHandler(auth, replicaManager),
                new MetadataHandler(
                        auth,
                        listener -> new BrokerIdentity(
                                NODE_ID,
                                Servers.CLUSTER_ID,
                                "127.0.0.1",
                                server.localAddress().getPort(),
                                Optional.empty()),
                        new MetadataHandler.Config(false),
                        controller),
                new InitProducerIdHandler(auth, transactions));
    }

    /** Creates a topic through the controller, and returns it. */
    TopicImage createTopic(String name, int partitions, Map<String, String> configs) {
        CreatableTopic created =
                new CreatableTopic().setName(name).setNumPartitions(partitions).setReplicationFactor((short) 1);
        configs.forEach((key, value) ->
                created.configs().add(new CreatableTopicConfig().setName(key).setValue(value)));
        CreateTopicsRequestData request = new CreateTopicsRequestData();
        request.topics().add(created);
        assertEquals(
                Errors.NONE.code(),
                controller.createTopics(request).join().topics().find(name).errorCode(),
                name + " created");
        return controller.image().topic(name).orElseThrow();
    }

    /** Deletes a topic through the controller. */
    void deleteTopic(String name) {
        assertEquals(
                Errors.NONE.code(),
                controller
                        .deleteTopics(new DeleteTopicsRequestData().setTopicNames(List.of(name)))
                        .join()
                        .responses()
                        .find(name)
                        .errorCode(),
                name + " deleted");
    }

    /**
     * A new leader epoch (one above the last) for every partition of the topic, as a leader change gives: a single-node controller never
     * changes leaders, so the replica manager is handed the image that change would publish.
     */
    void bumpLeaderEpoch(String name) {
        MetadataImage current = controller.image();
        TopicImage topic = current.topic(name).orElseThrow();
        Map<Integer, PartitionRegistration> partitions = new TreeMap<>();
        // The replica manager's epoch, not the image's: each call bumps the last.
        topic.partitions().forEach((index, p) -> {
            int epoch = replicaManager
                    .partition(new TopicPartition(name, index))
                    .map(Partition::leaderEpoch)
                    .orElse(p.leaderEpoch());
            partitions.put(
                    index,
                    new PartitionRegistration(p.replicas(), p.isr(), p.leader(), epoch + 1, p.partitionEpoch() + 1));
        });
        Map<String, TopicImage> topics = new TreeMap<>(current.topics());
        topics.put(name, TopicImage.of(name, topic.id(), partitions));
        replicaManager.onMetadataUpdate(
                current,
                new MetadataImage(
                        current.offset() + 1,
                        current.features(),
                        topics,
                        current.topicConfigs(),
                        current.brokerConfigs(),
                        current.perBrokerConfigs(),
                        current.groupConfigs(),
                        current.nextProducerId()));
    }

    /** Closes everything and opens the same directories: the controller finds its topics on disk. */
    void restart(boolean clean) throws Exception {
        closeDataPlane();
        if (!clean) {
            // A crash: no clean-shutdown marker, and no high watermark checkpoint written since the last appends.
            Files.delete(logDir.resolve(".kafka_cleanshutdown"));
            Files.deleteIfExists(logDir.resolve("replication-offset-checkpoint"));
        }
        controllers.restart();
        open();
    }

    /** The id of a topic that exists. */
    Uuid topicId(String name) {
        return controller.image().topic(name).orElseThrow().id();
    }

    InetSocketAddress address() {
        return server.localAddress();
    }

    String bootstrap() {
        return "127.0.0.1:" + server.localAddress().getPort();
    }

    KafkaWire connect() throws IOException {
        return KafkaWire.connect(server.localAddress());
    }

    /** The remote tier of a tiered data plane. */
    RemoteTierFixture tier() {
        return Objects.requireNonNull(tier, "not a tiered data plane");
    }

    @Override
    public void close() throws IOException {
        try {
            closeDataPlane();
        } finally {
            try {
                if (tier != null) {
                    tier.close();
                }
            } finally {
                controllers.close();
            }
        }
    }

    private void closeDataPlane() throws IOException {
        transactions.close();
        groups.close();
        replicaManager.close();
        server.close();
        if (remoteReader != null) {
            remoteReader.close();
        }
        logManager.close();
        try {
            scheduler.shutdown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping the scheduler", e);
        }
    }
}
