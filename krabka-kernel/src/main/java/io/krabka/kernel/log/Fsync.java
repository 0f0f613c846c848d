package io.krabka.kernel.log;

import java.io.IOException;
import java.io.SyncFailedException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * fsync, its failure typed as a {@link SyncFailedException} naming the file: after a failed fsync what the file holds
 * on disk is unknown, so the log directory goes offline ({@link DiskFaults}), where a write that failed and was
 * undone is lived through. A channel closed by the broker itself (a log deleted meanwhile) is not a failed fsync.
 */
public final class Fsync {

    private Fsync() {}

    /** Forces {@code channel}'s content and metadata to the storage device. */
    public static void force(FileChannel channel, Path file) throws IOException {
        try {
            channel.force(true);
        } catch (ClosedChannelException e) {
            throw e;
        } catch (IOException e) {
            throw failed(file, e);
        }
    }

    /** Forces the changed pages of {@code mapping}, a read-write mapping of {@code file}, to the storage device. */
    public static void force(MemorySegment mapping, Path file) {
        try {
            mapping.force();
        } catch (UncheckedIOException e) {
            throw new UncheckedIOException(failed(file, e.getCause()));
        }
    }

    /** Forces a directory's entries (a rename, a new file) to the storage device, as Kafka's {@code flushDir}. */
    public static void forceDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            force(channel, dir);
        }
    }

    private static SyncFailedException failed(Path file, IOException cause) {
        SyncFailedException failure = new SyncFailedException("fsync of " + file + " failed: " + cause.getMessage());
        failure.initCause(cause);
        return failure;
    }
}
