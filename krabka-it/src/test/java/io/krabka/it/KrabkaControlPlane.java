package io.krabka.it;

import io.krabka.kernel.broker.AlterConfigsHandler;
import io.krabka.kernel.broker.ApiFeatures;
import io.krabka.kernel.broker.ApiVersionsHandler;
import io.krabka.kernel.broker.AuthHelper;
import io.krabka.kernel.broker.BrokerIdentity;
import io.krabka.kernel.broker.CreatePartitionsHandler;
import io.krabka.kernel.broker.CreateTopicsHandler;
import io.krabka.kernel.broker.DeleteTopicsHandler;
import io.krabka.kernel.broker.DescribeClusterHandler;
import io.krabka.kernel.broker.DescribeConfigsHandler;
import io.krabka.kernel.broker.IncrementalAlterConfigsHandler;
import io.krabka.kernel.broker.MetadataHandler;
import io.krabka.kernel.controller.ControllerConfig;
import io.krabka.kernel.controller.QuorumController;
import io.krabka.kernel.format.FormatSpec;
import io.krabka.kernel.format.Formatter;
import io.krabka.kernel.format.InitialQuorum;
import io.krabka.kernel.group.GroupConfigDefaults;
import io.krabka.kernel.group.GroupConfigs;
import io.krabka.kernel.log.LogDirFailureChannel;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.RequestDispatcher;
import io.krabka.kernel.network.SocketServer;
import io.krabka.kernel.network.SocketServerConfig;
import io.krabka.kernel.scheduler.KafkaScheduler;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Krabka's control plane in this process: a directory formatted by Krabka's formatter, the controller on it, and
 * a socket server on 127.0.0.1 with the control-plane handlers and ApiVersions, as the broker will wire them.
 */
final class KrabkaControlPlane implements AutoCloseable {

    private static final int NODE_ID = 1;

    private final KafkaScheduler scheduler;
    private final QuorumController controller;
    private final SocketServer server;

    private KrabkaControlPlane(KafkaScheduler scheduler, QuorumController controller, SocketServer server) {
        this.scheduler = scheduler;
        this.controller = controller;
        this.server = server;
    }

    /** Formats {@code dir} and starts the control plane with {@code serverProperties} as its static config. */
    static KrabkaControlPlane start(Path dir, Map<String, String> serverProperties) throws Exception {
        String clusterId = Uuid.randomUuid().toString();
        Uuid directoryId = Uuid.randomUuid();
        new Formatter(Clock.systemUTC())
                .format(new FormatSpec(
                        List.of(dir),
                        dir,
                        clusterId,
                        NODE_ID,
                        Optional.of(directoryId),
                        Optional.empty(),
                        List.of(),
                        new InitialQuorum.Standalone("127.0.0.1", 9093),
                        "CONTROLLER",
                        false));
        KafkaScheduler scheduler = new KafkaScheduler(1, "krabka-control-plane-");
        QuorumController controller = QuorumController.start(
                new ControllerConfig(
                        NODE_ID,
                        dir,
                        directoryId,
                        Integer.parseInt(serverProperties.getOrDefault("num.partitions", "1")),
                        (short) 1,
                        false,
                        serverProperties),
                scheduler,
                Clock.systemUTC(),
                new LogDirFailureChannel());
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        BrokerIdentity identity = new BrokerIdentity(NODE_ID, clusterId, "127.0.0.1", port, Optional.empty());
        List<ApiHandler> handlers = List.of(
                new MetadataHandler(
                        AuthHelper.NONE, listener -> identity, new MetadataHandler.Config(true), controller),
                new DescribeClusterHandler(AuthHelper.NONE, listener -> identity),
                new CreateTopicsHandler(AuthHelper.NONE, controller),
                new DeleteTopicsHandler(AuthHelper.NONE, new DeleteTopicsHandler.Config(true), controller),
                new CreatePartitionsHandler(AuthHelper.NONE, controller),
                new DescribeConfigsHandler(
                        AuthHelper.NONE,
                        new DescribeConfigsHandler.Config(NODE_ID, serverProperties),
                        controller,
                        new GroupConfigs(GroupConfigDefaults.fromProps(serverProperties))),
                new AlterConfigsHandler(AuthHelper.NONE, controller),
                new IncrementalAlterConfigsHandler(AuthHelper.NONE, controller));
        SocketServer server = SocketServer.start(
                SocketServerConfig.defaults(new InetSocketAddress("127.0.0.1", port)),
                RequestDispatcher.create(
                        handlers, table -> new ApiVersionsHandler(table, clusterId, NODE_ID, () -> ApiFeatures.NONE)));
        return new KrabkaControlPlane(scheduler, controller, server);
    }

    /** {@code host:port} of the listener. */
    String bootstrapServers() {
        return "127.0.0.1:" + server.localAddress().getPort();
    }

    @Override
    public void close() throws IOException {
        try {
            server.close();
            controller.close();
        } finally {
            try {
                scheduler.shutdown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
