package io.krabka.kernel.log;

import static io.krabka.kernel.log.TestBatches.T0;
import static io.krabka.kernel.log.TestBatches.batch;
import static io.krabka.kernel.log.TestBatches.bytes;
import static io.krabka.kernel.log.TestBatches.concat;
import static io.krabka.kernel.log.TestBatches.records;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.record.RecordBatch;
import io.krabka.testservers.SmallFileSystem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment on a real full disk, a small tmpfs: an append that cannot be written leaves the segment exactly as it
 * was (file, size, indexes), so the same offsets are appended again once there is room, and nothing torn is left
 * for a later append to land behind or for recovery to cut.
 */
class LogSegmentFullDiskTest {
    private static final long DISK_BYTES = 256 * 1024;

    @TempDir
    Path dir;

    private final TestTime time = new TestTime();
    private SmallFileSystem disk;
    private LogSegment segment;

    @BeforeEach
    void mount() {
        disk = SmallFileSystem.mount(dir.resolve("disk"), DISK_BYTES);
    }

    @AfterEach
    void unmount() throws IOException {
        if (segment != null) {
            segment.close();
        }
        disk.close();
    }

    private static void append(LogSegment segment, ByteBuffer batch) throws IOException {
        segment.append(RecordBatch.at(batch, 0, "test", 0).lastOffset(), records(batch));
    }

    @Test
    void aRecordsWriteThatFindsNoRoomLeavesTheSegmentAsItWas() throws Exception {
        segment = LogSegment.open(disk.root(), 0, new SegmentConfig(1000, 1, 0), time, 0, false);
        ByteBuffer first = batch(0, 10, T0);
        append(segment, first);
        append(segment, batch(10, 10, T0 + 10));
        int size = segment.size();
        int entries = segment.offsetIndex().entries();
        disk.fill();

        // Far more than a page: some of it is written before the disk says no.
        ByteBuffer large = batch(20, 2000, T0 + 20);
        IOException full = assertThrows(IOException.class, () -> append(segment, large));

        assertTrue(full.getMessage().contains("No space left"), full.toString());
        assertEquals(size, segment.size());
        assertEquals(size, Files.size(segment.log().file()), "the torn bytes are cut off");
        assertEquals(entries, segment.offsetIndex().entries());
        assertEquals(20, segment.readNextOffset());

        disk.free();
        append(segment, large);
        assertEquals(2020, segment.readNextOffset());
        segment.close();
        segment = LogSegment.open(disk.root(), 0, new SegmentConfig(1000, 1, 0), time, true, 0, false, "");
        assertEquals(
                0,
                segment.recover(new ProducerStateFixture(dir).stateManager, new TestEpochs()),
                "nothing invalid to cut");
        assertEquals(2020, segment.readNextOffset());
        assertArrayEquals(
                bytes(concat(first, batch(10, 10, T0 + 10), large)),
                Files.readAllBytes(segment.log().file()));
    }

    @Test
    void anIndexPageThatFindsNoRoomLeavesTheSegmentAsItWas() throws Exception {
        // A new index is a sparse file: its first entry needs a page the full disk does not have (written to through
        // the mapping, SIGBUS), while the second small batch still fits in the log file's first page.
        segment = LogSegment.open(disk.root(), 0, new SegmentConfig(1000, 0, 0), time, 0, false);
        ByteBuffer first = batch(0, 1, T0);
        append(segment, first);
        int size = segment.size();
        disk.fill();

        UncheckedIOException full =
                assertThrows(UncheckedIOException.class, () -> append(segment, batch(1, 1, T0 + 1)));
        assertTrue(full.getMessage().contains("No space left"), full.toString());

        assertEquals(size, segment.size());
        assertEquals(size, Files.size(segment.log().file()));
        assertEquals(0, segment.offsetIndex().entries());
        assertEquals(1, segment.readNextOffset());
        disk.free();
        append(segment, batch(1, 1, T0 + 1));
        assertEquals(1, segment.offsetIndex().entries());
        assertEquals(2, segment.readNextOffset());
    }
}
