package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalLong;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bytes of Kafka's producer state snapshot file, written and read. */
class ProducerSnapshotTest {

    private static final HexFormat HEX = HexFormat.of();

    // Version 1, CRC-32C of the four zero bytes of the count, count 0.
    private static final String EMPTY = "0001" + "48674bc7" + "00000000";

    // Version 1, CRC, count 1, then: producer id, epoch, last sequence, last offset 1000, offset delta 4,
    // timestamp 1700000000123, coordinator epoch 7, no open transaction (-1).
    private static final String ONE_ENTRY = "0001" + "ee9bb89e" + "00000001"
            + "0102030405060708" + "0a0b" + "11223344" + "00000000000003e8" + "00000004" + "0000018bcfe5687b"
            + "00000007" + "ffffffffffffffff";

    @TempDir
    Path dir;

    private static ProducerStateEntry entry(
            long producerId,
            short epoch,
            int coordinatorEpoch,
            long timestamp,
            OptionalLong txn,
            int lastSeq,
            long lastOffset,
            int offsetDelta) {
        ProducerStateEntry entry = new ProducerStateEntry(producerId, epoch, coordinatorEpoch, timestamp, txn);
        if (lastOffset >= 0) {
            entry.addBatch(epoch, lastSeq, lastOffset, offsetDelta, timestamp);
        }
        return entry;
    }

    private static final ProducerStateEntry ONE = entry(
            0x0102030405060708L, (short) 0x0a0b, 7, 1_700_000_000_123L, OptionalLong.empty(), 0x11223344, 1000L, 4);

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    @Test
    void anEmptySnapshotIsTenBytes() {
        assertEquals(EMPTY, HEX.formatHex(bytes(ProducerSnapshot.encode(List.of()))));
        assertEquals(List.of(), ProducerSnapshot.decode(ByteBuffer.wrap(HEX.parseHex(EMPTY)), dir));
    }

    @Test
    void anEntryIsFortySixBytesInKafkasOrder() {
        assertEquals(ONE_ENTRY, HEX.formatHex(bytes(ProducerSnapshot.encode(List.of(ONE)))));
        assertEquals(10 + 46, HEX.parseHex(ONE_ENTRY).length);

        ProducerStateEntry read = ProducerSnapshot.decode(ByteBuffer.wrap(HEX.parseHex(ONE_ENTRY)), dir)
                .getFirst();
        assertSameEntry(ONE, read);
        BatchMetadata batch = read.batchMetadata().iterator().next();
        assertEquals(new BatchMetadata(0x11223344, 1000L, 4, 1_700_000_000_123L), batch);
        assertEquals(0x11223344 - 4, read.firstSeq());
        assertEquals(996L, read.firstDataOffset());
    }

    @Test
    void aProducerWithoutBatchesIsWrittenWithMinusOnes() {
        ProducerStateEntry fenced = entry(9L, (short) 3, 2, 55L, OptionalLong.empty(), 0, -1L, 0);
        ByteBuffer bytes = ProducerSnapshot.encode(List.of(fenced));
        assertEquals(9L, bytes.getLong(10));
        assertEquals(3, bytes.getShort(18));
        assertEquals(-1, bytes.getInt(20));
        assertEquals(-1L, bytes.getLong(24));
        assertEquals(0, bytes.getInt(32));
        assertEquals(55L, bytes.getLong(36));
        assertEquals(2, bytes.getInt(44));
        assertEquals(-1L, bytes.getLong(48));

        ProducerStateEntry read = ProducerSnapshot.decode(bytes, dir).getFirst();
        assertTrue(read.isEmpty());
        assertSameEntry(fenced, read);
    }

