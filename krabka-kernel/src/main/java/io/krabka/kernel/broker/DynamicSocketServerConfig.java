package io.krabka.kernel.broker;

import io.krabka.kernel.network.SocketServer;
import java.util.Objects;
import java.util.Set;

/**
 * {@code max.connections} without a restart, as Kafka's socket server takes it: raised, the connections waiting are
 * served; lowered, those open stay and new ones wait.
 */
final class DynamicSocketServerConfig implements BrokerReconfigurable {

    private final SocketServer socketServer;

    DynamicSocketServerConfig(SocketServer socketServer) {
        this.socketServer = Objects.requireNonNull(socketServer, "socketServer");
    }

    @Override
    public Set<String> reconfigurableConfigs() {
        return Set.of(BrokerConfigs.MAX_CONNECTIONS.name());
    }

    @Override
    public void validateReconfiguration(BrokerConfig newConfig) {
        // The key's own check (at least 1) is the one Krabka needs.
    }

    @Override
    public void reconfigure(BrokerConfig oldConfig, BrokerConfig newConfig) {
        socketServer.setMaxConnections(newConfig.socketServerConfig().maxConnections());
    }

    @Override
    public String toString() {
        return "DynamicSocketServerConfig";
    }
}
