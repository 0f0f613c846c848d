package io.krabka.kernel.log;

import static io.krabka.kernel.log.IndexBytes.offsetIndex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OffsetIndexTest {

    private static final long BASE = 1_000L;

    private final OffsetIndex index =
            new OffsetIndex(offsetIndex(3, 0, 10, 4_096, 25, 9_000, 40, 20_000), BASE, "test.index");

    @Test
    void decodesEveryEntry() {
        assertEquals(4, index.entries());
        assertEquals(32, index.sizeInBytes());
        assertEquals(new OffsetPosition(1_003, 0), index.entry(0));
        assertEquals(new OffsetPosition(1_010, 4_096), index.entry(1));
        assertEquals(new OffsetPosition(1_025, 9_000), index.entry(2));
        assertEquals(new OffsetPosition(1_040, 20_000), index.entry(3));
        assertEquals(1_040, index.lastOffset());
        assertThrows(IndexOutOfBoundsException.class, () -> index.entry(4));
    }

    @Test
    void targetBeforeTheFirstEntryGivesTheSegmentStart() {
        assertEquals(new OffsetPosition(BASE, 0), index.lookup(1_002));
        assertEquals(new OffsetPosition(BASE, 0), index.lookup(BASE));
        assertEquals(new OffsetPosition(BASE, 0), index.lookup(0));
        assertEquals(new OffsetPosition(BASE, 0), index.lookup(Long.MIN_VALUE));
    }

    @Test
    void exactHitsGiveTheirEntry() {
        assertEquals(new OffsetPosition(1_003, 0), index.lookup(1_003));
        assertEquals(new OffsetPosition(1_010, 4_096), index.lookup(1_010));
        assertEquals(new OffsetPosition(1_025, 9_000), index.lookup(1_025));
        assertEquals(new OffsetPosition(1_040, 20_000), index.lookup(1_040));
    }

    @Test
    void targetsBetweenEntriesGiveTheEntryBelow() {
        assertEquals(new OffsetPosition(1_003, 0), index.lookup(1_009));
        assertEquals(new OffsetPosition(1_010, 4_096), index.lookup(1_024));
        assertEquals(new OffsetPosition(1_025, 9_000), index.lookup(1_039));
    }

    @Test
    void targetsAfterTheLastEntryGiveTheLastEntry() {
        assertEquals(new OffsetPosition(1_040, 20_000), index.lookup(1_041));
        assertEquals(new OffsetPosition(1_040, 20_000), index.lookup(Long.MAX_VALUE));
    }

    @Test
    void emptyIndexAlwaysGivesTheSegmentStart() {
        OffsetIndex empty = new OffsetIndex(ByteBuffer.allocate(0), BASE, "empty.index");
        assertEquals(0, empty.entries());
        assertEquals(BASE, empty.lastOffset());
        assertEquals(new OffsetPosition(BASE, 0), empty.lookup(BASE));
        assertEquals(new OffsetPosition(BASE, 0), empty.lookup(Long.MAX_VALUE));
    }

    @Test
    void lookupsAgreeWithALinearScanOnALargeIndex() {
        Random random = new Random(42);
        int count = 10_000;
        int[] pairs = new int[count * 2];
        int relativeOffset = 0;
        int position = 0;
        for (int n = 0; n < count; n++) {
            relativeOffset += 1 + random.nextInt(50);
            position += 1 + random.nextInt(4_096);
            pairs[2 * n] = relativeOffset;
            pairs[2 * n + 1] = position;
        }
        OffsetIndex large = new OffsetIndex(offsetIndex(pairs), BASE, "large.index");
        for (int probe = 0; probe < 20_000; probe++) {
            long target = BASE - 5 + random.nextInt(relativeOffset + 10);
            OffsetPosition expected = new OffsetPosition(BASE, 0);
            for (int n = 0; n < count && BASE + pairs[2 * n] <= target; n++) {
                expected = new OffsetPosition(BASE + pairs[2 * n], pairs[2 * n + 1]);
            }
            assertEquals(expected, large.lookup(target), "target " + target);
        }
    }

    @Test
    void readsOnlyBetweenPositionAndLimitAndLeavesTheCallersBufferAlone() {
        ByteBuffer bytes = IndexBytes.concat(offsetIndex(99, 99), offsetIndex(1, 10, 2, 20), offsetIndex(-1, -1));
        bytes.position(8).limit(24);
        OffsetIndex middle = new OffsetIndex(bytes, BASE, "middle");
        assertEquals(2, middle.entries());
        assertEquals(new OffsetPosition(1_002, 20), middle.lookup(1_005));
        assertEquals(8, bytes.position());
        assertEquals(24, bytes.limit());
    }

    @Test
    void decodesAMappedFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("00000000000000001000.index");
        Files.write(file, offsetIndex(3, 0, 10, 4_096).array());
        try (MappedFile mapped = MappedFile.open(file)) {
            OffsetIndex fromFile = new OffsetIndex(mapped.buffer(), BASE, file.toString());
            assertEquals(new OffsetPosition(1_010, 4_096), fromFile.lookup(1_500));
        }
    }

    @Test
    void sizeNotAMultipleOfTheEntrySizeIsCorrupt(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("torn.index");
        Files.write(
                file,
                IndexBytes.concat(offsetIndex(1, 0), ByteBuffer.wrap(new byte[5]))
                        .array());
        try (MappedFile mapped = MappedFile.open(file)) {
            CorruptIndexException e = assertThrows(
                    CorruptIndexException.class, () -> new OffsetIndex(mapped.buffer(), BASE, file.toString()));
            assertEquals(
                    "Corrupt index " + file + " at byte 8: size 13 bytes is not a multiple of the entry size 8",
                    e.getMessage());
            assertEquals(file.toString(), e.source());
            assertEquals(8, e.bytePosition());
        }
    }

    @Test
    void negativeRelativeOffsetIsCorrupt() {
        assertCorrupt(
                offsetIndex(0, 0, -3, 10),
                8,
                "relative offset -3 is negative: offset 997 is below the base offset 1000");
    }

    @Test
    void negativePositionIsCorrupt() {
        assertCorrupt(offsetIndex(0, 0, 3, -10), 12, "file position -10 is negative");
    }

    @Test
    void relativeOffsetGoingBackwardsIsCorrupt() {
        assertCorrupt(offsetIndex(0, 0, 9, 100, 5, 200), 16, "relative offset 5 is not above the previous entry's 9");
    }

    @Test
    void positionGoingBackwardsIsCorrupt() {
        assertCorrupt(
                offsetIndex(0, 0, 5, 200, 9, 100),
                20,
                "file position 100 goes backwards from the previous entry's 200");
    }

    @Test
    void aZeroFilledTailAfterEntriesIsCorrupt() {
        // What a preallocated index that was never trimmed looks like.
        assertCorrupt(
                IndexBytes.concat(offsetIndex(4, 100), ByteBuffer.allocate(16)),
                8,
                "relative offset 0 is not above the previous entry's 4");
    }

    private static void assertCorrupt(ByteBuffer bytes, long bytePosition, String detail) {
        CorruptIndexException e =
                assertThrows(CorruptIndexException.class, () -> new OffsetIndex(bytes, BASE, "bad.index"));
        assertEquals("Corrupt index bad.index at byte " + bytePosition + ": " + detail, e.getMessage());
        assertEquals(bytePosition, e.bytePosition());
    }
}
