package io.krabka.kernel.restore;

import io.krabka.kernel.restore.report.RestoreReport;
import io.krabka.spi.objectstore.ObjectStore;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;

/**
 * {@code krabka restore}'s driver: runs the five stages — discover, verify, bound, materialize, report — over an
 * archive read through an {@link ObjectStore}, while no broker runs, and writes a bootable log directory.
 */
public final class ArchiveRestore {
    private final Clock clock;

    /** A restore stamping the cluster metadata with {@code clock}'s time. */
    public ArchiveRestore(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Checks that {@code logDir} is absent or empty, before anything else happens: a restore never writes over a
     * directory, and one that holds anything is left untouched.
     *
     * @throws LogDirNotEmptyException if it holds anything or is not a directory
     * @throws MaterializeException    if it cannot be read
     */
    public static void checkTarget(Path logDir) throws LogDirNotEmptyException, MaterializeException {
        if (!Files.exists(logDir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isDirectory(logDir, LinkOption.NOFOLLOW_LINKS)) {
            throw new LogDirNotEmptyException(logDir);
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(logDir)) {
            for (Path entry : entries) {
                throw new LogDirNotEmptyException(logDir, entry.getFileName().toString());
            }
        } catch (IOException e) {
            throw new MaterializeException("cannot read the log directory " + logDir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Restores what {@code request} names from {@code store}.
     *
     * @throws RestoreException naming the first failure; nothing is left in the target that a broker would start on
     */
    public RestoreReport restore(ObjectStore store, RestoreRequest request, RestoreProgress progress)
            throws RestoreException {
        throw new UnsupportedOperationException("in progress");
    }
}
