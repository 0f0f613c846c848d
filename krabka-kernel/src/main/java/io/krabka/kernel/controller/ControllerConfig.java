package io.krabka.kernel.controller;

import io.krabka.spi.common.Uuid;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * The controller's settings, with Kafka's key names.
 *
 * @param nodeId                        {@code node.id}: the one broker, replica and leader of every partition
 * @param metadataLogDir                {@code metadata.log.dir} (by default the first of {@code log.dirs}): where
 *                                      {@code __cluster_metadata-0} and the bootstrap checkpoint are
 * @param defaultDirectory              the {@code directory.id} of the only log directory, recorded for each new
 *                                      replica as Kafka records it; {@link Uuid#ZERO_UUID} (Kafka's UNASSIGNED) with
 *                                      several log directories
 * @param numPartitions                 {@code num.partitions}: the partition count of a topic created without one
 * @param defaultReplicationFactor      {@code default.replication.factor}: the replication factor of a topic created
 *                                      without one
 * @param remoteLogStorageSystemEnabled {@code remote.log.storage.system.enable}: whether topics may tier
 * @param staticBrokerConfigs           the broker's {@code server.properties}: the broker-wide defaults of the
 *                                      topic configs ({@code log.retention.ms}, ...) that new topic configs are
 *                                      checked against
 */
public record ControllerConfig(
        int nodeId,
        Path metadataLogDir,
        Uuid defaultDirectory,
        int numPartitions,
        short defaultReplicationFactor,
        boolean remoteLogStorageSystemEnabled,
        Map<String, String> staticBrokerConfigs) {

    /** Checks the values. */
    public ControllerConfig {
        if (nodeId < 0) {
            throw new IllegalArgumentException("node.id must not be negative: " + nodeId);
        }
        Objects.requireNonNull(metadataLogDir, "metadataLogDir");
        Objects.requireNonNull(defaultDirectory, "defaultDirectory");
        if (numPartitions < 1) {
            throw new IllegalArgumentException("num.partitions must be at least 1: " + numPartitions);
        }
        if (defaultReplicationFactor < 1) {
            throw new IllegalArgumentException(
                    "default.replication.factor must be at least 1: " + defaultReplicationFactor);
        }
        staticBrokerConfigs = Map.copyOf(staticBrokerConfigs);
    }
}
