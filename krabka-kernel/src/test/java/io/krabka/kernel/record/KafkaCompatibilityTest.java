package io.krabka.kernel.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Kafka 4.4 reads what we write and we read what it writes, for every codec and timestamp type. */
class KafkaCompatibilityTest {

    private static final long BASE_OFFSET = 1_000;
    private static final long LOG_APPEND_TIME = 1_700_000_009_999L;
    private static final long BOUND = 64L << 20;

    static Stream<Arguments> codecsAndTimestampTypes() {
        List<Arguments> cases = new ArrayList<>();
        for (CompressionType codec : CompressionType.values()) {
            for (TimestampType type : List.of(TimestampType.CREATE_TIME, TimestampType.LOG_APPEND_TIME)) {
                cases.add(Arguments.of(Compression.of(codec), type));
            }
        }
        cases.add(Arguments.of(new Compression(CompressionType.GZIP, 9), TimestampType.CREATE_TIME));
        cases.add(Arguments.of(new Compression(CompressionType.LZ4, 1), TimestampType.CREATE_TIME));
        cases.add(Arguments.of(new Compression(CompressionType.LZ4, 17), TimestampType.CREATE_TIME));
        cases.add(Arguments.of(new Compression(CompressionType.ZSTD, 19), TimestampType.CREATE_TIME));
        cases.add(Arguments.of(new Compression(CompressionType.ZSTD, -5), TimestampType.CREATE_TIME));
        return cases.stream();
    }

