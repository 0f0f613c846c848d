package io.krabka.kernel.record;

import static io.krabka.kernel.record.RawBatches.batch;
import static io.krabka.kernel.record.RawBatches.concat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.krabka.kernel.record.RawBatches.RecordBytes;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every damage to a batch is rejected with its typed error, and the error names the source and position. */
class RecordBatchCorruptionTest {

    private static final long BOUND = 1 << 20;
    private static final long AT = 4_096;

    private static ByteBuffer goodBatch(Compression compression) {
        return new RecordBatchBuilder(compression, TimestampType.CREATE_TIME, 0)
                .append(RawBatches.TIMESTAMP, "a".getBytes(), "alpha".getBytes())
                .append(RawBatches.TIMESTAMP + 1, null, "beta".getBytes())
                .append(RawBatches.TIMESTAMP + 2, "c".getBytes(), null)
                .build();
    }

    private static RecordBatch view(ByteBuffer bytes) {
        return RecordBatch.at(bytes, 0, "seg.log", AT);
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void flippingAnyByteIsCaughtExceptWhereKafkaLeavesTheCrcOut(CompressionType codec) {
        ByteBuffer good = goodBatch(Compression.of(codec));
        for (int i = 0; i < good.limit(); i++) {
            ByteBuffer bytes =
                    ByteBuffer.allocate(good.limit()).put(good.duplicate()).flip();
            bytes.put(i, (byte) (bytes.get(i) ^ 0xFF));
            if (i < RecordBatch.LENGTH_OFFSET
                    || (i >= RecordBatch.PARTITION_LEADER_EPOCH_OFFSET && i < RecordBatch.MAGIC_OFFSET)) {
                // Base offset and partition leader epoch lie outside the CRC so brokers can set them.
                assertTrue(view(bytes).isValid(), "byte " + i);
                continue;
            }
            CorruptRecordException e =
                    assertThrows(CorruptRecordException.class, () -> view(bytes).ensureValid(), "byte " + i);
            assertTrue(e.getMessage().startsWith("seg.log at byte " + AT + ": "), e.getMessage());
        }
    }

    @Test
    void aStoredCrcMismatchNamesBothValues() {
        ByteBuffer bytes = goodBatch(Compression.NONE);
        bytes.put(70, (byte) (bytes.get(70) + 1));
        RecordBatch batch = view(bytes);
        assertFalse(batch.isValid());
        CorruptRecordException e = assertThrows(CorruptRecordException.class, batch::ensureValid);
        assertEquals(
                "seg.log at byte 4096: record batch is corrupt (stored crc = " + batch.checksum() + ", computed crc = "
                        + batch.computeChecksum() + ")",
                e.getMessage());
    }

    @Test
    void everyTruncationEndsIterationAndCannotBeViewed() {
        ByteBuffer good = goodBatch(Compression.of(CompressionType.GZIP));
        for (int n = 0; n < good.limit(); n++) {
            ByteBuffer cut = good.duplicate().limit(n);
            MemoryRecords records = MemoryRecords.readableRecords(cut, "seg.log", AT);
            assertFalse(records.iterator().hasNext(), "cut at " + n);
            assertEquals(0, records.validBytes());
            if (n >= Records.LOG_OVERHEAD) {
                assertThrows(CorruptRecordException.class, () -> view(cut), "cut at " + n);
            }
        }
    }

    @Test
    void aSizeBelowTheSmallestBatchOrAnUnknownMagicIsCorrupt() {
        ByteBuffer small = goodBatch(Compression.NONE).putInt(RecordBatch.LENGTH_OFFSET, 13);
        CorruptRecordException e = assertThrows(
                CorruptRecordException.class,
                () -> MemoryRecords.readableRecords(small, "seg.log", AT)
                        .iterator()
                        .hasNext());
        assertEquals(
                "seg.log at byte 4096: record size 13 is less than the minimum record overhead (14)", e.getMessage());

        ByteBuffer underV2 = goodBatch(Compression.NONE).putInt(RecordBatch.LENGTH_OFFSET, 40);
        assertTrue(assertThrows(CorruptRecordException.class, () -> view(underV2))
                .getMessage()
                .contains("smaller than the minimum allowed overhead 61"));

        ByteBuffer magic = goodBatch(Compression.NONE).put(RecordBatch.MAGIC_OFFSET, (byte) 3);
        assertEquals(
                "seg.log at byte 4096: invalid magic found in record: 3",
                assertThrows(CorruptRecordException.class, () -> view(magic)).getMessage());
    }

    private static InvalidRecordException framingError(ByteBuffer bytes) {
        RecordBatch batch = view(bytes);
        batch.ensureValid();
        return assertThrows(InvalidRecordException.class, () -> batch.records(BOUND));
    }

    private static void assertFraming(String expected, ByteBuffer bytes) {
        InvalidRecordException e = framingError(bytes);
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertTrue(e.getMessage().startsWith("seg.log at byte "), e.getMessage());
    }

    @Test
    void aRecordLengthPastTheBatchIsRejected() {
        byte[] record = RecordBytes.simple(0, "k", "v").withLength(500);
        assertFraming("expected 500 bytes in record payload, but the batch has only", batch(0, 0, 1, record));
    }

    @Test
    void aRecordLengthShorterThanItsFieldsIsRejected() {
        RecordBytes r = RecordBytes.simple(0, "key", "value");
        byte[] shortened = concat(r.withLength(r.body().length - 3), new byte[3]);
        assertFraming("value of 5 bytes runs past the record's end (3 left)", batch(0, 0, 1, shortened));
    }

    @Test
    void aRecordLengthLongerThanItsFieldsIsRejected() {
        RecordBytes r = RecordBytes.simple(0, "key", "value").raw((byte) 0, (byte) 0);
        assertFraming(
                "invalid record size: expected to read " + r.body().length
                        + " bytes in record payload, but instead read " + (r.body().length - 2),
                batch(0, 0, 1, r.framed()));
    }

    @Test
    void aNegativeRecordLengthIsRejected() {
        assertFraming(
                "record length -3 is negative",
                batch(0, 0, 1, RecordBytes.simple(0, "k", "v").withLength(-3)));
    }

    @Test
    void aVarintLongerThanFiveBytesIsRejected() {
        byte[] badLength = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x01};
        assertFraming("varint is longer than 5 bytes", batch(0, 0, 1, concat(badLength, new byte[20])));
        RecordBytes badOffsetDelta = new RecordBytes()
                .attributes(0)
                .varlong(0)
                .raw((byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x01)
                .varint(-1)
                .varint(-1)
                .varint(0);
        assertFraming("varint is longer than 5 bytes", batch(0, 0, 1, badOffsetDelta.framed()));
        RecordBytes badTimestamp = new RecordBytes()
                .attributes(0)
                .raw(
                        (byte) 0xFF,
                        (byte) 0xFF,
                        (byte) 0xFF,
                        (byte) 0xFF,
                        (byte) 0xFF,
                        (byte) 0xFF,
                        (byte) 0xFF,
                        (byte) 0xFF,
                        (byte) 0xFF,
                        (byte) 0xFF,
                        (byte) 0x01)
                .varint(0)
                .varint(-1)
                .varint(-1)
                .varint(0);
        assertFraming("varlong is longer than 10 bytes", batch(0, 0, 1, badTimestamp.framed()));
    }

    @Test
    void negativeAndOverlongFieldLengthsAreRejected() {
        RecordBytes key = new RecordBytes()
                .attributes(0)
                .varlong(0)
                .varint(0)
                .varint(-2)
                .varint(-1)
                .varint(0);
        assertFraming("invalid key size -2", batch(0, 0, 1, key.framed()));
        RecordBytes value = new RecordBytes()
                .attributes(0)
                .varlong(0)
                .varint(0)
                .varint(-1)
                .varint(-7)
                .varint(0);
        assertFraming("invalid value size -7", batch(0, 0, 1, value.framed()));
        RecordBytes longValue = new RecordBytes()
                .attributes(0)
                .varlong(0)
                .varint(0)
                .varint(-1)
                .varint(40)
                .raw(new byte[3]);
        assertFraming("value of 40 bytes runs past the record's end", batch(0, 0, 1, longValue.framed()));
    }

    @Test
    void badHeaderCountsAndHeaderKeysAreRejected() {
        RecordBytes negative = new RecordBytes()
                .attributes(0)
                .varlong(0)
                .varint(0)
                .varint(-1)
                .varint(-1)
                .varint(-1);
        assertFraming("found invalid number of record headers -1", batch(0, 0, 1, negative.framed()));
        RecordBytes tooMany = new RecordBytes()
                .attributes(0)
                .varlong(0)
                .varint(0)
                .varint(-1)
                .varint(-1)
                .varint(50)
                .raw(new byte[4]);
        assertFraming(
                "found invalid number of record headers. 50 is larger than the remaining size",
                batch(0, 0, 1, tooMany.framed()));
        RecordBytes nullKey = new RecordBytes()
                .attributes(0)
                .varlong(0)
                .varint(0)
                .varint(-1)
                .varint(-1)
                .varint(1)
                .varint(-1)
                .varint(-1);
        assertFraming("invalid negative header 0 key size -1", batch(0, 0, 1, nullKey.framed()));
    }

    @Test
    void aCountAboveTheRecordsPresentIsRejected() {
        byte[] two = concat(
                RecordBytes.simple(0, "a", "1").framed(),
                RecordBytes.simple(1, "b", "2").framed());
        assertFraming("premature EOF reached: the batch declares 3 records and holds 2", batch(0, 2, 3, two));
    }

    @Test
    void bytesAfterTheDeclaredRecordsAreRejected() {
        byte[] two = concat(
                RecordBytes.simple(0, "a", "1").framed(),
                RecordBytes.simple(1, "b", "2").framed());
        assertFraming("records still remaining", batch(0, 1, 1, two));
        assertFraming("records still remaining", batch(0, 0, 0, two));
    }

    @Test
    void aNegativeCountIsRejected() {
        assertFraming(
                "found invalid record count -1",
                batch(0, 0, -1, RecordBytes.simple(0, "a", "1").framed()));
    }

    @Test
    void offsetDeltasMustRiseWithinTheLastOffsetDelta() {
        byte[] repeated = concat(
                RecordBytes.simple(0, "a", "1").framed(),
                RecordBytes.simple(0, "b", "2").framed());
        assertFraming("offset delta 0 does not rise above the previous record's 0", batch(0, 1, 2, repeated));
        byte[] past = concat(
                RecordBytes.simple(0, "a", "1").framed(),
                RecordBytes.simple(5, "b", "2").framed());
        assertFraming("offset delta 5 exceeds the batch's last offset delta 1", batch(0, 1, 2, past));
        assertFraming(
                "offset delta -1 does not rise",
                batch(0, 0, 1, RecordBytes.simple(-1, "a", "1").framed()));
    }

    @Test
    void compactedBatchesWithOffsetGapsAreRead() {
        byte[] gaps = concat(
                RecordBytes.simple(0, "a", "1").framed(),
                RecordBytes.simple(4, "b", "2").framed());
        List<Record> records = view(batch(0, 9, 2, gaps)).records(BOUND);
        assertEquals(List.of(0L, 4L), records.stream().map(Record::offset).toList());
    }

    @ParameterizedTest
    @EnumSource(value = CompressionType.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void compressedCountMismatchesAreRejected(CompressionType codec) {
        byte[] two = concat(
                RecordBytes.simple(0, "a", "1").framed(),
                RecordBytes.simple(1, "b", "2").framed());
        byte[] compressed = RawBatches.compress(codec, two);
        InvalidRecordException more = framingError(batch(codec.id(), 2, 3, compressed));
        assertTrue(
                more.getMessage().contains("premature EOF reached: the batch declares 3 records and holds 2"),
                more.getMessage());
        assertTrue(
                more.getMessage().startsWith("seg.log at byte 4096 (record 2 at decompressed byte "),
                more.getMessage());
        assertTrue(
                framingError(batch(codec.id(), 0, 1, compressed)).getMessage().contains("records still remaining"));
    }

    @ParameterizedTest
    @EnumSource(value = CompressionType.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void damagedCompressedDataIsCorrupt(CompressionType codec) {
        byte[] records = concat(
                RecordBytes.simple(0, "a", "1".repeat(3_000)).framed(),
                RecordBytes.simple(1, "b", "2".repeat(3_000)).framed());
        byte[] compressed = RawBatches.compress(codec, records);
        // gzip's header bytes 4-9 (mtime, flags, OS) are covered by no gzip checksum, only by the batch CRC.
        int header = codec == CompressionType.GZIP ? 2 : 4;
        for (int i : new int[] {0, header, compressed.length / 2, compressed.length - 1}) {
            byte[] damaged = compressed.clone();
            damaged[i] ^= 0x5A;
            RecordBatch batch = view(batch(codec.id(), 1, 2, damaged));
            batch.ensureValid();
            try {
                List<Record> read = batch.records(BOUND);
                fail("damage at " + i + " of " + codec + " went unnoticed: " + read.size() + " records");
            } catch (CorruptRecordException | InvalidRecordException e) {
                assertTrue(e.getMessage().startsWith("seg.log at byte 4096"), e.getMessage());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = CompressionType.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void aDecompressionBombIsStoppedAtTheBound(CompressionType codec) {
        ByteBuffer bomb = new RecordBatchBuilder(Compression.of(codec), TimestampType.CREATE_TIME, 0)
                .append(RawBatches.TIMESTAMP, null, new byte[8 << 20])
                .build();
        assertTrue(bomb.limit() < 1 << 20, "the bomb compresses well: " + bomb.limit());
        RecordBatch batch = view(bomb);
        batch.ensureValid();
        RecordTooLargeException e = assertThrows(RecordTooLargeException.class, () -> batch.records(BOUND));
        assertTrue(e.getMessage().startsWith("seg.log at byte 4096: "), e.getMessage());
        assertTrue(e.getMessage().contains(String.valueOf(BOUND)), e.getMessage());
        assertEquals(8 << 20, batch.records(9 << 20).getFirst().valueSize());
    }

    @Test
    void aSnappyChunkDeclaringAHugeSizeIsRefusedBeforeAllocating() {
        byte[] header = {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0, 0, 0, 0, 1, 0, 0, 0, 1};
        byte[] chunk = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xF0, 0x07, 0x00, 0x41};
        byte[] stream =
                concat(header, ByteBuffer.allocate(4).putInt(0, chunk.length).array(), chunk);
        RecordBatch batch = view(batch(CompressionType.SNAPPY.id(), 0, 1, stream));
        assertThrows(RecordTooLargeException.class, () -> batch.records(BOUND));
    }

    @Test
    void anUnknownCodecIdIsUnsupported() {
        ByteBuffer bytes =
                RawBatches.fixCrc(goodBatch(Compression.NONE).putShort(RecordBatch.ATTRIBUTES_OFFSET, (short) 5));
        RecordBatch batch = view(bytes);
        batch.ensureValid();
        UnsupportedCompressionTypeException e =
                assertThrows(UnsupportedCompressionTypeException.class, () -> batch.records(BOUND));
        assertEquals("seg.log at byte 4096: unknown compression type id 5", e.getMessage());
    }
}
