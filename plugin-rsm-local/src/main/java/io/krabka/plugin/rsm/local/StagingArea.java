package io.krabka.plugin.rsm.local;

import io.krabka.spi.common.Uuid;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;

/**
 * Where copies are written before they are moved into the tier: {@code <dir>/krabka-rsm-staging/}, beside
 * {@code kafka-tiered-storage/} and so on the same file system (a move is then an atomic rename), but outside it,
 * so that neither Kafka's LocalTieredStorage nor this plugin ever lists a half-written file.
 *
 * <p>Several brokers may share one {@code dir}. Each instance therefore works in its own subdirectory and holds a
 * file lock on {@code owner.lock} in it for as long as it is open; a subdirectory whose lock nobody holds belongs
 * to an instance that is gone, and is deleted when another instance opens.
 *
 * <p>File locks belong to the process, and closing any channel on a locked file releases the process's lock on it
 * (observed on Linux). So this JVM never opens a second channel on a lock file it holds: it keeps the set of its
 * own lock files, and claims and sweeps under one monitor.
 */
final class StagingArea implements Closeable {
    /** The name of the staging root under {@code dir}. */
    static final String DIR_NAME = "krabka-rsm-staging";

    static final String LOCK_FILE = "owner.lock";
    private static final int CLAIM_ATTEMPTS = 10;
    private static final System.Logger LOG = System.getLogger(StagingArea.class.getName());

    /** The lock files this JVM holds; guarded by itself, as are all claims, sweeps and closes. */
    private static final Set<Path> HELD = new HashSet<>();

    private final Path directory;
    private final FileChannel lockChannel;

    private StagingArea(Path directory, FileChannel lockChannel) {
        this.directory = directory;
        this.lockChannel = lockChannel;
    }

    /** Deletes what dead instances left under {@code <dir>/krabka-rsm-staging/} and claims a directory there. */
    static StagingArea open(Path dir) throws IOException {
        // The real path, so that two spellings of one directory share the set of held lock files.
        Path root = Files.createDirectories(dir.resolve(DIR_NAME)).toRealPath();
        synchronized (HELD) {
            sweep(root);
            for (int attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
                Path mine = Files.createTempDirectory(root, "instance-");
                FileChannel channel = claim(mine.resolve(LOCK_FILE));
                if (channel != null) {
                    return new StagingArea(mine, channel);
                }
            }
        }
        throw new IOException(
                "could not claim a staging directory in " + root + " after " + CLAIM_ATTEMPTS + " attempts");
    }

    /** The channel holding the lock on a new lock file, or null if another process's sweep took the directory. */
    private static FileChannel claim(Path lockFile) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (NoSuchFileException sweptMeanwhile) {
            return null;
        }
        // Another process's sweep may have locked and deleted the file between its creation and our lock; it
        // deletes the file before releasing, so a lock on a file that still exists is ours.
        if (tryLock(channel) != null && Files.exists(lockFile)) {
            HELD.add(lockFile);
            return channel;
        }
        channel.close();
        return null;
    }

    /** A new empty directory for one copy attempt of a segment. */
    Path newAttempt(Uuid segmentId) throws IOException {
        return Files.createTempDirectory(directory, segmentId + "-");
    }

    /** Deletes an attempt's directory and whatever is left in it. */
    void discard(Path attempt) throws IOException {
        FileTrees.delete(attempt);
    }

    /** Deletes this instance's directory and releases its lock. */
    @Override
    public void close() throws IOException {
        synchronized (HELD) {
            try (lockChannel) {
                deleteOwnedDirectory(directory);
            } finally {
                HELD.remove(directory.resolve(LOCK_FILE));
            }
        }
    }

    /** Housekeeping: a directory that cannot be swept is reported and left for the next instance. */
    private static void sweep(Path root) throws IOException {
        try (DirectoryStream<Path> children = Files.newDirectoryStream(root, Files::isDirectory)) {
            for (Path child : children) {
                try {
                    sweepOne(child);
                } catch (IOException e) {
                    LOG.log(System.Logger.Level.WARNING, "could not delete the stale staging directory " + child, e);
                }
            }
        }
    }

    private static void sweepOne(Path child) throws IOException {
        Path lockFile = child.resolve(LOCK_FILE);
        if (HELD.contains(lockFile)) {
            return;
        }
        FileChannel channel;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.WRITE);
        } catch (NoSuchFileException noLock) {
            // Either an instance that died before taking its lock, or one taking it right now: an empty
            // directory can go either way, since the new instance then simply claims another.
            deleteIfEmpty(child);
            return;
        }
        try (channel) {
            if (tryLock(channel) != null) {
                deleteOwnedDirectory(child);
            }
        }
    }

    /** Deletes a directory whose lock the caller holds: the lock file last but one, the directory last. */
    private static void deleteOwnedDirectory(Path owned) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(owned)) {
            for (Path entry : entries) {
                if (!entry.getFileName().toString().equals(LOCK_FILE)) {
                    FileTrees.delete(entry);
                }
            }
        }
        Files.deleteIfExists(owned.resolve(LOCK_FILE));
        Files.deleteIfExists(owned);
    }

    private static void deleteIfEmpty(Path directory) throws IOException {
        try {
            Files.deleteIfExists(directory);
        } catch (DirectoryNotEmptyException inUse) {
            // Its owner created the lock file meanwhile.
        }
    }

    /** The lock, or null if another process or another channel of this JVM holds it. */
    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException heldInThisJvm) {
            return null;
        }
    }
}
