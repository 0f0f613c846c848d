package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.DiskFaults;
import io.krabka.kernel.log.LogDirFailureChannel;
import io.krabka.kernel.log.checkpoint.OffsetCheckpointFile;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each log directory's {@code cleaner-offset-checkpoint}, in Kafka's offset checkpoint format: for each compacted
 * partition, the offset up to which it is cleaned, where its next cleaning starts. Read once when the cleaner
 * starts (a file that cannot be read counts as empty: those logs are cleaned again from their start, which is
 * safe) and kept in memory; every change rewrites the directory's file whole, dropping the partitions the broker
 * no longer has. A write that fails on a faulty disk takes the directory offline.
 *
 * <p>Callers serialize changes (the cleaner manager's lock).
 */
final class CleanerCheckpoints {

    /** Kafka's name of the file in each log directory. */
    static final String OFFSET_CHECKPOINT_FILE = "cleaner-offset-checkpoint";

    private static final System.Logger LOG = System.getLogger(LogCleaner.class.getName());

    private final Map<Path, OffsetCheckpointFile> files = new ConcurrentHashMap<>();
    private final Map<Path, Map<TopicPartition, Long>> offsets = new ConcurrentHashMap<>();
    private final LogDirFailureChannel logDirFailureChannel;

    /** Reads the checkpoints of {@code logDirs} (absolute, normalized). */
    CleanerCheckpoints(List<Path> logDirs, LogDirFailureChannel logDirFailureChannel) {
        this.logDirFailureChannel = logDirFailureChannel;
        for (Path dir : logDirs) {
            OffsetCheckpointFile file = new OffsetCheckpointFile(dir.resolve(OFFSET_CHECKPOINT_FILE));
            files.put(dir, file);
            offsets.put(dir, new HashMap<>(read(file)));
        }
    }

    private static Map<TopicPartition, Long> read(OffsetCheckpointFile file) {
        try {
            return file.read();
        } catch (IOException e) {
            LOG.log(
                    System.Logger.Level.ERROR,
                    "Failed to access checkpoint file " + file.file() + "; cleaning its logs from their start",
                    e);
            return Map.of();
        }
    }

    /** Every checkpointed offset of the live directories. */
    Map<TopicPartition, Long> all() {
        Map<TopicPartition, Long> all = new HashMap<>();
        offsets.values().forEach(all::putAll);
        return all;
    }

    /**
     * Rewrites {@code dir}'s checkpoint: only the partitions in {@code live} are kept, {@code remove} is dropped,
     * then {@code update} set. Nothing for a directory that is offline.
     *
     * @param update the partition and offset to set, or null
     * @param remove the partition to drop, or null
     */
    void update(Path dir, Set<TopicPartition> live, Map.Entry<TopicPartition, Long> update, TopicPartition remove) {
        Map<TopicPartition, Long> current = offsets.get(dir);
        OffsetCheckpointFile file = files.get(dir);
        if (current == null || file == null) {
            return;
        }
        current.keySet().retainAll(live);
        if (remove != null) {
            current.remove(remove);
        }
        if (update != null) {
            current.put(update.getKey(), update.getValue());
        }
        try {
            file.write(new LinkedHashMap<>(current));
        } catch (IOException e) {
            String message = "Failed to write checkpoint file " + file.file();
            if (DiskFaults.takesLogDirOffline(e)) {
                logDirFailureChannel.maybeAddOfflineLogDir(dir, message, e);
            } else {
                LOG.log(System.Logger.Level.ERROR, message + "; it is written again after the next cleaning", e);
            }
        }
    }

    /** Forgets {@code dir}, which went offline: it is neither read nor written again. */
    void removeDir(Path dir) {
        files.remove(dir);
        offsets.remove(dir);
    }
}
