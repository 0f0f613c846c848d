package io.krabka.kernel.network;

import io.krabka.kernel.broker.ApiFeatures;
import io.krabka.kernel.broker.ApiVersionsHandler;
import java.net.InetSocketAddress;
import java.util.List;

/** Socket servers for the tests: on 127.0.0.1, any free port, with the ApiVersions handler and the given ones. */
public final class Servers {

    public static final String CLUSTER_ID = "krabka-test-cluster";
    public static final int NODE_ID = 1;

    private Servers() {}

    public static SocketServerConfig config() {
        return SocketServerConfig.defaults(new InetSocketAddress("127.0.0.1", 0));
    }

    public static SocketServer start(SocketServerConfig config, ApiHandler... handlers) throws InterruptedException {
        return SocketServer.start(config, dispatcher(handlers));
    }

    public static RequestDispatcher dispatcher(ApiHandler... handlers) {
        return RequestDispatcher.create(
                List.of(handlers), table -> new ApiVersionsHandler(table, CLUSTER_ID, NODE_ID, () -> ApiFeatures.NONE));
    }
}
