package io.krabka.kernel.record;

import static io.krabka.kernel.record.LegacyFixtures.entry;
import static io.krabka.kernel.record.LegacyFixtures.message;
import static io.krabka.kernel.record.LegacyFixtures.wrapper;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Logs written by an old Kafka: v0/v1 entries read, checked and up-converted; Kafka 4.4's reader is the judge. */
class LegacyRecordBatchTest {

    private static final long BOUND = 1 << 20;
    private static final long T = 1_500_000_000_000L;

    /** Our reading of every entry. */
    private static List<Record> ours(ByteBuffer bytes) {
        List<Record> records = new ArrayList<>();
        for (LogBatch batch : MemoryRecords.readableRecords(bytes, "old.log", 0)) {
            assertInstanceOf(LegacyRecordBatch.class, batch).ensureValid();
            records.addAll(batch.records(BOUND));
        }
        return records;
    }

    /** Kafka 4.4's reading of the same bytes (it still reads v0/v1), as ours. */
    private static List<Record> kafkas(ByteBuffer bytes) {
        List<Record> records = new ArrayList<>();
        for (MutableRecordBatch batch : org.apache.kafka.common.record.internal.MemoryRecords.readableRecords(
                        bytes.duplicate())
                .batches()) {
            batch.ensureValid();
            for (org.apache.kafka.common.record.internal.Record r : batch) {
                r.ensureValid();
                records.add(new Record(r.offset(), r.timestamp(), -1, (byte) 0, r.key(), r.value(), List.of()));
            }
        }
        return records;
    }

    private static List<Record> withoutAttributes(List<Record> records) {
        return records.stream()
                .map(r ->
                        new Record(r.offset(), r.timestamp(), r.sequence(), (byte) 0, r.key(), r.value(), r.headers()))
                .toList();
    }

    @Test
    void ourFixtureEncodingIsKafkasLegacyRecord() {
        for (byte magic : new byte[] {0, 1}) {
            var kafka = org.apache.kafka.common.record.internal.LegacyRecord.create(
                    magic,
                    T,
                    "key".getBytes(),
                    "value".getBytes(),
                    org.apache.kafka.common.record.internal.CompressionType.NONE,
                    org.apache.kafka.common.record.TimestampType.CREATE_TIME);
            assertArrayEquals(Kafka.bytes(kafka.buffer()), message(magic, 0, T, "key", "value"));
        }
    }

    @Test
    void uncompressedV0AndV1EntriesAreRead() {
        ByteBuffer log = LegacyFixtures.concat(
                entry(0, message((byte) 0, 0, 0, "k0", "v0")),
                entry(1, message((byte) 0, 0, 0, null, "no key")),
                entry(2, message((byte) 1, 0, T, "k2", null)),
                entry(3, message((byte) 1, 0x08, T + 5, "k3", "appended")));
        List<Record> records = ours(log);
        assertEquals(withoutAttributes(kafkas(log)), withoutAttributes(records));
        assertEquals(
                List.of(-1L, -1L, T, T + 5),
                records.stream().map(Record::timestamp).toList());
    }

    @ParameterizedTest
    @EnumSource(
            value = CompressionType.class,
            names = {"GZIP", "SNAPPY", "LZ4"})
    void compressedV1WrappersUseRelativeInnerOffsets(CompressionType codec) {
        ByteBuffer log = LegacyFixtures.concat(
                entry(
                        12,
                        wrapper(
                                (byte) 1,
                                codec,
                                false,
                                T + 9,
                                entry(0, message((byte) 1, 0, T, "a", "1")),
                                entry(1, message((byte) 1, 0, T + 9, "b", "2")),
                                entry(2, message((byte) 1, 0, T + 3, null, "3")))),
                entry(
                        20,
                        wrapper(
                                (byte) 1,
                                codec,
                                true,
                                T + 100,
                                entry(0, message((byte) 1, 0, T, "c", "4")),
                                entry(1, message((byte) 1, 0, T, "d", "5")))));
        List<Record> records = ours(log);
        assertEquals(
                List.of(10L, 11L, 12L, 19L, 20L),
                records.stream().map(Record::offset).toList());
        assertEquals(
                List.of(T, T + 9, T + 3, T + 100, T + 100),
                records.stream().map(Record::timestamp).toList());
        assertEquals(withoutAttributes(kafkas(log)), withoutAttributes(records));
    }

    @ParameterizedTest
    @EnumSource(
            value = CompressionType.class,
            names = {"GZIP", "SNAPPY", "LZ4"})
    void compressedV0WrappersUseAbsoluteInnerOffsets(CompressionType codec) {
        // v0 LZ4 frames carry the descriptor checksum computed the broken way old clients did; Kafka reads them.
        ByteBuffer log = entry(
                7,
                wrapper(
                        (byte) 0,
                        codec,
                        false,
                        0,
                        entry(6, message((byte) 0, 0, 0, "a", "1")),
                        entry(7, message((byte) 0, 0, 0, "b", "2"))));
        List<Record> records = ours(log);
        assertEquals(List.of(6L, 7L), records.stream().map(Record::offset).toList());
        assertEquals(withoutAttributes(kafkas(log)), withoutAttributes(records));
    }

    @Test
    void aV1WrapperAtOffsetZeroKeepsInnerOffsets() {
        ByteBuffer log = entry(
                0,
                wrapper(
                        (byte) 1,
                        CompressionType.GZIP,
                        false,
                        T,
                        entry(0, message((byte) 1, 0, T, "a", "1")),
                        entry(1, message((byte) 1, 0, T, "b", "2"))));
        assertEquals(List.of(0L, 1L), ours(log).stream().map(Record::offset).toList());
    }

