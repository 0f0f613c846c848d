package io.krabka.kernel.restore.metadata;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The operator's remote log metadata snapshot copied into a directory of its own, for the {@code inmemory} plugin
 * to load: the plugin journals beside its snapshot and rewrites it when closed, and the operator's file must stay
 * as it was. The journal beside the snapshot ({@code <snapshot>.journal}, the plugin's documented name) is copied
 * with it, so that a snapshot left by a broker that was killed is read with the changes made after it.
 */
final class PrivateSnapshotCopy implements AutoCloseable {
    private static final String NAME = "snapshot.json";
    private static final String JOURNAL_SUFFIX = ".journal";

    private final Path directory;

    private PrivateSnapshotCopy(Path directory) {
        this.directory = directory;
    }

    /** Copies {@code snapshot}, and its journal if there is one, into a new owner-only temporary directory. */
    static PrivateSnapshotCopy of(Path snapshot) throws IOException {
        PrivateSnapshotCopy copy = new PrivateSnapshotCopy(Files.createTempDirectory("krabka-rlmm-snapshot-"));
        try {
            Files.copy(snapshot, copy.snapshot());
            Path journal = snapshot.resolveSibling(snapshot.getFileName() + JOURNAL_SUFFIX);
            if (Files.exists(journal)) {
                Files.copy(journal, copy.directory.resolve(NAME + JOURNAL_SUFFIX));
            }
            return copy;
        } catch (IOException e) {
            copy.deleteAfter(e);
            throw e;
        }
    }

    /** The copy of the snapshot. */
    Path snapshot() {
        return directory.resolve(NAME);
    }

    /** Deletes the directory and whatever the plugin left in it. */
    @Override
    public void close() throws IOException {
        try (Stream<Path> walk = Files.walk(directory)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /** {@link #close}, after {@code failure}, which takes any failure to delete as suppressed. */
    void deleteAfter(Exception failure) {
        try {
            close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}
