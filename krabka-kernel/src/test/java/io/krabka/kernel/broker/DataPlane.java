package io.krabka.kernel.broker;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.krabka.kernel.controller.TestController;
import io.krabka.kernel.fetch.FetchManager;
import io.krabka.kernel.fetch.FetchSessionCache;
import io.krabka.kernel.fetch.FetchSessionCacheConfig;
import io.krabka.kernel.log.KafkaScheduler;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.MetaPropertiesEnsemble;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.network.KafkaWire;
import io.krabka.kernel.network.Servers;
import io.krabka.kernel.network.SocketServer;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.kernel.replica.ReplicaManagerConfig;
import io.krabka.spi.common.Uuid;

/**
 * The data plane of a single node for the tests, over TCP: a formatted log directory, the log manager, the
 * replica manager following a {@link TestController} (the tests bump leader epochs, which the single-node
 * QuorumController cannot), and a socket server with the Produce, Fetch and ListOffsets handlers (plus Metadata and
 * a test InitProducerId handler for kafka-clients). {@link #restart} closes it all
 * cleanly (or then drops the clean-shutdown marker and the high watermark checkpoint, as a crash would) and opens
 * the same directory again. As a {@code @RegisterExtension} field ({@link #perTest}) it starts in a new directory
 * with one topic before each test and is closed, its directory deleted, after it.
 */
final class DataPlane implements AutoCloseable, BeforeEachCallback, AfterEachCallback {

    static final int NODE_ID = TestController.NODE_ID;
    private static final String CLUSTER_ID = "dataPlaneClusterIdAAAA";

    private final FetchSessionCacheConfig sessions;
    private final Topic topic;
    private Path tempDir;
    private Path logDir;
    private final AtomicReference<InetSocketAddress> address = new AtomicReference<>();
    TestController controller;
    KafkaScheduler scheduler;
    LogManager logManager;
    ReplicaManager replicaManager;
    FetchManager fetchManager;
    SocketServer server;

    /** The topic a per-test data plane creates before the test. */
    private record Topic(String name, int partitions, Map<String, String> configs) {
    }

    private DataPlane(FetchSessionCacheConfig sessions, Topic topic) {
        this.sessions = sessions;
        this.topic = topic;
    }

    /** A data plane for {@code @RegisterExtension}: started before each test with this topic, closed after it. */
    static DataPlane perTest(String topic, int partitions, Map<String, String> configs) {
        return new DataPlane(FetchSessionCacheConfig.DEFAULTS, new Topic(topic, partitions, Map.copyOf(configs)));
    }

    static DataPlane start(Path dir) throws Exception {
        return start(dir, FetchSessionCacheConfig.DEFAULTS);
    }

    static DataPlane start(Path dir, FetchSessionCacheConfig sessions) throws Exception {
        DataPlane plane = new DataPlane(sessions, null);
        plane.format(dir);
        plane.open(MetadataImage.EMPTY);
        return plane;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        tempDir = Files.createTempDirectory("data-plane-");
        format(tempDir);
        open(MetadataImage.EMPTY);
        controller.createTopic(topic.name(), topic.partitions(), topic.configs());
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

    private void format(Path dir) throws IOException {
        logDir = dir.resolve("data");
        MetaPropertiesEnsemble.format(List.of(logDir), CLUSTER_ID, NODE_ID);
    }

    private void open(MetadataImage image) throws Exception {
        controller = new TestController(image);
        scheduler = new KafkaScheduler(2, "data-plane-test-");
        logManager = new LogManager(LogManagerConfig.fromProps(Map.of("log.dirs", logDir.toString(),
                "node.id", String.valueOf(NODE_ID))), topic -> LogConfig.fromProps(Map.of(), image.topicConfig(topic)),
                scheduler, InstantSource.system());
        logManager.startup();
        replicaManager = new ReplicaManager(new ReplicaManagerConfig(NODE_ID, Map.of()), logManager, scheduler);
        controller.register(replicaManager);
        fetchManager = new FetchManager(new FetchSessionCache(sessions, InstantSource.system()));
        server = Servers.start(Servers.config(),
                new ProduceHandler(replicaManager, controller::image),
                new FetchHandler(FetchConfig.DEFAULTS, replicaManager, fetchManager, controller::image),
                new ListOffsetsHandler(replicaManager),
                new MetadataHandler(() -> new BrokerIdentity(NODE_ID, Servers.CLUSTER_ID, "127.0.0.1",
                        address.get().getPort(), Optional.empty()), new MetadataHandler.Config(false), controller),
                new TestInitProducerIdHandler());
        address.set(server.localAddress());
    }

    /** Closes everything and opens the same log directory with the same metadata. */
    void restart(boolean clean) throws Exception {
        MetadataImage image = controller.image();
        close();
        if (!clean) {
            // A crash: no clean-shutdown marker, and no high watermark checkpoint written since the last appends.
            Files.delete(logDir.resolve(".kafka_cleanshutdown"));
            Files.deleteIfExists(logDir.resolve("replication-offset-checkpoint"));
        }
        open(image);
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

    @Override
    public void close() throws IOException {
        replicaManager.close();
        server.close();
        logManager.close();
        try {
            scheduler.shutdown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping the scheduler", e);
        }
    }
}