    @Test
    void entriesRoundTripThroughAFileInProducerIdOrder() throws IOException {
        List<ProducerStateEntry> entries = List.of(
                entry(11L, (short) 12, 13, 123456L, OptionalLong.empty(), -1, -1L, 0),
                entry(1L, (short) 2, 3, ProducerBatch.NO_TIMESTAMP, OptionalLong.of(100L), 1, 2L, 1),
                entry(
                        Long.MAX_VALUE,
                        Short.MAX_VALUE,
                        Integer.MAX_VALUE,
                        Long.MAX_VALUE,
                        OptionalLong.of(0L),
                        Integer.MAX_VALUE,
                        Long.MAX_VALUE,
                        Integer.MAX_VALUE));
        Path file = dir.resolve("00000000000000000042.snapshot");
        ProducerStateManager.writeSnapshot(file, entries);

        assertEquals(10 + 3 * 46, Files.size(file));
        List<ProducerStateEntry> read = ProducerStateManager.readSnapshot(file);
        assertEquals(
                List.of(1L, 11L, Long.MAX_VALUE),
                read.stream().map(ProducerStateEntry::producerId).toList());
        assertSameEntry(entries.get(1), read.get(0));
        assertSameEntry(entries.get(0), read.get(1));
        assertSameEntry(entries.get(2), read.get(2));
    }

