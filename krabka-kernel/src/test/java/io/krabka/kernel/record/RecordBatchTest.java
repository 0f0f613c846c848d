package io.krabka.kernel.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalLong;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.junit.jupiter.api.Test;

class RecordBatchTest {

    private static final long T = 1_700_000_000_000L;

    @Test
    void headerFieldsAndAttributesDecode() {
        ByteBuffer bytes = new RecordBatchBuilder(
                        Compression.of(CompressionType.LZ4), TimestampType.LOG_APPEND_TIME, 100)
                .producer(9, (short) 2, 40)
                .transactional(true)
                .partitionLeaderEpoch(5)
                .logAppendTime(T + 50)
                .append(T, "a".getBytes(), "1".getBytes())
                .append(T + 1, "b".getBytes(), "2".getBytes())
                .build();
        RecordBatch batch = RecordBatch.at(bytes, 0, "b", 0);
        assertEquals(2, batch.magic());
        assertEquals(100, batch.baseOffset());
        assertEquals(1, batch.lastOffsetDelta());
        assertEquals(101, batch.lastOffset());
        assertEquals(102, batch.nextOffset());
        assertEquals(bytes.limit(), batch.sizeInBytes());
        assertEquals(5, batch.partitionLeaderEpoch());
        assertEquals(CompressionType.LZ4, batch.compressionType());
        assertTrue(batch.isCompressed());
        assertEquals(TimestampType.LOG_APPEND_TIME, batch.timestampType());
        assertTrue(batch.isTransactional());
        assertFalse(batch.isControlBatch());
        assertEquals(OptionalLong.empty(), batch.deleteHorizonMs());
        assertEquals(T, batch.baseTimestamp());
        assertEquals(T + 50, batch.maxTimestamp());
        assertEquals(9, batch.producerId());
        assertTrue(batch.hasProducerId());
        assertEquals(2, batch.producerEpoch());
        assertEquals(40, batch.baseSequence());
        assertEquals(41, batch.lastSequence());
        assertEquals(2, batch.recordsCount());
        assertEquals(0x0B | 0x10, batch.attributes());
        assertTrue(batch.isValid());
    }

