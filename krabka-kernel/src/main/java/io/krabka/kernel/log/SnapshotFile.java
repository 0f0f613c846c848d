package io.krabka.kernel.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;

/**
 * A producer state snapshot file, named {@code <20-digit offset>.snapshot}: the producer state of its log up to,
 * not including, that offset. Kafka's name.
 *
 * @param file   the file
 * @param offset the offset its name states
 */
public record SnapshotFile(Path file, long offset) {

    /** Validates the offset. */
    public SnapshotFile {
        Objects.requireNonNull(file, "file");
        if (offset < 0) {
            throw new IllegalArgumentException("negative snapshot offset " + offset);
        }
    }

    /**
     * The snapshot file at {@code file}, its offset read from its name.
     *
     * @throws IllegalArgumentException if the name does not start with an offset
     */
    public static SnapshotFile of(Path file) {
        return new SnapshotFile(
                file, LogFileUtils.offsetFromFileName(file.getFileName().toString()));
    }

    /** Deletes the file; whether it existed. */
    public boolean deleteIfExists() throws IOException {
        return Files.deleteIfExists(file);
    }

    /**
     * Renames the file with {@link LogFileUtils#DELETED_FILE_SUFFIX}, for the log's delayed deletion.
     *
     * @return the renamed file
     * @throws java.nio.file.NoSuchFileException if the file is gone
     */
    public SnapshotFile renameToDelete() throws IOException {
        Path deleted = file.resolveSibling(file.getFileName() + LogFileUtils.DELETED_FILE_SUFFIX);
        Files.move(file, deleted, StandardCopyOption.ATOMIC_MOVE);
        return new SnapshotFile(deleted, offset);
    }

    /** The same file in another directory, after the log's directory was renamed. */
    SnapshotFile withParentDir(Path dir) {
        return new SnapshotFile(dir.resolve(file.getFileName()), offset);
    }
}
