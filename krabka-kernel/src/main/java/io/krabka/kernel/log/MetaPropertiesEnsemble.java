package io.krabka.kernel.log;

import io.krabka.kernel.log.checkpoint.MetaProperties;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code meta.properties} of a broker's log directories, checked together as Kafka's
 * {@code MetaPropertiesEnsemble} does before it opens any log: each directory formatted, all for one cluster and
 * this node, each with its own directory id.
 */
public final class MetaPropertiesEnsemble {

    private MetaPropertiesEnsemble() {}

    /**
     * Formats the directories that have no {@code meta.properties} (creating them if missing) for
     * {@code clusterId} and {@code nodeId}, each with a new directory id, as {@code kafka-storage format} does;
     * then checks them all.
     *
     * @throws MetaPropertiesException if a formatted directory belongs to another cluster or node
     */
    public static void format(List<Path> logDirs, String clusterId, int nodeId) throws IOException {
        for (Path dir : logDirs) {
            Path file = dir.resolve(MetaProperties.META_PROPERTIES_FILE_NAME);
            if (!Files.exists(file)) {
                Files.createDirectories(dir);
                new MetaProperties(clusterId, nodeId, Optional.of(Uuid.randomUuid())).write(file);
            }
        }
        String found = verify(logDirs, nodeId);
        if (!found.equals(clusterId)) {
            throw new MetaPropertiesException("Cluster ID " + clusterId + " doesn't match the stored cluster ID "
                    + found + " in meta.properties of " + logDirs);
        }
    }

    /**
     * Checks the directories' {@code meta.properties}.
     *
     * @return the cluster id they share
     * @throws MetaPropertiesException if one has none, or they disagree on the cluster, name another node, or share
     *                                 a directory id
     * @throws io.krabka.kernel.log.checkpoint.MalformedFileException if one cannot be read
     */
    public static String verify(List<Path> logDirs, int nodeId) throws IOException {
        String clusterId = null;
        Map<Uuid, Path> directoryIds = new HashMap<>();
        for (Path dir : logDirs) {
            Path file = dir.resolve(MetaProperties.META_PROPERTIES_FILE_NAME);
            if (!Files.exists(file)) {
                throw new MetaPropertiesException("No `meta.properties` found in " + dir + " (have you run `krabka "
                        + "format` to format the directory?)");
            }
            MetaProperties props = MetaProperties.read(file);
            if (clusterId != null && !clusterId.equals(props.clusterId())) {
                throw new MetaPropertiesException("Invalid cluster.id in " + file + ". Expected " + clusterId
                        + ", but read " + props.clusterId());
            }
            clusterId = props.clusterId();
            if (props.nodeId() != nodeId) {
                throw new MetaPropertiesException("Stored node id " + props.nodeId() + " in " + file
                        + " doesn't match the configured node.id " + nodeId);
            }
            Optional<Uuid> directoryId = props.directoryId();
            if (directoryId.isPresent() && directoryIds.putIfAbsent(directoryId.get(), dir) != null) {
                throw new MetaPropertiesException("Duplicate directory ID " + directoryId.get() + " in " + dir + " and "
                        + directoryIds.get(directoryId.get()));
            }
        }
        if (clusterId == null) {
            throw new MetaPropertiesException("no log directory");
        }
        return clusterId;
    }
}
