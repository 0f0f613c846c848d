package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.record.RecordTooLargeException;
import java.io.IOException;
import java.io.SyncFailedException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.FileSystemException;
import org.junit.jupiter.api.Test;

/** Which failures a log directory lives through (a write refused for want of room) and which take it offline. */
class DiskFaultsTest {
    private static final IOException NO_SPACE = new IOException("No space left on device");
    private static final IOException EIO = new IOException("Input/output error");

    @Test
    void aWriteRefusedForWantOfRoomIsLivedThrough() {
        assertFalse(DiskFaults.takesLogDirOffline(NO_SPACE));
        assertFalse(DiskFaults.takesLogDirOffline(new IOException("Disk quota exceeded")));
        assertFalse(DiskFaults.takesLogDirOffline(
                new FileSystemException("/data/t-0/00.log", null, "No space left on device")));
        assertFalse(DiskFaults.takesLogDirOffline(new UncheckedIOException(NO_SPACE)), "an index's new page");
        assertTrue(DiskFaults.isOutOfSpace(new UncheckedIOException(NO_SPACE)));
    }

    @Test
    void everyOtherIoErrorTakesTheDirectoryOffline() {
        assertTrue(DiskFaults.takesLogDirOffline(EIO));
        assertTrue(DiskFaults.takesLogDirOffline(new UncheckedIOException(EIO)));
        assertTrue(DiskFaults.takesLogDirOffline(new IOException("Read-only file system")));
        assertFalse(DiskFaults.isOutOfSpace(EIO));
    }

    @Test
    void aFailedFsyncOrAFailedUndoTakesItOfflineEvenForWantOfRoom() {
        SyncFailedException fsync = new SyncFailedException("fsync of /data/t-0/00.log failed");
        fsync.initCause(NO_SPACE);
        assertTrue(DiskFaults.takesLogDirOffline(fsync));
        assertTrue(DiskFaults.takesLogDirOffline(new UncheckedIOException(fsync)));
        assertTrue(DiskFaults.takesLogDirOffline(new TornWriteException("torn", NO_SPACE, EIO)));
    }

    @Test
    void whatIsNoFaultOfTheDiskLeavesItOnline() {
        assertFalse(DiskFaults.takesLogDirOffline(new ClosedChannelException()), "a channel the broker closed");
        assertFalse(DiskFaults.takesLogDirOffline(new KafkaStorageException("the log is closed")));
        assertFalse(DiskFaults.takesLogDirOffline(new RecordTooLargeException("too large")));
        assertFalse(DiskFaults.takesLogDirOffline(new IllegalStateException("a bug")));
    }
}