    /** Records of every shape: null and empty keys and values, headers, a value past one LZ4 and snappy block. */
    static List<Record> sampleRecords(TimestampType type) {
        Random random = new Random(42);
        byte[] large = new byte[200_000];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) (i % 7 == 0 ? random.nextInt() : i / 1000);
        }
        byte[] incompressible = new byte[70_000];
        random.nextBytes(incompressible);
        List<Record> records = new ArrayList<>();
        long t = 1_700_000_000_000L;
        records.add(record(BASE_OFFSET, t, "k0", "v0", List.of()));
        records.add(record(
                BASE_OFFSET + 1, t - 5, null, "no key", List.of(Header.of("h", "x".getBytes(StandardCharsets.UTF_8)))));
        records.add(record(
                BASE_OFFSET + 2,
                t + 700,
                "tombstone",
                null,
                List.of(Header.of("null-value", null), Header.of("ünïcode", new byte[0]))));
        records.add(new Record(
                BASE_OFFSET + 3, t + 1, -1, (byte) 0, ByteBuffer.wrap(new byte[0]), ByteBuffer.wrap(large), List.of()));
        records.add(new Record(BASE_OFFSET + 4, t + 2, -1, (byte) 0, null, ByteBuffer.wrap(incompressible), List.of()));
        for (int i = 5; i < 300; i++) {
            records.add(record(BASE_OFFSET + i, t + i, "key-" + i, "value-" + i + "-".repeat(i % 50), List.of()));
        }
        if (type == TimestampType.LOG_APPEND_TIME) {
            return records.stream()
                    .map(r -> new Record(
                            r.offset(), LOG_APPEND_TIME, r.sequence(), r.attributes(), r.key(), r.value(), r.headers()))
                    .toList();
        }
        return records;
    }

    static Record record(long offset, long timestamp, String key, String value, List<Header> headers) {
        return new Record(
                offset,
                timestamp,
                -1,
                (byte) 0,
                key == null ? null : utf8(key),
                value == null ? null : utf8(value),
                headers);
    }

    static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    static ByteBuffer ours(Compression compression, TimestampType type, List<Record> records) {
        RecordBatchBuilder builder = new RecordBatchBuilder(compression, type, BASE_OFFSET)
                .producer(77, (short) 3, 10)
                .transactional(true)
                .partitionLeaderEpoch(12)
                .logAppendTime(LOG_APPEND_TIME);
        for (Record r : records) {
            builder.appendWithOffset(r.offset(), r.timestamp(), r.key(), r.value(), r.headers());
        }
        return builder.build();
    }

    @ParameterizedTest
    @MethodSource("codecsAndTimestampTypes")
    void kafkaReadsAndValidatesWhatWeWrite(Compression compression, TimestampType type) {
        List<Record> records = sampleRecords(type);
        ByteBuffer bytes = ours(compression, type, records);

        List<MutableRecordBatch> batches = Kafka.batches(bytes);
        assertEquals(1, batches.size());
        MutableRecordBatch batch = batches.getFirst();
        assertEquals(compression.type().id(), batch.compressionType().id);
        assertEquals(Kafka.timestampType(type), batch.timestampType());
        assertEquals(BASE_OFFSET, batch.baseOffset());
        assertEquals(BASE_OFFSET + records.size() - 1, batch.lastOffset());
        assertEquals(77, batch.producerId());
        assertEquals(3, batch.producerEpoch());
        assertEquals(10, batch.baseSequence());
        assertEquals(10 + records.size() - 1, batch.lastSequence());
        assertTrue(batch.isTransactional());
        assertFalse(batch.isControlBatch());
        assertEquals(12, batch.partitionLeaderEpoch());
        assertEquals(
                type == TimestampType.LOG_APPEND_TIME ? LOG_APPEND_TIME : 1_700_000_000_000L + 700,
                batch.maxTimestamp());
        assertEquals(withSequences(records, 10), Kafka.records(batch));
    }

    @ParameterizedTest
    @MethodSource("codecsAndTimestampTypes")
    void weReadAndValidateWhatKafkaWrites(Compression compression, TimestampType type) {
        List<Record> records = sampleRecords(type);
        ByteBuffer bytes =
                Kafka.build(compression, type, BASE_OFFSET, LOG_APPEND_TIME, 77, (short) 3, 10, true, 12, records);

        List<LogBatch> batches = new ArrayList<>();
        MemoryRecords.readableRecords(bytes, "kafka-built", 0).forEach(batches::add);
        assertEquals(1, batches.size());
        RecordBatch batch = assertInstanceOf(RecordBatch.class, batches.getFirst());
        batch.ensureValid();
        assertEquals(compression.type(), batch.compressionType());
        assertEquals(type, batch.timestampType());
        assertEquals(BASE_OFFSET, batch.baseOffset());
        assertEquals(BASE_OFFSET + records.size() - 1, batch.lastOffset());
        assertEquals(records.size(), batch.recordsCount());
        assertEquals(77, batch.producerId());
        assertEquals(10 + records.size() - 1, batch.lastSequence());
        assertTrue(batch.isTransactional());
        assertEquals(12, batch.partitionLeaderEpoch());
        assertEquals(withSequences(records, 10), batch.records(BOUND));
    }

    @ParameterizedTest
    @MethodSource("codecsAndTimestampTypes")
    void ourBatchesAreByteForByteKafkas(Compression compression, TimestampType type) {
        List<Record> records = sampleRecords(type);
        ByteBuffer kafkas =
                Kafka.build(compression, type, BASE_OFFSET, LOG_APPEND_TIME, 77, (short) 3, 10, true, 12, records);
        assertArrayEquals(Kafka.bytes(kafkas), Kafka.bytes(ours(compression, type, records)));
    }

    @ParameterizedTest
    @MethodSource("codecsAndTimestampTypes")
    void kafkaReadsOurSettersAfterOffsetAssignment(Compression compression, TimestampType type) {
        ByteBuffer bytes = ours(compression, type, sampleRecords(type));
        RecordBatch batch = RecordBatch.at(bytes, 0, "ours", 0);
        batch.setLastOffset(5_000_000);
        batch.setPartitionLeaderEpoch(99);
        batch.setMaxTimestamp(TimestampType.LOG_APPEND_TIME, 1_800_000_000_000L);

        MutableRecordBatch kafka = Kafka.batches(bytes).getFirst();
        assertEquals(5_000_000, kafka.lastOffset());
        assertEquals(99, kafka.partitionLeaderEpoch());
        assertEquals(1_800_000_000_000L, kafka.maxTimestamp());
        for (org.apache.kafka.common.record.internal.Record r : kafka) {
            assertEquals(1_800_000_000_000L, r.timestamp());
        }
    }

    @ParameterizedTest
    @MethodSource("codecsAndTimestampTypes")
    void manyBatchesEndToEndInBothDirections(Compression compression, TimestampType type) {
        List<Record> records = sampleRecords(type);
        ByteBuffer first = ours(compression, type, records.subList(0, 3));
        ByteBuffer second = Kafka.build(
                compression,
                type,
                BASE_OFFSET + 3,
                LOG_APPEND_TIME,
                -1,
                (short) -1,
                -1,
                false,
                -1,
                records.subList(3, 10));
        ByteBuffer both = ByteBuffer.allocate(first.remaining() + second.remaining())
                .put(first.duplicate())
                .put(second.duplicate())
                .flip();

        assertEquals(2, Kafka.batches(both).size());
        List<Record> read = new ArrayList<>();
        for (LogBatch batch : MemoryRecords.readableRecords(both, "both", 0)) {
            batch.ensureValid();
            read.addAll(batch.records(BOUND));
        }
        List<Record> expected = new ArrayList<>(withSequences(records.subList(0, 3), 10));
        expected.addAll(records.subList(3, 10));
        assertEquals(expected, read);
    }

    private static List<Record> withSequences(List<Record> records, int baseSequence) {
        List<Record> result = new ArrayList<>();
        for (Record r : records) {
            int delta = (int) (r.offset() - records.getFirst().offset());
            result.add(new Record(
                    r.offset(), r.timestamp(), baseSequence + delta, r.attributes(), r.key(), r.value(), r.headers()));
        }
        return result;
    }
}
