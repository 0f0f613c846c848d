package io.krabka.kernel.broker;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

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

/**
 * The data plane of a single node for the tests, over TCP: a formatted log directory, the log manager, the
 * replica manager following a {@link TestController} (the tests bump leader epochs, which the single-node
 * QuorumController cannot), and a socket server with the Produce, Fetch and ListOffsets handlers (plus Metadata and
 * a test InitProducerId handler for kafka-clients). {@link #restart} closes it all
 * cleanly (or then drops the clean-shutdown marker and the high watermark checkpoint, as a crash would) and opens
 * the same directory again.
 */
final class DataPlane implements AutoCloseable {

    static final int NODE_ID = TestController.NODE_ID;
    private static final String CLUSTER_ID = "dataPlaneClusterIdAAAA";

    private final Path logDir;
    private final FetchSessionCacheConfig sessions;
    private final AtomicReference<InetSocketAddress> address = new AtomicReference<>();
    TestController controller;
    KafkaScheduler scheduler;
    LogManager logManager;
    ReplicaManager replicaManager;
    FetchManager fetchManager;
    SocketServer server;

    private DataPlane(Path logDir, FetchSessionCacheConfig sessions) {
        this.logDir = logDir;
        this.sessions = sessions;
    }

    static DataPlane start(Path dir) throws Exception {
        return start(dir, FetchSessionCacheConfig.DEFAULTS);
    }

    static DataPlane start(Path dir, FetchSessionCacheConfig sessions) throws Exception {
        Path logDir = dir.resolve("data");
        MetaPropertiesEnsemble.format(List.of(logDir), CLUSTER_ID, NODE_ID);
        DataPlane plane = new DataPlane(logDir, sessions);
        plane.open(MetadataImage.EMPTY);
        return plane;
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
