package io.krabka.kernel.log;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/** The {@code .lock} files of log directories, locked so that no other broker uses them: Kafka's {@code FileLock}. */
final class LogDirLocks {

    /** The lock file's name in a log directory. */
    static final String LOCK_FILE_NAME = ".lock";

    private final List<FileChannel> channels;

    private LogDirLocks(List<FileChannel> channels) {
        this.channels = channels;
    }

    /**
     * Locks every directory's {@code .lock}, or none.
     *
     * @throws IOException if a directory is locked already, by this process or another
     */
    static LogDirLocks lock(List<Path> logDirs) throws IOException {
        List<FileChannel> channels = new ArrayList<>();
        try {
            for (Path dir : logDirs) {
                FileChannel channel = FileChannel.open(
                        dir.resolve(LOCK_FILE_NAME), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                channels.add(channel);
                FileLock lock;
                try {
                    lock = channel.tryLock();
                } catch (OverlappingFileLockException e) {
                    lock = null;
                }
                if (lock == null) {
                    throw new IOException("Failed to acquire lock on file .lock in " + dir + ". A Kafka instance in "
                            + "another process or thread is using this directory.");
                }
            }
            return new LogDirLocks(channels);
        } catch (IOException | RuntimeException e) {
            new LogDirLocks(channels).release();
            throw e;
        }
    }

    /** Releases the locks. */
    void release() {
        for (FileChannel channel : channels) {
            try {
                channel.close();
            } catch (IOException e) {
                System.getLogger(LogDirLocks.class.getName())
                        .log(System.Logger.Level.WARNING, "Could not release a log directory lock", e);
            }
        }
    }
}
