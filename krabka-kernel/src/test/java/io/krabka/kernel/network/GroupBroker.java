package io.krabka.kernel.network;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import io.krabka.kernel.broker.BrokerIdentity;
import io.krabka.kernel.broker.DeleteGroupsHandler;
import io.krabka.kernel.broker.DescribeGroupsHandler;
import io.krabka.kernel.broker.FindCoordinatorHandler;
import io.krabka.kernel.broker.HeartbeatHandler;
import io.krabka.kernel.broker.JoinGroupHandler;
import io.krabka.kernel.broker.LeaveGroupHandler;
import io.krabka.kernel.broker.ListGroupsHandler;
import io.krabka.kernel.broker.MetadataHandler;
import io.krabka.kernel.broker.OffsetCommitHandler;
import io.krabka.kernel.broker.OffsetFetchHandler;
import io.krabka.kernel.broker.SyncGroupHandler;
import io.krabka.kernel.controller.TestController;
import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.group.GroupCoordinatorConfig;
import io.krabka.kernel.group.TestReplicaManager;
import io.krabka.kernel.log.KafkaScheduler;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.MetaPropertiesEnsemble;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.metadata.MetadataImage;

/**
 * A broker of the group APIs for tests: a real log manager in a directory, the test controller, the coordinator
 * registered after the test replica manager, and a socket server with the ten group handlers (and the Metadata
 * handler, so that kafka-clients' Admin and KafkaConsumer find this node).
 */
final class GroupBroker {

    final TestController controller;
    final LogManager logManager;
    final GroupCoordinator coordinator;
    final SocketServer server;
    private final KafkaScheduler scheduler;

    private GroupBroker(TestController controller, LogManager logManager, KafkaScheduler scheduler,
            GroupCoordinator coordinator, SocketServer server) {
        this.controller = controller;
        this.logManager = logManager;
        this.scheduler = scheduler;
        this.coordinator = coordinator;
        this.server = server;
    }

    /** Starts on {@code dataDir} (formatted first if new) with the metadata {@code image}. */
    static GroupBroker start(Path dataDir, GroupCoordinatorConfig config, MetadataImage image)
            throws IOException, InterruptedException {
        if (!Files.exists(dataDir.resolve("meta.properties"))) {
            MetaPropertiesEnsemble.format(List.of(dataDir), Servers.CLUSTER_ID, Servers.NODE_ID);
        }
        KafkaScheduler scheduler = new KafkaScheduler(2, "group-broker-");
        TestController controller = new TestController(image);
        LogManager logs = new LogManager(LogManagerConfig.fromProps(Map.of("log.dirs", dataDir.toString(),
                "node.id", Integer.toString(Servers.NODE_ID))),
                topic -> LogConfig.fromProps(Map.of(), controller.image().topicConfig(topic)), scheduler,
                Clock.systemUTC());
        logs.startup();
        GroupCoordinator coordinator = new GroupCoordinator(Servers.NODE_ID, config, controller, logs, scheduler,
                Clock.systemUTC());
        coordinator.startup();
        controller.register(new TestReplicaManager(logs));
        controller.register(coordinator);
        AtomicReference<SocketServer> started = new AtomicReference<>();
        SocketServer server = Servers.start(Servers.config(),
                new FindCoordinatorHandler(coordinator, Servers.NODE_ID, () -> started.get().localAddress()),
                new JoinGroupHandler(coordinator), new SyncGroupHandler(coordinator),
                new HeartbeatHandler(coordinator), new LeaveGroupHandler(coordinator),
                new OffsetCommitHandler(coordinator, controller::image),
                new OffsetFetchHandler(coordinator, controller::image), new ListGroupsHandler(coordinator),
                new DescribeGroupsHandler(coordinator), new DeleteGroupsHandler(coordinator),
                new MetadataHandler(() -> new BrokerIdentity(Servers.NODE_ID, Servers.CLUSTER_ID, "127.0.0.1",
                        started.get().localAddress().getPort(), Optional.empty()), new MetadataHandler.Config(false),
                        controller));
        started.set(server);
        return new GroupBroker(controller, logs, scheduler, coordinator, server);
    }

    InetSocketAddress address() {
        return server.localAddress();
    }

    /** Stops the server, the coordinator, the logs (a clean shutdown) and the scheduler. */
    void close() throws IOException, InterruptedException {
        server.close();
        coordinator.close();
        logManager.close();
        scheduler.shutdown();
    }
}
