package io.krabka.kernel.broker;

import io.krabka.kernel.log.Fsync;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Moves what earlier Krabka versions kept in the first log directory on their defaults (the {@code local} tier's
 * {@code kafka-tiered-storage/} and {@code krabka-rsm-staging/}, the {@code inmemory} metadata manager's
 * {@code remote-log-metadata/}) to the tiered-storage directory, where they are kept now: Kafka's
 * {@code LogManager} refuses to start on a log directory holding them. Each moves once, by a rename.
 */
final class TieredStorageDirMigration {

    /** The directories that move, as the plugins name them under their directory. */
    static final List<String> MOVED = List.of("kafka-tiered-storage", "krabka-rsm-staging", "remote-log-metadata");

    private static final System.Logger LOG = System.getLogger(TieredStorageDirMigration.class.getName());

    private TieredStorageDirMigration() {}

    /**
     * Moves each of {@link #MOVED} that {@code logDir} holds into {@code tieredDir}, creating it if needed.
     *
     * @throws IOException if one is in both places, or cannot be renamed (another file system: then by hand)
     */
    static void migrate(Path logDir, Path tieredDir) throws IOException {
        for (String name : MOVED) {
            Path old = logDir.resolve(name);
            if (!Files.isDirectory(old, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            Path target = tieredDir.resolve(name);
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException("Both " + old + " and " + target + " exist: Krabka keeps " + name + " in "
                        + tieredDir + " now; remove the one that is out of date");
            }
            Files.createDirectories(tieredDir);
            try {
                Files.move(old, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException(
                        "Cannot rename " + old + " to " + target + " (another file system?): move it "
                                + "there by hand; Kafka's LogManager refuses it in a log directory",
                        e);
            }
            Fsync.forceDirectory(tieredDir);
            Fsync.forceDirectory(logDir);
            LOG.log(
                    System.Logger.Level.INFO,
                    "Moved " + old + " to " + target + ": a log directory holds only what "
                            + "Kafka's LogManager accepts");
        }
    }
}