    @ParameterizedTest
    @EnumSource(
            value = CompressionType.class,
            names = {"NONE", "GZIP", "SNAPPY", "LZ4"})
    void upConversionKeepsEveryRecordAndKafkaReadsIt(CompressionType codec) {
        ByteBuffer log = codec == CompressionType.NONE
                ? entry(4, message((byte) 1, 0, T, "k", "v"))
                : entry(
                        14,
                        wrapper(
                                (byte) 1,
                                codec,
                                true,
                                T + 50,
                                entry(0, message((byte) 1, 0, T, "a", "1")),
                                entry(1, message((byte) 1, 0, T + 1, (String) null, null))));
        LegacyRecordBatch legacy = (LegacyRecordBatch) Records.batchAt(log, 0, "old.log", 0);

        RecordBatch converted = legacy.upConvert(BOUND);

        converted.ensureValid();
        assertEquals(codec, converted.compressionType());
        assertEquals(legacy.timestampType(), converted.timestampType());
        assertEquals(legacy.lastOffset(), converted.lastOffset());
        assertEquals(withoutAttributes(legacy.records(BOUND)), withoutAttributes(converted.records(BOUND)));
        assertEquals(
                withoutAttributes(legacy.records(BOUND)),
                withoutAttributes(
                        Kafka.records(Kafka.batches(converted.buffer()).getFirst())));
    }

    @Test
    void v0UpConvertsToCreateTimeWithoutTimestamps() {
        LegacyRecordBatch legacy =
                (LegacyRecordBatch) Records.batchAt(entry(3, message((byte) 0, 0, 0, "k", "v")), 0, "old.log", 0);
        RecordBatch converted = legacy.upConvert(BOUND);
        assertEquals(TimestampType.CREATE_TIME, converted.timestampType());
        assertEquals(-1, converted.records(BOUND).getFirst().timestamp());
    }

    @Test
    void aCrcMismatchIsCorruptAndNamesThePosition() {
        ByteBuffer log = LegacyFixtures.concat(
                entry(0, message((byte) 1, 0, T, "k", "v")), entry(1, message((byte) 1, 0, T, "k", "v")));
        log.put(log.limit() - 1, (byte) 'x');
        List<LogBatch> batches = new ArrayList<>();
        MemoryRecords.readableRecords(log, "old.log", 100).forEach(batches::add);
        batches.getFirst().ensureValid();
        CorruptRecordException e =
                assertThrows(CorruptRecordException.class, () -> batches.get(1).ensureValid());
        assertTrue(
                e.getMessage().startsWith("old.log at byte " + (100 + log.limit() / 2 + 12) + ": record is corrupt"),
                e.getMessage());
    }

    @Test
    void anInnerCrcMismatchIsCorrupt() {
        byte[] bad = message((byte) 1, 0, T, "a", "1");
        bad[bad.length - 1] ^= 1;
        ByteBuffer log = entry(0, wrapper((byte) 1, CompressionType.GZIP, false, T, entry(0, bad)));
        assertThrows(CorruptRecordException.class, () -> ours(log));
    }

    @Test
    void malformedWrappersAreInvalid() {
        ByteBuffer below = entry(
                1,
                wrapper(
                        (byte) 1,
                        CompressionType.GZIP,
                        false,
                        T,
                        entry(0, message((byte) 1, 0, T, "a", "1")),
                        entry(5, message((byte) 1, 0, T, "b", "2"))));
        assertTrue(assertThrows(InvalidRecordException.class, () -> ours(below))
                .getMessage()
                .contains("wrapper offset '1' is less than the last inner message offset '5'"));
        ByteBuffer empty = entry(0, wrapper((byte) 1, CompressionType.GZIP, false, T));
        assertThrows(InvalidRecordException.class, () -> ours(empty));
        ByteBuffer nested = entry(
                0,
                wrapper(
                        (byte) 1,
                        CompressionType.GZIP,
                        false,
                        T,
                        entry(
                                0,
                                wrapper(
                                        (byte) 1,
                                        CompressionType.GZIP,
                                        false,
                                        T,
                                        entry(0, message((byte) 1, 0, T, "a", "1"))))));
        assertTrue(assertThrows(InvalidRecordException.class, () -> ours(nested))
                .getMessage()
                .contains("inner messages must not be compressed"));
        ByteBuffer nullValue = entry(0, message((byte) 1, CompressionType.GZIP.id(), T, "k", null));
        assertThrows(InvalidRecordException.class, () -> ours(nullValue));
        ByteBuffer zstd = entry(0, message((byte) 1, CompressionType.ZSTD.id(), T, null, "x"));
        assertThrows(InvalidRecordException.class, () -> ours(zstd));
    }

    @Test
    void badFramingIsCorrupt() {
        byte[] longKey = message((byte) 1, 0, T, "k", "v");
        ByteBuffer.wrap(longKey).putInt(LegacyRecord.KEY_SIZE_OFFSET_V1, 400);
        assertThrows(CorruptRecordException.class, () -> Records.batchAt(entry(0, longKey), 0, "old.log", 0));
        byte[] negativeValue = message((byte) 0, 0, 0, null, "v");
        ByteBuffer.wrap(negativeValue).putInt(10, -2);
        assertThrows(CorruptRecordException.class, () -> Records.batchAt(entry(0, negativeValue), 0, "old.log", 0));
    }

    @Test
    void aWrapperThatDecompressesPastTheBoundIsTooLarge() {
        ByteBuffer bomb = entry(
                0,
                wrapper(
                        (byte) 1,
                        CompressionType.GZIP,
                        false,
                        T,
                        entry(0, message((byte) 1, 0, T, null, new String(new char[2 << 20])))));
        assertThrows(RecordTooLargeException.class, () -> ours(bomb));
    }
}
