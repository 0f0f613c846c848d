package io.krabka.kernel.log.checkpoint;

import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * A log directory's {@code meta.properties}, version 1 (KRaft): the cluster and node it belongs to and its own
 * id. Written as Kafka writes it, by {@link Properties#store} with an empty comment (so a {@code #} line, then
 * the date line {@code store} adds) in UTF-8; read as Kafka reads it, by {@link Properties#load}; properties
 * Kafka does not define are ignored, as there.
 *
 * @param clusterId   the cluster's id, not empty
 * @param nodeId      the node's id, at least zero
 * @param directoryId the directory's id, which Kafka 3.7 and later write; files from before have none
 */
public record MetaProperties(String clusterId, int nodeId, Optional<Uuid> directoryId) {

    /** The file's name in a log directory. */
    public static final String META_PROPERTIES_FILE_NAME = "meta.properties";

    /** The version this reads and writes; version 0 is ZooKeeper's, which Kafka 4 no longer runs. */
    public static final int VERSION = 1;

    private static final String VERSION_PROP = "version";
    private static final String CLUSTER_ID_PROP = "cluster.id";
    private static final String NODE_ID_PROP = "node.id";
    private static final String DIRECTORY_ID_PROP = "directory.id";

    /** Validates the values. */
    public MetaProperties {
        Objects.requireNonNull(clusterId, "clusterId");
        if (clusterId.isEmpty()) {
            throw new IllegalArgumentException("empty cluster.id");
        }
        if (nodeId < 0) {
            throw new IllegalArgumentException("negative node.id " + nodeId);
        }
        Objects.requireNonNull(directoryId, "directoryId");
    }

    /**
     * Reads and validates a {@code meta.properties} file.
     *
     * @throws java.nio.file.NoSuchFileException if there is no file
     * @throws MalformedFileException            naming the file and the property that is missing or wrong
     */
    public static MetaProperties read(Path file) throws IOException {
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            props.load(in);
        } catch (IllegalArgumentException e) {
            throw new MalformedFileException(file.toString(), "not a properties file: " + e.getMessage());
        }
        return fromProperties(props, file.toString());
    }

    /** Writes the file, durably. */
    public void write(Path file) throws IOException {
        StringWriter text = new StringWriter();
        toProperties().store(text, "");
        AtomicFileWriter.write(file, text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The properties Kafka's {@code MetaProperties.toProperties} gives for the same values. */
    public Properties toProperties() {
        Properties props = new Properties();
        props.setProperty(VERSION_PROP, Integer.toString(VERSION));
        props.setProperty(CLUSTER_ID_PROP, clusterId);
        props.setProperty(NODE_ID_PROP, Integer.toString(nodeId));
        directoryId.ifPresent(id -> props.setProperty(DIRECTORY_ID_PROP, id.toString()));
        return props;
    }

    /**
     * The values of properties read from {@code source}.
     *
     * @throws MalformedFileException naming the source and the property that is missing or wrong
     */
    public static MetaProperties fromProperties(Properties props, String source) throws MalformedFileException {
        String version = props.getProperty(VERSION_PROP, "0");
        if (!version.equals(Integer.toString(VERSION))) {
            throw new MalformedFileException(
                    source, "version " + version + " is not supported; only version " + VERSION + " (KRaft) is");
        }
        String clusterId = required(props, CLUSTER_ID_PROP, source);
        int nodeId;
        try {
            nodeId = Integer.parseInt(required(props, NODE_ID_PROP, source));
        } catch (NumberFormatException e) {
            throw new MalformedFileException(
                    source, NODE_ID_PROP + " '" + props.getProperty(NODE_ID_PROP) + "' is not a base-10 number");
        }
        Optional<Uuid> directoryId;
        try {
            directoryId =
                    Optional.ofNullable(props.getProperty(DIRECTORY_ID_PROP)).map(Uuid::fromString);
        } catch (IllegalArgumentException e) {
            throw new MalformedFileException(source, DIRECTORY_ID_PROP + " is not a Uuid: " + e.getMessage());
        }
        try {
            return new MetaProperties(clusterId, nodeId, directoryId);
        } catch (IllegalArgumentException e) {
            throw new MalformedFileException(source, e.getMessage());
        }
    }

    private static String required(Properties props, String name, String source) throws MalformedFileException {
        String value = props.getProperty(name);
        if (value == null) {
            throw new MalformedFileException(source, name + " was not found");
        }
        return value;
    }
}