    @Test
    void aWriteReplacesTheFileAndLeavesNoTemporaryFile() throws IOException {
        Path file = dir.resolve("00000000000000000001.snapshot");
        Files.write(file, new byte[1000]);
        ProducerSnapshot.write(file, List.of(ONE));
        assertArrayEquals(HEX.parseHex(ONE_ENTRY), Files.readAllBytes(file));
        try (var files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList());
        }
    }

    @Test
    void aSnapshotWrittenWithoutSyncIsWholeAndCanBeFlushedLater() throws IOException {
        Path file = dir.resolve("00000000000000000002.snapshot");
        ProducerSnapshot.write(file, List.of(ONE), false);
        assertArrayEquals(HEX.parseHex(ONE_ENTRY), Files.readAllBytes(file));
        try (var files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList());
        }
        ProducerStateManager.flushSnapshot(file);
        assertArrayEquals(HEX.parseHex(ONE_ENTRY), Files.readAllBytes(file));
        // Retention may delete it before the background flush runs.
        Files.delete(file);
        ProducerStateManager.flushSnapshot(file);
        assertFalse(Files.exists(file));
    }

    @Test
    void everyTruncationIsRejectedNamingTheFile() throws IOException {
        byte[] whole = HEX.parseHex(ONE_ENTRY);
        for (int length = 0; length < whole.length; length++) {
            Path file = dir.resolve("00000000000000000001.snapshot");
            Files.write(file, Arrays.copyOf(whole, length));
            CorruptSnapshotException e = assertThrows(
                    CorruptSnapshotException.class, () -> ProducerStateManager.readSnapshot(file), "length " + length);
            assertEquals(file, e.file());
            assertTrue(e.getMessage().startsWith("Corrupt producer state snapshot " + file + ": "), e.getMessage());
        }
    }

    @Test
    void everyFlippedBitAfterTheVersionIsRejected() {
        byte[] whole = HEX.parseHex(ONE_ENTRY);
        for (int bit = 16; bit < whole.length * 8; bit++) {
            byte[] damaged = whole.clone();
            damaged[bit / 8] ^= (byte) (1 << (bit % 8));
            assertThrows(
                    CorruptSnapshotException.class,
                    () -> ProducerSnapshot.decode(ByteBuffer.wrap(damaged), dir),
                    "bit " + bit);
        }
    }

    @Test
    void aBadCrcIsReportedWithBothValues() {
        byte[] damaged = HEX.parseHex(ONE_ENTRY);
        damaged[20] ^= 1;
        CorruptSnapshotException e = assertThrows(
                CorruptSnapshotException.class,
                () -> ProducerSnapshot.decode(ByteBuffer.wrap(damaged), dir.resolve("x.snapshot")));
        assertTrue(e.getMessage().contains("CRC is no longer valid: stored 4003182750, computed "), e.getMessage());
    }

    @Test
    void anUnknownVersionIsRejected() {
        for (int version : new int[] {0, 2, -1}) {
            byte[] bytes = HEX.parseHex(ONE_ENTRY);
            ByteBuffer.wrap(bytes).putShort(0, (short) version);
            CorruptSnapshotException e = assertThrows(
                    CorruptSnapshotException.class, () -> ProducerSnapshot.decode(ByteBuffer.wrap(bytes), dir));
            assertTrue(e.getMessage().contains("unknown file version " + version), e.getMessage());
        }
    }

    @Test
    void aCountThatDoesNotMatchTheSizeIsRejectedEvenWithAValidCrc() {
        for (int count : new int[] {0, 2, -1, Integer.MAX_VALUE}) {
            ByteBuffer bytes = ByteBuffer.wrap(HEX.parseHex(ONE_ENTRY));
            bytes.putInt(6, count);
            withValidCrc(bytes);
            assertThrows(CorruptSnapshotException.class, () -> ProducerSnapshot.decode(bytes, dir), "count " + count);
        }
        ByteBuffer trailing = ByteBuffer.allocate(ONE_ENTRY.length() / 2 + 3)
                .put(HEX.parseHex(ONE_ENTRY))
                .rewind();
        withValidCrc(trailing);
        assertThrows(CorruptSnapshotException.class, () -> ProducerSnapshot.decode(trailing, dir));
    }

    @Test
    void anOffsetDeltaBeyondTheLastOffsetIsRejected() {
        ByteBuffer bytes = ByteBuffer.wrap(HEX.parseHex(ONE_ENTRY));
        bytes.putInt(32, 1001);
        withValidCrc(bytes);
        CorruptSnapshotException e =
                assertThrows(CorruptSnapshotException.class, () -> ProducerSnapshot.decode(bytes, dir));
        assertTrue(e.getMessage().contains("entry at byte 10"), e.getMessage());
    }

    private static void withValidCrc(ByteBuffer bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes.slice(6, bytes.limit() - 6));
        bytes.putInt(2, (int) crc.getValue());
    }

    @Test
    void fileNamesAreTwentyDigitOffsets() {
        assertEquals("00000000000000000000", LogFileUtils.filenamePrefixFromOffset(0L));
        assertEquals("09223372036854775807", LogFileUtils.filenamePrefixFromOffset(Long.MAX_VALUE));
        assertEquals(dir.resolve("00000000000000001234.snapshot"), LogFileUtils.producerSnapshotFile(dir, 1234L));
        assertEquals(1234L, LogFileUtils.offsetFromFileName("00000000000000001234.snapshot"));
        assertEquals(
                1234L,
                SnapshotFile.of(dir.resolve("00000000000000001234.snapshot")).offset());
        for (String bad : new String[] {
            "snapshot",
            ".snapshot",
            "-1.snapshot",
            "+1.snapshot",
            "1a.snapshot",
            "99999999999999999999.snapshot",
            "000000000000000000001.snapshot"
        }) {
            assertThrows(IllegalArgumentException.class, () -> LogFileUtils.offsetFromFileName(bad), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> LogFileUtils.filenamePrefixFromOffset(-1L));
        assertFalse(LogFileUtils.filenamePrefixFromOffset(5L).contains(","));
    }

    static void assertSameEntry(ProducerStateEntry expected, ProducerStateEntry actual) {
        assertEquals(expected.producerId(), actual.producerId());
        assertEquals(expected.producerEpoch(), actual.producerEpoch());
        assertEquals(expected.coordinatorEpoch(), actual.coordinatorEpoch());
        assertEquals(expected.lastTimestamp(), actual.lastTimestamp());
        assertEquals(expected.currentTxnFirstOffset(), actual.currentTxnFirstOffset());
        assertEquals(expected.lastSeq(), actual.lastSeq());
        assertEquals(expected.lastDataOffset(), actual.lastDataOffset());
        assertEquals(expected.lastOffsetDelta(), actual.lastOffsetDelta());
    }
}
