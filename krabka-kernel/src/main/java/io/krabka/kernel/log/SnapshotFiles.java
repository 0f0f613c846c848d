package io.krabka.kernel.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Stream;

/**
 * The producer state snapshot files of one log directory, by offset. Lookups are safe from any thread (the
 * remote log manager fetches snapshots while the log appends); changes come from the log, under its lock.
 */
final class SnapshotFiles {

    private static final System.Logger LOG = System.getLogger(SnapshotFiles.class.getName());

    private volatile Path dir;
    private volatile ConcurrentSkipListMap<Long, SnapshotFile> byOffset;

    /** The snapshot files of {@code dir}, after removing the temporary file of a write a crash interrupted. */
    SnapshotFiles(Path dir) throws IOException {
        this.dir = Objects.requireNonNull(dir, "dir");
        if (Files.isDirectory(dir)) {
            try (Stream<Path> list = Files.list(dir)) {
                for (Path file : list.filter(SnapshotFiles::isInterruptedWrite).toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
        this.byOffset = scan(dir);
    }

    private static boolean isInterruptedWrite(Path file) {
        return file.getFileName()
                .toString()
                .endsWith(LogFileUtils.PRODUCER_SNAPSHOT_FILE_SUFFIX + ProducerSnapshot.TEMP_SUFFIX);
    }

    /** Reads the directory again, forgetting what was known. */
    void reload() throws IOException {
        byOffset = scan(dir);
    }

    /**
     * The snapshot files in {@code dir}, by offset. A {@code .snapshot} file whose name is not an offset was not
     * written by Kafka and is left alone.
     */
    static ConcurrentSkipListMap<Long, SnapshotFile> scan(Path dir) throws IOException {
        ConcurrentSkipListMap<Long, SnapshotFile> found = new ConcurrentSkipListMap<>();
        if (!Files.isDirectory(dir)) {
            return found;
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.toList();
        }
        for (Path file : files) {
            String name = file.getFileName().toString();
            if (name.endsWith(LogFileUtils.PRODUCER_SNAPSHOT_FILE_SUFFIX) && Files.isRegularFile(file)) {
                try {
                    SnapshotFile snapshot = SnapshotFile.of(file);
                    found.put(snapshot.offset(), snapshot);
                } catch (IllegalArgumentException e) {
                    LOG.log(System.Logger.Level.WARNING, "Ignoring " + file + ": its name is not a snapshot offset");
                }
            }
        }
        return found;
    }

    Path dir() {
        return dir;
    }

    void add(SnapshotFile snapshot) {
        byOffset.put(snapshot.offset(), snapshot);
    }

    Optional<SnapshotFile> get(long offset) {
        return Optional.ofNullable(byOffset.get(offset));
    }

    Optional<SnapshotFile> latest() {
        return Optional.ofNullable(byOffset.lastEntry()).map(Map.Entry::getValue);
    }

    Optional<SnapshotFile> oldest() {
        return Optional.ofNullable(byOffset.firstEntry()).map(Map.Entry::getValue);
    }

    /** The snapshot files, by ascending offset; a copy. */
    List<SnapshotFile> all() {
        return new ArrayList<>(byOffset.values());
    }

    /** Forgets the snapshot at {@code offset} and deletes its file. */
    void removeAndDelete(long offset) throws IOException {
        SnapshotFile removed = byOffset.remove(offset);
        if (removed != null) {
            removed.deleteIfExists();
        }
    }

    /** Forgets and deletes the snapshots below {@code offset}. */
    void deleteBefore(long offset) throws IOException {
        for (SnapshotFile snapshot : new ArrayList<>(byOffset.headMap(offset).values())) {
            removeAndDelete(snapshot.offset());
        }
    }

    /** Forgets and deletes every snapshot. */
    void deleteAll() throws IOException {
        for (SnapshotFile snapshot : all()) {
            removeAndDelete(snapshot.offset());
        }
    }

    /**
     * Forgets the snapshot at {@code offset} and renames its file for deletion.
     *
     * @return the renamed file, or empty if there was none or it was deleted already
     */
    Optional<SnapshotFile> removeAndMarkForDeletion(long offset) throws IOException {
        SnapshotFile removed = byOffset.remove(offset);
        if (removed == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(removed.renameToDelete());
        } catch (NoSuchFileException e) {
            // Deleted already, by the short-lived producer state that recovery uses.
            LOG.log(System.Logger.Level.INFO, "Producer state snapshot " + removed.file() + " was deleted already");
            return Optional.empty();
        }
    }

    /**
     * Reads the directory again and deletes the snapshots that belong to no segment, keeping the largest such
     * snapshot if it is above every segment's base offset: a clean shutdown writes one at the log end.
     */
    void removeStray(Collection<Long> segmentBaseOffsets) throws IOException {
        ConcurrentSkipListMap<Long, SnapshotFile> scanned = scan(dir);
        Set<Long> baseOffsets = new HashSet<>(segmentBaseOffsets);
        List<SnapshotFile> strays = scanned.values().stream()
                .filter(s -> !baseOffsets.contains(s.offset()))
                .toList();
        long maxBaseOffset =
                segmentBaseOffsets.stream().mapToLong(Long::longValue).max().orElse(Long.MIN_VALUE);
        for (int n = 0; n < strays.size(); n++) {
            SnapshotFile stray = strays.get(n);
            boolean largestAboveSegments =
                    n == strays.size() - 1 && (segmentBaseOffsets.isEmpty() || stray.offset() >= maxBaseOffset);
            if (!largestAboveSegments) {
                scanned.remove(stray.offset());
                stray.deleteIfExists();
            }
        }
        byOffset = scanned;
    }

    /** Moves every file's path to {@code newDir}, after the log's directory was renamed. */
    void updateParentDir(Path newDir) {
        dir = Objects.requireNonNull(newDir, "newDir");
        byOffset.replaceAll((offset, snapshot) -> snapshot.withParentDir(newDir));
    }
}
