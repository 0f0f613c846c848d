package io.krabka.kernel.log;

import static io.krabka.kernel.log.IndexBytes.offsetIndex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OffsetIndexFileTest {

    private static final long BASE = 1_000L;
    private static final int MAX_INDEX_SIZE = 10_485_760;

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("00000000000000001000.index");
    }

    private OffsetIndex writable(int maxIndexSize) throws IOException {
        return new OffsetIndex(file(), BASE, maxIndexSize, true);
    }

    @Test
    void aNewIndexIsPreallocatedToTheMaximumSizeRoundedDownToWholeEntries() throws IOException {
        try (OffsetIndex index = writable(MAX_INDEX_SIZE)) {
            assertEquals(MAX_INDEX_SIZE, Files.size(file()));
            assertEquals(0, index.entries());
            assertEquals(MAX_INDEX_SIZE / 8, index.maxEntries());
            assertEquals(BASE, index.lastOffset());
        }
        Files.delete(file());
        try (OffsetIndex index = writable(100)) {
            assertEquals(96, Files.size(file()));
            assertEquals(12, index.maxEntries());
        }
    }

    @Test
    void aMaximumSizeBelowOneEntryIsRefusedAndNoFileIsLeft() {
        assertThrows(IllegalArgumentException.class, () -> writable(7));
        assertFalse(Files.exists(file()));
    }

    @Test
    void appendsAreLookedUpAndWrittenInKafkasLayout() throws IOException {
        try (OffsetIndex index = writable(MAX_INDEX_SIZE)) {
            index.append(1_003, 0);
            index.append(1_010, 4_096);
            index.append(1_025, 9_000);
            assertEquals(3, index.entries());
            assertEquals(1_025, index.lastOffset());
            assertEquals(new OffsetPosition(BASE, 0), index.lookup(1_002));
            assertEquals(new OffsetPosition(1_010, 4_096), index.lookup(1_024));
            assertEquals(new OffsetPosition(1_025, 9_000), index.lookup(Long.MAX_VALUE));
            assertEquals(new OffsetPosition(1_010, 4_096), index.entry(1));
            index.trimToValidSize();
        }
        assertArrayEquals(offsetIndex(3, 0, 10, 4_096, 25, 9_000).array(), Files.readAllBytes(file()));
    }

    @Test
    void offsetsMustStrictlyIncrease() throws IOException {
        try (OffsetIndex index = writable(MAX_INDEX_SIZE)) {
            index.append(1_010, 100);
            InvalidOffsetException equal = assertThrows(InvalidOffsetException.class, () -> index.append(1_010, 200));
            assertTrue(equal.getMessage().contains(file().toString()), equal.getMessage());
            assertThrows(InvalidOffsetException.class, () -> index.append(1_005, 200));
            assertEquals(1, index.entries());
        }
    }

    @Test
    void offsetsAnEntryCannotHoldOverflow() throws IOException {
        try (OffsetIndex index = writable(MAX_INDEX_SIZE)) {
            assertThrows(IndexOffsetOverflowException.class, () -> index.append(BASE - 1, 0));
            assertThrows(IndexOffsetOverflowException.class, () -> index.append(BASE + Integer.MAX_VALUE + 1L, 0));
            assertFalse(index.canAppendOffset(BASE + Integer.MAX_VALUE + 1L));
            assertTrue(index.canAppendOffset(BASE + Integer.MAX_VALUE));
            index.append(BASE + Integer.MAX_VALUE, 0);
            assertEquals(BASE + Integer.MAX_VALUE, index.lastOffset());
        }
    }

    @Test
    void positionsMustNotBeNegativeOrGoBackwards() throws IOException {
        try (OffsetIndex index = writable(MAX_INDEX_SIZE)) {
            assertThrows(IllegalArgumentException.class, () -> index.append(1_001, -1));
            index.append(1_001, 500);
            assertThrows(IllegalArgumentException.class, () -> index.append(1_002, 499));
            assertEquals(1, index.entries());
        }
    }

    @Test
    void aFullIndexRefusesAppends() throws IOException {
        try (OffsetIndex index = writable(3 * 8)) {
            for (int n = 1; n <= 3; n++) {
                assertFalse(index.isFull());
                index.append(BASE + n, n * 10);
            }
            assertTrue(index.isFull());
            assertThrows(IllegalArgumentException.class, () -> index.append(BASE + 4, 40));
        }
    }

    @Test
    void truncateToRemovesTheEntriesAtAndAboveTheOffset() throws IOException {
        try (OffsetIndex index = writable(MAX_INDEX_SIZE)) {
            index.append(1_010, 100);
            index.append(1_020, 200);
            index.append(1_030, 300);
            index.truncateTo(1_031);
            assertEquals(3, index.entries());
            index.truncateTo(1_030);
            assertEquals(2, index.entries());
            assertEquals(1_020, index.lastOffset());
            index.truncateTo(1_015);
            assertEquals(1, index.entries());
            assertEquals(1_010, index.lastOffset());
            index.append(1_011, 150);
            assertEquals(new OffsetPosition(1_011, 150), index.lookup(1_020));
            index.truncateTo(BASE);
            assertEquals(0, index.entries());
            assertEquals(BASE, index.lastOffset());
            assertEquals(new OffsetPosition(BASE, 0), index.lookup(1_020));
            index.append(1_001, 10);
            index.truncate();
            assertEquals(0, index.entries());
        }
    }

    @Test
    void trimToValidSizeCutsTheFileToItsEntriesAndResizeGivesRoomBack() throws IOException {
        try (OffsetIndex index = writable(MAX_INDEX_SIZE)) {
            index.append(1_010, 100);
            index.append(1_020, 200);
            index.trimToValidSize();
            assertEquals(16, Files.size(file()));
            assertEquals(16, index.length());
            assertTrue(index.isFull());
            assertFalse(index.resize(16 + 7));
            assertTrue(index.resize(MAX_INDEX_SIZE));
            assertEquals(MAX_INDEX_SIZE, Files.size(file()));
            assertEquals(2, index.entries());
            index.append(1_030, 300);
            assertEquals(new OffsetPosition(1_020, 200), index.lookup(1_029));
            assertThrows(IllegalArgumentException.class, () -> index.resize(16));
        }
    }

    @Test
    void aTrimmedIndexReopensWithItsEntries() throws IOException {
        try (OffsetIndex index = writable(MAX_INDEX_SIZE)) {
            index.append(1_010, 100);
            index.append(1_020, 200);
            index.trimToValidSize();
        }
        assertEquals(16, Files.size(file()));
        try (OffsetIndex reopened = writable(MAX_INDEX_SIZE)) {
            reopened.sanityCheck();
            assertEquals(2, reopened.entries());
            assertEquals(1_020, reopened.lastOffset());
            assertTrue(reopened.isFull());
            reopened.resize(MAX_INDEX_SIZE);
            reopened.append(1_030, 300);
            assertEquals(3, reopened.entries());
            reopened.trimToValidSize();
        }
        try (OffsetIndex readOnly = new OffsetIndex(file(), BASE, MAX_INDEX_SIZE, false)) {
            readOnly.sanityCheck();
            readOnly.checkAllEntries();
            assertEquals(new OffsetPosition(1_030, 300), readOnly.lookup(1_031));
            assertThrows(IllegalStateException.class, () -> readOnly.append(1_040, 400));
            assertThrows(IllegalStateException.class, () -> readOnly.truncateTo(1_020));
            assertThrows(IllegalStateException.class, () -> readOnly.resize(64));
        }
        assertEquals(24, Files.size(file()));
    }

    @Test
    void anUntrimmedFileCountsEveryWholeEntryAsKafkaDoesAndFailsTheSanityCheck() throws IOException {
        OffsetIndex crashed = writable(64);
        crashed.append(1_010, 100);
        crashed.append(1_020, 200);
        crashed.flush();
        crashed.close(); // closed without a trim: what a crash leaves

        try (OffsetIndex reopened = writable(64)) {
            assertEquals(8, reopened.entries());
            assertTrue(reopened.isFull());
            CorruptIndexException e = assertThrows(CorruptIndexException.class, reopened::sanityCheck);
            assertEquals(file().toString(), e.source());
            assertEquals(7 * 8, e.bytePosition());
            assertTrue(e.getMessage().contains("never trimmed"), e.getMessage());

            reopened.reset();
            assertEquals(0, reopened.entries());
            assertEquals(64, Files.size(file()));
            reopened.sanityCheck();
            reopened.append(1_005, 50);
            assertEquals(new OffsetPosition(1_005, 50), reopened.lookup(1_020));
        }
    }

    @Test
    void aPreallocatedFileWithNoEntryAtAllFailsTheSanityCheck() throws IOException {
        writable(64).close();
        try (OffsetIndex reopened = writable(64)) {
            assertEquals(8, reopened.entries());
            assertThrows(CorruptIndexException.class, reopened::sanityCheck);
        }
    }

    @Test
    void aFileOfPartEntriesFailsTheSanityCheck() throws IOException {
        Files.write(
                file(),
                IndexBytes.concat(offsetIndex(10, 100), java.nio.ByteBuffer.allocate(5))
                        .array());
        try (OffsetIndex index = new OffsetIndex(file(), BASE, MAX_INDEX_SIZE, false)) {
            assertEquals(1, index.entries());
            CorruptIndexException e = assertThrows(CorruptIndexException.class, index::sanityCheck);
            assertEquals(
                    "Corrupt index " + file() + " at byte 8: size 13 bytes is not a multiple of the entry size 8",
                    e.getMessage());
        }
    }

    @Test
    void aNegativeLastOffsetFailsTheSanityCheckAsInKafka() throws IOException {
        Files.write(file(), offsetIndex(10, 100, -5, 200).array());
        try (OffsetIndex index = new OffsetIndex(file(), BASE, MAX_INDEX_SIZE, false)) {
            CorruptIndexException e = assertThrows(CorruptIndexException.class, index::sanityCheck);
            assertEquals(8, e.bytePosition());
        }
    }

    @Test
    void aMissingFileIsARebuildSignalForAReadOnlyIndex() {
        assertThrows(NoSuchFileException.class, () -> new OffsetIndex(file(), BASE, MAX_INDEX_SIZE, false));
        assertFalse(Files.exists(file()));
    }

    @Test
    void renamedIndexesKeepWorkingAndDeleteUnderTheirNewName() throws IOException {
        OffsetIndex index = writable(MAX_INDEX_SIZE);
        index.append(1_010, 100);
        Path deleted = dir.resolve(file().getFileName() + LogFileUtils.DELETED_FILE_SUFFIX);
        index.renameTo(deleted);
        assertFalse(Files.exists(file()));
        assertEquals(deleted, index.file());
        assertEquals(new OffsetPosition(1_010, 100), index.lookup(1_011));
        index.append(1_020, 200);
        assertTrue(index.deleteIfExists());
        assertFalse(Files.exists(deleted));
        assertFalse(index.deleteIfExists());
        assertThrows(IllegalStateException.class, () -> index.lookup(1_011));
    }

    @Test
    void updateParentDirFollowsADirectoryRename() throws IOException {
        Path partition = Files.createDirectory(dir.resolve("topic-0"));
        Path file = partition.resolve("00000000000000001000.index");
        try (OffsetIndex index = new OffsetIndex(file, BASE, 64, true)) {
            index.append(1_010, 100);
            Path renamed = Files.move(partition, dir.resolve("topic-0.abc-delete"));
            index.updateParentDir(renamed);
            assertEquals(renamed.resolve(file.getFileName()), index.file());
            index.trimToValidSize();
        }
        assertEquals(8, Files.size(dir.resolve("topic-0.abc-delete").resolve(file.getFileName())));
    }

    @Test
    void closingUnmapsWithoutTrimmingAndAClosedIndexRefusesUse() throws IOException {
        OffsetIndex index = writable(64);
        index.append(1_010, 100);
        index.close();
        index.close();
        assertEquals(64, Files.size(file()));
        assertThrows(IllegalStateException.class, () -> index.lookup(1_010));
        assertThrows(IllegalStateException.class, () -> index.append(1_020, 200));
        assertThrows(IllegalStateException.class, index::flush);
        assertThrows(IllegalStateException.class, () -> index.resize(64));
    }

    @Test
    void fetchUpperBoundOffsetIsTheFirstEntryAtOrBeyondTheEndOfTheFetch() throws IOException {
        try (OffsetIndex index = writable(MAX_INDEX_SIZE)) {
            index.append(1_010, 100);
            index.append(1_020, 200);
            index.append(1_030, 300);
            OffsetPosition start = new OffsetPosition(1_010, 100);
            assertEquals(Optional.of(new OffsetPosition(1_020, 200)), index.fetchUpperBoundOffset(start, 100));
            assertEquals(Optional.of(new OffsetPosition(1_030, 300)), index.fetchUpperBoundOffset(start, 101));
            assertEquals(Optional.empty(), index.fetchUpperBoundOffset(start, 201));
            assertEquals(Optional.empty(), index.fetchUpperBoundOffset(start, Integer.MAX_VALUE));
        }
    }

    @Test
    void lookupsInTheColdAndWarmSectionsAgreeWithALinearScan() throws IOException {
        int count = 5_000; // more than the 1,024-entry warm section
        try (OffsetIndex index = writable(count * 8)) {
            for (int n = 0; n < count; n++) {
                index.append(BASE + 3L * (n + 1), 100 * (n + 1));
            }
            assertTrue(index.isFull());
            for (long target = BASE - 2; target <= BASE + 3L * count + 2; target++) {
                long entries = Math.min(count, Math.max(0, (target - BASE) / 3));
                OffsetPosition expected = entries == 0
                        ? new OffsetPosition(BASE, 0)
                        : new OffsetPosition(BASE + 3 * entries, (int) (100 * entries));
                assertEquals(expected, index.lookup(target), "target " + target);
            }
        }
    }
}
