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
    private final IOException noSpace = new IOException("No space left on device");
    private final IOException eio = new IOException("Input/output error");

    @Test
    void aWriteRefusedForWantOfRoomIsLivedThrough() {
        assertFalse(DiskFaults.takesLogDirOffline(noSpace));
        assertFalse(DiskFaults.takesLogDirOffline(new IOException("Disk quota exceeded")));
        assertFalse(DiskFaults.takesLogDirOffline(
                new FileSystemException("/data/t-0/00.log", null, "No space left on device")));
        assertFalse(DiskFaults.takesLogDirOffline(new UncheckedIOException(noSpace)), "an index's new page");
        assertTrue(DiskFaults.isOutOfSpace(new UncheckedIOException(noSpace)));
    }

    @Test
    void everyOtherIoErrorTakesTheDirectoryOffline() {
        assertTrue(DiskFaults.takesLogDirOffline(eio));
        assertTrue(DiskFaults.takesLogDirOffline(new UncheckedIOException(eio)));
        assertTrue(DiskFaults.takesLogDirOffline(new IOException("Read-only file system")));
        assertFalse(DiskFaults.isOutOfSpace(eio));
    }

    @Test
    void aFailedFsyncOrAFailedUndoTakesItOfflineEvenForWantOfRoom() {
        SyncFailedException fsync = new SyncFailedException("fsync of /data/t-0/00.log failed");
        fsync.initCause(noSpace);
        assertTrue(DiskFaults.takesLogDirOffline(fsync));
        assertTrue(DiskFaults.takesLogDirOffline(new UncheckedIOException(fsync)));
        assertTrue(DiskFaults.takesLogDirOffline(new TornWriteException("torn", noSpace, eio)));
    }

    @Test
    void whatIsNoFaultOfTheDiskLeavesItOnline() {
        assertFalse(DiskFaults.takesLogDirOffline(new ClosedChannelException()), "a channel the broker closed");
        assertFalse(DiskFaults.takesLogDirOffline(new KafkaStorageException("the log is closed")));
        assertFalse(DiskFaults.takesLogDirOffline(new RecordTooLargeException("too large")));
        assertFalse(DiskFaults.takesLogDirOffline(new IllegalStateException("a bug")));
    }
}
