package io.krabka.plugin.rsm.local;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Changes the tier: moves staged segments into place and deletes segments, in an order that never lets an
 * incomplete segment look complete. The {@code .log} is moved in last and deleted first, and its presence is
 * what a fetch checks with the other required files. The caller holds the partition's lock.
 */
final class TierWriter {
    private static final System.Logger LOG = System.getLogger(TierWriter.class.getName());
    private final Path root;
    private final FileSync sync;

    TierWriter(Path root, FileSync sync) {
        this.root = root;
        this.sync = sync;
    }

    /**
     * Moves staged files to their places in the tier, replacing what an earlier attempt with the same segment id
     * left there.
     *
     * @param staged every staged file by type; the transaction index may be absent
     */
    void publish(Map<SegmentFileType, Path> staged, SegmentFiles target) throws IOException {
        Path directory = target.directory();
        if (!Files.isDirectory(directory)) {
            Files.createDirectories(directory);
            sync.directory(root);
        }
        // A retry: the old segment stops being complete before any of its files is replaced.
        if (Files.deleteIfExists(target.path(SegmentFileType.SEGMENT))) {
            sync.directory(directory);
        }
        for (SegmentFileType type : SegmentFileType.values()) {
            if (type == SegmentFileType.SEGMENT) {
                continue;
            }
            Path from = staged.get(type);
            if (from == null) {
                Files.deleteIfExists(target.path(type));
            } else {
                move(from, target.path(type));
            }
        }
        sync.directory(directory);
        move(staged.get(SegmentFileType.SEGMENT), target.path(SegmentFileType.SEGMENT));
        sync.directory(directory);
    }

    /**
     * Deletes every file of a segment that exists, the {@code .log} first, and the partition directory if that
     * leaves it empty.
     */
    void delete(SegmentFiles target) throws IOException {
        boolean deleted = false;
        IOException failure = null;
        for (SegmentFileType type : SegmentFileType.values()) { // the .log first
            try {
                deleted |= Files.deleteIfExists(target.path(type));
            } catch (IOException e) {
                // Delete what can be deleted; a retry handles the rest.
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (deleted) {
            sync.directory(target.directory());
        }
        if (failure != null) {
            throw failure;
        }
        try {
            Files.delete(target.directory());
            sync.directory(root);
        } catch (DirectoryNotEmptyException | NoSuchFileException keep) {
            // Other segments live there, or it is already gone.
        }
    }

    /**
     * Deletes the whole tier, unless it holds a file that is not a partition directory: then, as Kafka's
     * LocalTieredStorage, it keeps everything for a look at what else wrote there.
     */
    void clear() throws IOException {
        if (!Files.isDirectory(root)) {
            return;
        }
        try (Stream<Path> children = Files.list(root)) {
            Optional<Path> stranger =
                    children.filter(child -> !Files.isDirectory(child)).findAny();
            if (stranger.isPresent()) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "delete.on.close: kept the tier " + root + ", which holds " + stranger.get()
                                + ", not a partition directory");
                return;
            }
        }
        FileTrees.delete(root);
        sync.directory(root.getParent());
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException(
                    "cannot rename " + from + " to " + to
                            + " atomically: the staging directory and the tier must be on the same file system",
                    e);
        }
    }
}
