package io.krabka.kernel.log;

import static io.krabka.kernel.log.IndexBytes.timeIndex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimeIndexFileTest {

    private static final long BASE = 500L;
    private static final int MAX_INDEX_SIZE = 10_485_760;

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("00000000000000000500.timeindex");
    }

    private TimeIndex writable(int maxIndexSize) throws IOException {
        return new TimeIndex(file(), BASE, maxIndexSize, true);
    }

    @Test
    void aNewIndexIsPreallocatedToTheMaximumSizeRoundedDownToWholeEntries() throws IOException {
        try (TimeIndex index = writable(MAX_INDEX_SIZE)) {
            assertEquals(10_485_756, Files.size(file()));
            assertEquals(873_813, index.maxEntries());
            assertEquals(new TimestampOffset(TimeIndex.NO_TIMESTAMP, BASE), index.lastEntry());
        }
    }

    @Test
    void appendsAreLookedUpAndWrittenInKafkasLayout() throws IOException {
        try (TimeIndex index = writable(MAX_INDEX_SIZE)) {
            index.maybeAppend(1_000, 502);
            index.maybeAppend(1_500, 507);
            index.maybeAppend(2_000, 507);
            assertEquals(3, index.entries());
            assertEquals(new TimestampOffset(2_000, 507), index.lastEntry());
            assertEquals(new TimestampOffset(TimeIndex.NO_TIMESTAMP, BASE), index.lookup(999));
            assertEquals(new TimestampOffset(1_500, 507), index.lookup(1_999));
            assertEquals(new TimestampOffset(1_000, 502), index.entry(0));
            index.trimToValidSize();
        }
        assertArrayEquals(timeIndex(1_000, 2, 1_500, 7, 2_000, 7).array(), Files.readAllBytes(file()));
    }

    @Test
    void onlyALargerTimestampIsAppended() throws IOException {
        try (TimeIndex index = writable(MAX_INDEX_SIZE)) {
            index.maybeAppend(TimeIndex.NO_TIMESTAMP, 501);
            assertEquals(0, index.entries());
            index.maybeAppend(1_000, 502);
            index.maybeAppend(1_000, 502);
            index.maybeAppend(1_000, 510);
            assertEquals(1, index.entries());
            assertEquals(new TimestampOffset(1_000, 502), index.lastEntry());
        }
    }

    @Test
    void anOffsetOrTimestampGoingBackwardsIsRefused() throws IOException {
        try (TimeIndex index = writable(MAX_INDEX_SIZE)) {
            index.maybeAppend(1_000, 510);
            InvalidOffsetException offset =
                    assertThrows(InvalidOffsetException.class, () -> index.maybeAppend(2_000, 509));
            assertTrue(offset.getMessage().contains(file().toString()), offset.getMessage());
            assertThrows(IllegalStateException.class, () -> index.maybeAppend(999, 511));
            assertThrows(
                    IndexOffsetOverflowException.class, () -> index.maybeAppend(3_000, BASE + Integer.MAX_VALUE + 1L));
            assertEquals(1, index.entries());
        }
    }

    @Test
    void theLastSlotIsKeptForTheEntryARollAppends() throws IOException {
        try (TimeIndex index = writable(3 * 12)) {
            index.maybeAppend(1_000, 501);
            assertFalse(index.isFull());
            index.maybeAppend(1_001, 502);
            assertTrue(index.isFull());
            assertThrows(IllegalArgumentException.class, () -> index.maybeAppend(1_002, 503));
            index.maybeAppend(1_002, 503, true);
            assertEquals(3, index.entries());
            assertThrows(IllegalArgumentException.class, () -> index.maybeAppend(1_003, 504, true));
        }
    }

    @Test
    void truncateToRemovesTheEntriesWhoseOffsetIsAtOrAboveIt() throws IOException {
        try (TimeIndex index = writable(MAX_INDEX_SIZE)) {
            index.maybeAppend(1_000, 510);
            index.maybeAppend(2_000, 520);
            index.maybeAppend(3_000, 520);
            index.maybeAppend(4_000, 530);
            index.truncateTo(521);
            assertEquals(3, index.entries());
            index.truncateTo(520);
            assertEquals(1, index.entries());
            assertEquals(new TimestampOffset(1_000, 510), index.lastEntry());
            index.maybeAppend(1_500, 515);
            assertEquals(new TimestampOffset(1_500, 515), index.lookup(5_000));
            index.truncate();
            assertEquals(0, index.entries());
            assertEquals(new TimestampOffset(TimeIndex.NO_TIMESTAMP, BASE), index.lastEntry());
            index.maybeAppend(10, 501);
            assertEquals(1, index.entries());
        }
    }

    @Test
    void aTrimmedIndexReopensWithItsLastEntry() throws IOException {
        try (TimeIndex index = writable(MAX_INDEX_SIZE)) {
            index.maybeAppend(1_000, 510);
            index.maybeAppend(2_000, 520);
            index.trimToValidSize();
        }
        assertEquals(24, Files.size(file()));
        try (TimeIndex reopened = writable(MAX_INDEX_SIZE)) {
            reopened.sanityCheck();
            assertEquals(new TimestampOffset(2_000, 520), reopened.lastEntry());
            reopened.resize(MAX_INDEX_SIZE);
            assertThrows(IllegalStateException.class, () -> reopened.maybeAppend(1_999, 530));
            reopened.maybeAppend(2_001, 530);
            assertEquals(3, reopened.entries());
        }
    }

    @Test
    void anUntrimmedFileCountsEveryWholeEntryAndFailsTheSanityCheck() throws IOException {
        TimeIndex crashed = writable(120);
        crashed.maybeAppend(1_000, 510);
        crashed.maybeAppend(2_000, 520);
        crashed.close(); // closed without a trim: what a crash leaves
        try (TimeIndex reopened = writable(120)) {
            assertEquals(10, reopened.entries());
            CorruptIndexException e = assertThrows(CorruptIndexException.class, reopened::sanityCheck);
            assertEquals(9 * 12, e.bytePosition());
            reopened.reset();
            reopened.sanityCheck();
            assertEquals(0, reopened.entries());
            assertEquals(120, Files.size(file()));
        }
    }

    @Test
    void anOffsetBelowTheBaseFailsTheSanityCheckAsInKafka() throws IOException {
        Files.write(file(), timeIndex(1_000, 2, 2_000, -3).array());
        try (TimeIndex index = new TimeIndex(file(), BASE, MAX_INDEX_SIZE, false)) {
            CorruptIndexException e = assertThrows(CorruptIndexException.class, index::sanityCheck);
            assertEquals(12 + 8, e.bytePosition());
        }
    }

    @Test
    void aFileOfPartEntriesFailsTheSanityCheck() throws IOException {
        Files.write(
                file(),
                IndexBytes.concat(timeIndex(1_000, 2), java.nio.ByteBuffer.allocate(3))
                        .array());
        try (TimeIndex index = new TimeIndex(file(), BASE, MAX_INDEX_SIZE, false)) {
            CorruptIndexException e = assertThrows(CorruptIndexException.class, index::sanityCheck);
            assertEquals(12, e.bytePosition());
        }
    }

    @Test
    void lookupsInTheColdAndWarmSectionsAgreeWithALinearScan() throws IOException {
        int count = 3_000; // more than the 682-entry warm section
        try (TimeIndex index = writable((count + 1) * 12)) {
            for (int n = 1; n <= count; n++) {
                index.maybeAppend(10L * n, BASE + 2L * n);
            }
            for (long target = -5; target <= 10L * count + 5; target++) {
                long n = Math.min(count, Math.max(0, target / 10));
                TimestampOffset expected = n == 0
                        ? new TimestampOffset(TimeIndex.NO_TIMESTAMP, BASE)
                        : new TimestampOffset(10 * n, BASE + 2 * n);
                assertEquals(expected, index.lookup(target), "target " + target);
            }
        }
    }
}
