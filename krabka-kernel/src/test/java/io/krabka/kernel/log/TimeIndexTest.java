package io.krabka.kernel.log;

import static io.krabka.kernel.log.IndexBytes.timeIndex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimeIndexTest {

    private static final long BASE = 500L;

    private final TimeIndex index =
            new TimeIndex(timeIndex(1_000, 2, 1_500, 7, 2_000, 7, 9_000, 30), BASE, "test.timeindex");

    @Test
    void decodesEveryEntry() {
        assertEquals(4, index.entries());
        assertEquals(48, index.sizeInBytes());
        assertEquals(new TimestampOffset(1_000, 502), index.entry(0));
        assertEquals(new TimestampOffset(1_500, 507), index.entry(1));
        assertEquals(new TimestampOffset(2_000, 507), index.entry(2));
        assertEquals(new TimestampOffset(9_000, 530), index.entry(3));
        assertEquals(new TimestampOffset(9_000, 530), index.lastEntry());
    }

    @Test
    void timestampBeforeTheFirstEntryGivesNoTimestampAndTheBaseOffset() {
        assertEquals(new TimestampOffset(TimeIndex.NO_TIMESTAMP, BASE), index.lookup(999));
        assertEquals(new TimestampOffset(TimeIndex.NO_TIMESTAMP, BASE), index.lookup(Long.MIN_VALUE));
    }

    @Test
    void exactHitsGiveTheirEntry() {
        assertEquals(new TimestampOffset(1_000, 502), index.lookup(1_000));
        assertEquals(new TimestampOffset(1_500, 507), index.lookup(1_500));
        assertEquals(new TimestampOffset(2_000, 507), index.lookup(2_000));
        assertEquals(new TimestampOffset(9_000, 530), index.lookup(9_000));
    }

    @Test
    void timestampsBetweenEntriesGiveTheFloorEntry() {
        assertEquals(new TimestampOffset(1_000, 502), index.lookup(1_499));
        assertEquals(new TimestampOffset(2_000, 507), index.lookup(8_999));
    }

    @Test
    void timestampsAfterTheLastEntryGiveTheLastEntry() {
        assertEquals(new TimestampOffset(9_000, 530), index.lookup(9_001));
        assertEquals(new TimestampOffset(9_000, 530), index.lookup(Long.MAX_VALUE));
    }

    @Test
    void emptyIndexGivesNoTimestampAndTheBaseOffset() {
        TimeIndex empty = new TimeIndex(ByteBuffer.allocate(0), BASE, "empty.timeindex");
        assertEquals(0, empty.entries());
        assertEquals(new TimestampOffset(TimeIndex.NO_TIMESTAMP, BASE), empty.lastEntry());
        assertEquals(new TimestampOffset(TimeIndex.NO_TIMESTAMP, BASE), empty.lookup(Long.MAX_VALUE));
    }

    @Test
    void lookupsAgreeWithALinearScanOnALargeIndex() {
        Random random = new Random(7);
        int count = 10_000;
        long[] pairs = new long[count * 2];
        long timestamp = 1_700_000_000_000L;
        int relativeOffset = 0;
        for (int n = 0; n < count; n++) {
            timestamp += 1 + random.nextInt(1_000);
            relativeOffset += random.nextInt(20);
            pairs[2 * n] = timestamp;
            pairs[2 * n + 1] = relativeOffset;
        }
        TimeIndex large = new TimeIndex(timeIndex(pairs), BASE, "large.timeindex");
        for (int probe = 0; probe < 20_000; probe++) {
            long target = pairs[0] - 10 + random.nextLong(timestamp - pairs[0] + 20);
            TimestampOffset expected = new TimestampOffset(TimeIndex.NO_TIMESTAMP, BASE);
            for (int n = 0; n < count && pairs[2 * n] <= target; n++) {
                expected = new TimestampOffset(pairs[2 * n], BASE + pairs[2 * n + 1]);
            }
            assertEquals(expected, large.lookup(target), "target " + target);
        }
    }

    @Test
    void decodesAMappedFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("00000000000000000500.timeindex");
        Files.write(file, timeIndex(1_000, 2, 1_500, 7).array());
        try (MappedFile mapped = MappedFile.open(file)) {
            TimeIndex fromFile = new TimeIndex(mapped.buffer(), BASE, file.toString());
            assertEquals(new TimestampOffset(1_500, 507), fromFile.lookup(1_600));
        }
    }

    @Test
    void sizeNotAMultipleOfTheEntrySizeIsCorrupt() {
        assertCorrupt(
                IndexBytes.concat(timeIndex(1_000, 2), ByteBuffer.allocate(11)),
                12,
                "size 23 bytes is not a multiple of the entry size 12");
    }

    @Test
    void negativeRelativeOffsetIsCorrupt() {
        assertCorrupt(
                timeIndex(1_000, 2, 1_500, -1),
                20,
                "relative offset -1 is negative: offset 499 is below the base offset 500");
    }

    @Test
    void timestampGoingBackwardsIsCorrupt() {
        assertCorrupt(
                timeIndex(1_000, 2, 1_500, 3, 1_200, 4), 24, "timestamp 1200 is not above the previous entry's 1500");
    }

    @Test
    void relativeOffsetGoingBackwardsIsCorrupt() {
        assertCorrupt(
                timeIndex(1_000, 2, 1_500, 9, 1_600, 4),
                32,
                "relative offset 4 goes backwards from the previous entry's 9");
    }

    @Test
    void lastTimestampBelowTheFirstIsCorruptAsInKafkasSanityCheck() {
        assertCorrupt(timeIndex(5_000, 1, 1_000, 2), 12, "timestamp 1000 is not above the previous entry's 5000");
    }

    private static void assertCorrupt(ByteBuffer bytes, long bytePosition, String detail) {
        CorruptIndexException e =
                assertThrows(CorruptIndexException.class, () -> new TimeIndex(bytes, BASE, "bad.timeindex"));
        assertEquals("Corrupt index bad.timeindex at byte " + bytePosition + ": " + detail, e.getMessage());
        assertEquals(bytePosition, e.bytePosition());
    }
}
