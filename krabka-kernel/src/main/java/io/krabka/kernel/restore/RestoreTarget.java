package io.krabka.kernel.restore;

import io.krabka.kernel.format.InitialQuorum;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The node a restore writes: one log directory, which is also the metadata log directory, formatted as
 * {@code krabka format} would format it, with every restored partition led by {@code nodeId} as its sole replica.
 *
 * @param logDir                 the log directory, empty or absent
 * @param clusterId              the cluster id, in Kafka's form
 * @param nodeId                 the node's id
 * @param quorum                 how the controller quorum starts
 * @param controllerListenerName the controllers' listener name
 */
public record RestoreTarget(
        Path logDir, String clusterId, int nodeId, InitialQuorum quorum, String controllerListenerName) {

    /** Makes the path absolute and checks the values. */
    public RestoreTarget {
        logDir = logDir.toAbsolutePath().normalize();
        Objects.requireNonNull(clusterId, "clusterId");
        if (nodeId < 0) {
            throw new IllegalArgumentException("negative node id " + nodeId);
        }
        Objects.requireNonNull(quorum, "quorum");
        Objects.requireNonNull(controllerListenerName, "controllerListenerName");
    }
}
