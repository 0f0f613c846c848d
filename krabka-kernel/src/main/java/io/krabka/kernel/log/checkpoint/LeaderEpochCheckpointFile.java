package io.krabka.kernel.log.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Kafka's {@code leader-epoch-checkpoint} in a partition's directory: version 0, then an {@code epoch startOffset}
 * line per leader epoch. The same text is what a remote segment carries as its leader-epoch index.
 */
public final class LeaderEpochCheckpointFile {

    /** The file's name in a partition directory. */
    public static final String LEADER_EPOCH_CHECKPOINT_FILENAME = "leader-epoch-checkpoint";

    /** The version Kafka writes and reads. */
    public static final int CURRENT_VERSION = 0;

    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    private static final Formatter FORMATTER = new Formatter();

    private final CheckpointFile<EpochEntry> checkpoint;

    /** The checkpoint at {@code file}. */
    public LeaderEpochCheckpointFile(Path file) {
        this.checkpoint = new CheckpointFile<>(file, CURRENT_VERSION, FORMATTER);
    }

    /** The checkpoint's path in a partition directory. */
    public static Path newFile(Path partitionDir) {
        return partitionDir.resolve(LEADER_EPOCH_CHECKPOINT_FILENAME);
    }

    /** The file. */
    public Path file() {
        return checkpoint.file();
    }

    /** Replaces the file's entries. */
    public void write(Collection<EpochEntry> epochs) throws IOException {
        checkpoint.write(epochs);
    }

    /**
     * The entries, in file order; none for a missing or empty file.
     *
     * @throws MalformedFileException naming the file and line
     */
    public List<EpochEntry> read() throws IOException {
        return checkpoint.read();
    }

    /** The checkpoint text of {@code epochs}, as bytes: a remote segment's leader-epoch index. */
    public static ByteBuffer toByteBuffer(Collection<EpochEntry> epochs) {
        return ByteBuffer.wrap(
                CheckpointFile.encode(CURRENT_VERSION, epochs, FORMATTER).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The entries of checkpoint text in bytes, from their position to their limit, which are left as they were.
     *
     * @param source what the bytes came from, for messages
     * @throws MalformedFileException naming the source and line
     */
    public static List<EpochEntry> fromByteBuffer(ByteBuffer bytes, String source) throws MalformedFileException {
        return CheckpointFile.decode(bytes, source, CURRENT_VERSION, FORMATTER);
    }

    private static final class Formatter implements CheckpointFile.EntryFormatter<EpochEntry> {

        @Override
        public String toString(EpochEntry entry) {
            return entry.epoch() + " " + entry.startOffset();
        }

        @Override
        public EpochEntry fromString(String line) {
            String[] fields = WHITESPACE.split(line);
            if (fields.length != 2) {
                throw new IllegalArgumentException("not 'epoch startOffset'");
            }
            try {
                return new EpochEntry(Integer.parseInt(fields[0]), Long.parseLong(fields[1]));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("epoch or start offset is not a number", e);
            }
        }
    }
}
