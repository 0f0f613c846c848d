package io.krabka.kernel.replica;

import java.util.Map;

/**
 * The replica manager's settings.
 *
 * @param nodeId      {@code node.id}: this broker, the leader of the partitions it serves
 * @param brokerProps the broker's static settings ({@code server.properties}), whose {@code log.*} synonyms are
 *                    the defaults of every topic's settings; the cluster's dynamic broker configs override them
 */
public record ReplicaManagerConfig(int nodeId, Map<String, String> brokerProps) {

    /** Checks the node id and copies the settings. */
    public ReplicaManagerConfig {
        if (nodeId < 0) {
            throw new IllegalArgumentException("node.id must be at least 0: " + nodeId);
        }
        brokerProps = Map.copyOf(brokerProps);
    }
}
