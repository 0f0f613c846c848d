package io.krabka.kernel.log.checkpoint;

import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Kafka's offset checkpoint, one per log directory: version 0, then a {@code topic partition offset} line per
 * partition. The recovery points, log start offsets and high watermarks of a directory's partitions are kept in
 * files of this form.
 */
public final class OffsetCheckpointFile {

    /** The version Kafka writes and reads. */
    public static final int CURRENT_VERSION = 0;

    /** Up to where each partition's log is flushed, so recovery starts there: Kafka's {@code LogManager}. */
    public static final String RECOVERY_POINT_CHECKPOINT_FILE = "recovery-point-offset-checkpoint";

    /** Each partition's log start offset, where it is above its first segment's base: Kafka's {@code LogManager}. */
    public static final String LOG_START_OFFSET_CHECKPOINT_FILE = "log-start-offset-checkpoint";

    /** Each partition's high watermark: Kafka's {@code ReplicaManager}. */
    public static final String REPLICATION_OFFSET_CHECKPOINT_FILE = "replication-offset-checkpoint";

    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private final CheckpointFile<TopicPartitionOffset> checkpoint;

    /** The checkpoint at {@code file}, for example {@code <log dir>/recovery-point-offset-checkpoint}. */
    public OffsetCheckpointFile(Path file) {
        this.checkpoint = new CheckpointFile<>(file, CURRENT_VERSION, new Formatter());
    }

    /** The file. */
    public Path file() {
        return checkpoint.file();
    }

    /** Replaces the file's offsets with {@code offsets}, written in the map's order. */
    public void write(Map<TopicPartition, Long> offsets) throws IOException {
        List<TopicPartitionOffset> entries = new ArrayList<>(offsets.size());
        offsets.forEach((partition, offset) -> entries.add(new TopicPartitionOffset(partition, offset)));
        checkpoint.write(entries);
    }

    /**
     * The offsets, in file order; none for a missing or empty file.
     *
     * @throws MalformedFileException naming the file and line of a malformed or repeated entry
     */
    public Map<TopicPartition, Long> read() throws IOException {
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        List<TopicPartitionOffset> entries = checkpoint.read();
        for (int n = 0; n < entries.size(); n++) {
            TopicPartitionOffset entry = entries.get(n);
            if (offsets.putIfAbsent(entry.partition(), entry.offset()) != null) {
                throw new MalformedFileException(file().toString(), n + 3, "a second entry for " + entry.partition());
            }
        }
        return Collections.unmodifiableMap(offsets);
    }

    private record TopicPartitionOffset(TopicPartition partition, long offset) {}

    private static final class Formatter implements CheckpointFile.EntryFormatter<TopicPartitionOffset> {

        @Override
        public String toString(TopicPartitionOffset entry) {
            return entry.partition().topic() + " " + entry.partition().partition() + " " + entry.offset();
        }

        // Split as Kafka does: a leading blank makes an empty first field, so the line is malformed there too.
        @Override
        public TopicPartitionOffset fromString(String line) {
            String[] fields = WHITESPACE.split(line);
            if (fields.length != 3) {
                throw new IllegalArgumentException("not 'topic partition offset'");
            }
            try {
                return new TopicPartitionOffset(
                        new TopicPartition(fields[0], Integer.parseInt(fields[1])), Long.parseLong(fields[2]));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("partition or offset is not a number", e);
            }
        }
    }
}
