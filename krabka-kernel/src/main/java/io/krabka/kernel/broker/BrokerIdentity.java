package io.krabka.kernel.broker;

import java.util.Objects;
import java.util.Optional;

/**
 * Who this broker is, as Metadata and DescribeCluster answers name it.
 *
 * @param nodeId    {@code node.id}: the broker and, on one node, the controller
 * @param clusterId the cluster id from {@code meta.properties}
 * @param host      the host of the client listener in {@code advertised.listeners}
 * @param port      its port
 * @param rack      {@code broker.rack}, if set
 */
public record BrokerIdentity(int nodeId, String clusterId, String host, int port, Optional<String> rack) {

    /** Checks the values. */
    public BrokerIdentity {
        if (nodeId < 0) {
            throw new IllegalArgumentException("node.id must not be negative: " + nodeId);
        }
        Objects.requireNonNull(clusterId, "clusterId");
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        Objects.requireNonNull(rack, "rack");
    }
}
