package io.krabka.kernel.log.checkpoint;

import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Kafka's {@code partition.metadata} in a partition's directory: {@code version: 0} and {@code topic_id: <id>}
 * lines, which tie the directory to its topic's id. Read as Kafka reads it: a version at or above 0 (a later
 * Kafka's file still opens) and a topic id that is not zero; lines after the second are not read.
 */
public final class PartitionMetadataFile {

    /** The file's name in a partition directory. */
    public static final String PARTITION_METADATA_FILE_NAME = "partition.metadata";

    /** The version Kafka writes. */
    public static final int CURRENT_VERSION = 0;

    private static final Pattern KEY_SEPARATOR = Pattern.compile(":\\s+");

    private final Path file;

    /** The file at {@code file}. */
    public PartitionMetadataFile(Path file) {
        this.file = file;
    }

    /** The file's path in a partition directory. */
    public static Path newFile(Path partitionDir) {
        return partitionDir.resolve(PARTITION_METADATA_FILE_NAME);
    }

    /** The file. */
    public Path file() {
        return file;
    }

    /** Writes the topic id, durably. */
    public synchronized void write(Uuid topicId) throws IOException {
        String text = new PartitionMetadata(CURRENT_VERSION, topicId).encode();
        AtomicFileWriter.write(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The file's content.
     *
     * @throws java.nio.file.NoSuchFileException if there is no file
     * @throws MalformedFileException            naming the file and line
     */
    public synchronized PartitionMetadata read() throws IOException {
        String source = file.toString();
        List<String> lines;
        try {
            lines = StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(Files.readAllBytes(file)))
                    .toString()
                    .lines()
                    .toList();
        } catch (CharacterCodingException e) {
            throw new MalformedFileException(source, "not UTF-8 text");
        }
        String version = value(lines, 0, "version", source);
        int readVersion;
        try {
            readVersion = Integer.parseInt(version);
        } catch (NumberFormatException e) {
            throw new MalformedFileException(source, 1, "version '" + version + "' is not a number");
        }
        if (readVersion < CURRENT_VERSION) {
            throw new MalformedFileException(source, 1, "unrecognized version " + readVersion);
        }
        String topicId = value(lines, 1, "topic_id", source);
        try {
            return new PartitionMetadata(readVersion, Uuid.fromString(topicId));
        } catch (IllegalArgumentException e) {
            throw new MalformedFileException(source, 2, e.getMessage());
        }
    }

    /** Whether the file exists. */
    public boolean exists() {
        return Files.exists(file);
    }

    /**
     * Deletes the file.
     *
     * @throws java.nio.file.NoSuchFileException if there is none
     */
    public void delete() throws IOException {
        Files.delete(file);
    }

    private static String value(List<String> lines, int n, String key, String source) throws MalformedFileException {
        if (n >= lines.size()) {
            throw new MalformedFileException(source, n + 1, "the " + key + " line is missing");
        }
        String[] parts = KEY_SEPARATOR.split(lines.get(n), 2);
        if (parts.length != 2 || !parts[0].equals(key)) {
            throw new MalformedFileException(source, n + 1, "not '" + key + ": <value>': '" + lines.get(n) + "'");
        }
        return parts[1];
    }

    @Override
    public String toString() {
        return "PartitionMetadataFile(path=" + file + ")";
    }
}
