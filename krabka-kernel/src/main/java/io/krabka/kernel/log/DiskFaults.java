package io.krabka.kernel.log;

import java.io.IOException;
import java.io.SyncFailedException;
import java.nio.channels.ClosedChannelException;
import java.util.List;

/**
 * Which failures of a log directory's files the broker lives through and which take the directory offline. A write
 * refused for want of room was undone (a segment append is all or nothing, the other files are replaced whole), so
 * nothing unknown is left and the next write is tried: the directory stays online. Every other I/O error takes it
 * offline, as Kafka takes it on any: a failed fsync (the kernel may have dropped the pages it could not write, so the
 * page cache no longer says what is on disk), an undo that failed too, EIO, a read-only remount. A failure that is
 * not an I/O error (a batch refused, a log closed by the broker) is no fault of the disk.
 */
public final class DiskFaults {

    // strerror(ENOSPC) and strerror(EDQUOT), which the JDK puts in its IOException messages on Linux.
    private static final List<String> OUT_OF_SPACE = List.of("No space left on device", "Disk quota exceeded");

    private DiskFaults() {}

    /** Whether {@code failure} leaves files of the log directory it happened in in a state not known. */
    public static boolean takesLogDirOffline(Throwable failure) {
        IOException io = null;
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SyncFailedException || t instanceof TornWriteException) {
                return true;
            }
            if (io == null && t instanceof IOException first) {
                io = first;
            }
        }
        if (io == null || io instanceof ClosedChannelException) {
            return false;
        }
        return !isOutOfSpace(io);
    }

    /** Whether {@code failure} is a write refused for want of room (ENOSPC, or a quota: EDQUOT). */
    public static boolean isOutOfSpace(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null && OUT_OF_SPACE.stream().anyMatch(message::contains)) {
                return true;
            }
        }
        return false;
    }
}