    @Test
    void sequencesWrapPastIntegerMaxAsKafkas() {
        ByteBuffer bytes = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0)
                .producer(1, (short) 0, Integer.MAX_VALUE - 1)
                .append(T, null, "a".getBytes())
                .append(T, null, "b".getBytes())
                .append(T, null, "c".getBytes())
                .build();
        RecordBatch batch = RecordBatch.at(bytes, 0, "b", 0);
        assertEquals(0, batch.lastSequence());
        assertEquals(
                List.of(Integer.MAX_VALUE - 1, Integer.MAX_VALUE, 0),
                batch.records(1 << 20).stream().map(Record::sequence).toList());
        assertEquals(Kafka.batches(bytes).getFirst().lastSequence(), batch.lastSequence());
        assertEquals(
                -1,
                RecordBatch.at(
                                new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0)
                                        .append(T, null, "a".getBytes())
                                        .build(),
                                0,
                                "b",
                                0)
                        .lastSequence());
    }

    @Test
    void onlyTheMaxTimestampSetterRecomputesTheCrcAndOnlyOnChange() {
        ByteBuffer bytes = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0)
                .append(T, null, "a".getBytes())
                .build();
        RecordBatch batch = RecordBatch.at(bytes, 0, "b", 0);
        long crc = batch.checksum();
        batch.setLastOffset(77);
        batch.setPartitionLeaderEpoch(3);
        batch.setMaxTimestamp(TimestampType.CREATE_TIME, T);
        assertEquals(crc, batch.checksum());
        assertEquals(77, batch.baseOffset());
        assertTrue(batch.isValid());
        batch.setMaxTimestamp(TimestampType.LOG_APPEND_TIME, T);
        assertNotEquals(crc, batch.checksum());
        assertTrue(batch.isValid());
        assertEquals(TimestampType.LOG_APPEND_TIME, batch.timestampType());
    }

    @Test
    void uncompressedRecordsAreViewsOfTheBatchBuffer() {
        ByteBuffer bytes = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0)
                .append(T, "key".getBytes(), "value".getBytes())
                .build();
        try (RecordCursor cursor = RecordBatch.at(bytes, 0, "b", 0).cursor(0)) {
            assertTrue(cursor.next());
            ByteBuffer value = cursor.value();
            bytes.put(bytes.limit() - 2, (byte) 'X');
            assertEquals('X', value.get(4), "no copy: the view sees the batch's bytes");
            assertEquals(3, cursor.keySize());
            assertFalse(cursor.next());
            assertFalse(cursor.next());
        }
    }

    @Test
    void markersAndControlRecordsMatchKafkas() {
        ByteBuffer ours = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 30)
                .producer(8, (short) 4, -1)
                .partitionLeaderEpoch(2)
                .appendEndTxnMarker(T, new EndTransactionMarker(ControlRecordType.ABORT, 11))
                .build();
        ByteBuffer kafkas = MemoryRecords.withEndTransactionMarker(
                        30,
                        T,
                        2,
                        8,
                        (short) 4,
                        new org.apache.kafka.common.record.internal.EndTransactionMarker(
                                org.apache.kafka.common.record.internal.ControlRecordType.ABORT, 11))
                .buffer();
        assertArrayEquals(Kafka.bytes(kafkas), Kafka.bytes(ours));

        RecordBatch batch = RecordBatch.at(kafkas, 0, "kafka", 0);
        assertTrue(batch.isControlBatch());
        assertTrue(batch.isTransactional());
        Record record = batch.records(1 << 20).getFirst();
        assertSame(ControlRecordType.ABORT, ControlRecordType.parse(record.key()));
        assertEquals(new EndTransactionMarker(ControlRecordType.ABORT, 11), EndTransactionMarker.deserialize(record));

        for (ControlRecordType type : ControlRecordType.values()) {
            if (type != ControlRecordType.UNKNOWN) {
                var kafka = org.apache.kafka.common.record.internal.ControlRecordType.fromTypeId(type.type());
                assertEquals(type.name(), kafka.name());
                assertEquals(kafka.recordKey(), type.recordKey());
            }
        }
        assertSame(
                ControlRecordType.UNKNOWN,
                ControlRecordType.parse(ByteBuffer.allocate(4).putShort(2, (short) 42)));
        assertThrows(InvalidRecordException.class, () -> ControlRecordType.parse(ByteBuffer.allocate(2)));
    }

    @Test
    void aDeleteHorizonTakesTheBaseTimestamp() {
        ByteBuffer bytes = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0)
                .deleteHorizonMs(T + 999)
                .append(T, "k".getBytes(), null)
                .build();
        RecordBatch batch = RecordBatch.at(bytes, 0, "b", 0);
        assertEquals(OptionalLong.of(T + 999), batch.deleteHorizonMs());
        assertEquals(T, batch.records(1024).getFirst().timestamp(), "the record's time, a delta from the horizon");
        MutableRecordBatch kafka = Kafka.batches(bytes).getFirst();
        assertEquals(OptionalLong.of(T + 999), kafka.deleteHorizonMs());
        assertEquals(T, kafka.iterator().next().timestamp());
    }

    @Test
    void anEmptyBatchKeepsItsHeader() {
        RecordBatch batch = RecordBatch.at(
                new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 50).build(), 0, "b", 0);
        batch.ensureValid();
        assertEquals(0, batch.recordsCount());
        assertEquals(List.of(), batch.records(0));
        assertEquals(RecordBatch.RECORD_BATCH_OVERHEAD, batch.sizeInBytes());
    }

    @Test
    void aLegacyEntryIsNotAV2Batch() {
        ByteBuffer legacy = LegacyFixtures.entry(0, LegacyFixtures.message((byte) 1, 0, T, "k", "v"));
        assertThrows(CorruptRecordException.class, () -> RecordBatch.at(legacy, 0, "b", 8));
    }

    @Test
    void mixedLogsIterateInOrderAndReportValidBytes() {
        ByteBuffer legacy = LegacyFixtures.entry(0, LegacyFixtures.message((byte) 0, 0, 0, "k", "v"));
        ByteBuffer v2 = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 1)
                .append(T, null, "x".getBytes())
                .build();
        ByteBuffer log = ByteBuffer.allocate(legacy.limit() + v2.limit() + 5)
                .put(legacy)
                .put(v2)
                .put(new byte[5])
                .flip();
        List<LogBatch> batches = new java.util.ArrayList<>();
        io.krabka.kernel.record.MemoryRecords records =
                io.krabka.kernel.record.MemoryRecords.readableRecords(log, "mixed", 0);
        records.forEach(batches::add);
        assertEquals(2, batches.size());
        assertEquals(0, batches.get(0).magic());
        assertEquals(2, batches.get(1).magic());
        assertEquals(legacy.limit(), batches.get(1).sourcePosition());
        assertEquals(log.limit() - 5, records.validBytes());
    }
}
