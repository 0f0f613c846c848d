package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controllers;
import io.krabka.kernel.controller.QuorumController;
import io.krabka.kernel.format.FormatException;
import io.krabka.kernel.group.GroupConfigDefaults;
import io.krabka.kernel.group.GroupConfigs;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.RequestDispatcher;
import io.krabka.kernel.network.SocketServer;
import io.krabka.kernel.network.SocketServerConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The control plane over TCP for the tests: a controller on a formatted directory and a socket server on
 * 127.0.0.1 with the control-plane handlers and ApiVersions.
 */
public final class ControlPlane implements AutoCloseable {

    /** The cluster id the tests' directories are formatted with. */
    public static final String CLUSTER_ID = "kUtTVxF2S8GcqgGq3ymNbA";

    private final Controllers controllers;
    private final SocketServer server;

    private ControlPlane(Controllers controllers, SocketServer server) {
        this.controllers = controllers;
        this.server = server;
    }

    /**
     * Formats {@code dir}, starts the controller and the server.
     *
     * @param staticBrokerConfigs the broker's {@code server.properties}
     * @param autoCreateTopics    {@code auto.create.topics.enable}
     */
    public static ControlPlane start(Path dir, Map<String, String> staticBrokerConfigs, boolean autoCreateTopics)
            throws IOException, FormatException, InterruptedException {
        return start(dir, staticBrokerConfigs, autoCreateTopics, AuthHelper.NONE);
    }

    /** As {@link #start(Path, Map, boolean)}, the handlers asking {@code auth}. */
    public static ControlPlane start(
            Path dir, Map<String, String> staticBrokerConfigs, boolean autoCreateTopics, AuthHelper auth)
            throws IOException, FormatException, InterruptedException {
        Controllers controllers = Controllers.formatAndStart(dir, staticBrokerConfigs);
        try {
            int port = freePort();
            QuorumController controller = controllers.controller();
            BrokerIdentity identity =
                    new BrokerIdentity(Controllers.NODE_ID, CLUSTER_ID, "127.0.0.1", port, Optional.empty());
            List<ApiHandler> handlers = List.of(
                    new MetadataHandler(
                            auth, listener -> identity, new MetadataHandler.Config(autoCreateTopics), controller),
                    new DescribeClusterHandler(auth, listener -> identity),
                    new CreateTopicsHandler(auth, controller),
                    new DeleteTopicsHandler(auth, new DeleteTopicsHandler.Config(true), controller),
                    new CreatePartitionsHandler(auth, controller),
                    new DescribeConfigsHandler(
                            auth,
                            new DescribeConfigsHandler.Config(Controllers.NODE_ID, staticBrokerConfigs),
                            controller,
                            new GroupConfigs(GroupConfigDefaults.fromProps(staticBrokerConfigs))),
                    new AlterConfigsHandler(auth, controller),
                    new IncrementalAlterConfigsHandler(auth, controller));
            SocketServer server = SocketServer.start(
                    SocketServerConfig.defaults(new InetSocketAddress("127.0.0.1", port)),
                    RequestDispatcher.create(
                            handlers,
                            table -> new ApiVersionsHandler(
                                    table, CLUSTER_ID, Controllers.NODE_ID, () -> ApiFeatures.NONE)));
            return new ControlPlane(controllers, server);
        } catch (IOException | RuntimeException | InterruptedException e) {
            controllers.close();
            throw e;
        }
    }

    /** {@code host:port} of the listener. */
    public String bootstrapServers() {
        return "127.0.0.1:" + server.localAddress().getPort();
    }

    /** The running controller. */
    public QuorumController controller() {
        return controllers.controller();
    }

    @Override
    public void close() throws IOException {
        try {
            server.close();
        } finally {
            controllers.close();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
