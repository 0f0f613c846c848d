package io.krabka.kernel.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.record.RecordFilter.BatchRetention;
import io.krabka.kernel.record.RecordFilter.BatchRetentionResult;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.LongPredicate;
import org.apache.kafka.common.record.internal.MemoryRecords.FilterResult;
import org.apache.kafka.common.utils.internals.BufferSupplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link RecordsFilter} against Kafka 4.4's own {@code MemoryRecords.filterTo} with the same decisions: the bytes
 * written must be Kafka's, byte for byte, whatever the codec, the timestamp type, the producer fields, the
 * tombstones, the delete horizon and the batch retention.
 */
class RecordsFilterTest {

    private static final long T = 1_700_000_000_000L;
    private static final long NOW = T + 60_000;
    private static final long DELETE_RETENTION_MS = 86_400_000L;

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void aBatchLosingRecordsIsRebuiltAsKafkaRebuildsIt(CompressionType codec) {
        for (TimestampType type : List.of(TimestampType.CREATE_TIME, TimestampType.LOG_APPEND_TIME)) {
            ByteBuffer batch = batch(codec, type, 100, 7, 3, false, false, 10);
            assertSameAsKafka(batch, offset -> offset % 3 != 1, BatchRetention.DELETE_EMPTY, false);
        }
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void aBatchKeepingEveryRecordIsCopiedUnlessItHasTombstonesWithoutAHorizon(CompressionType codec) {
        ByteBuffer plain = batch(codec, TimestampType.CREATE_TIME, 0, -1, -1, false, false, 6);
        assertSameAsKafka(plain, offset -> true, BatchRetention.DELETE_EMPTY, false);
        ByteBuffer tombstones = batch(codec, TimestampType.CREATE_TIME, 0, -1, -1, false, true, 6);
        assertSameAsKafka(tombstones, offset -> true, BatchRetention.DELETE_EMPTY, false);
        assertSameAsKafka(tombstones, offset -> offset > 2, BatchRetention.DELETE_EMPTY, false);
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void aBatchLeftEmptyGoesOrStaysAsABareHeader(CompressionType codec) {
        ByteBuffer batch = batch(codec, TimestampType.CREATE_TIME, 40, 9, 12, true, false, 5);
        assertSameAsKafka(batch, offset -> false, BatchRetention.RETAIN_EMPTY, false);
        assertSameAsKafka(batch, offset -> false, BatchRetention.DELETE_EMPTY, false);
        assertSameAsKafka(batch, offset -> true, BatchRetention.DELETE, false);
    }

    @ParameterizedTest
    @EnumSource(
            value = CompressionType.class,
            names = {"NONE", "ZSTD"})
    void aMarkerOfAnEmptyTransactionGetsADeleteHorizon(CompressionType codec) {
        ByteBuffer marker = new RecordBatchBuilder(Compression.of(codec), TimestampType.CREATE_TIME, 77)
                .producer(9, (short) 2, -1)
                .partitionLeaderEpoch(4)
                .appendEndTxnMarker(T, new EndTransactionMarker(ControlRecordType.ABORT, 5))
                .build();
        assertSameAsKafka(marker, offset -> true, BatchRetention.DELETE_EMPTY, true);
        assertSameAsKafka(marker, offset -> true, BatchRetention.DELETE_EMPTY, false);
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void batchesOneAfterAnotherAreFilteredInOnePass(CompressionType codec) {
        ByteBuffer all = ByteBuffer.allocate(64 * 1024);
        all.put(batch(codec, TimestampType.CREATE_TIME, 0, -1, -1, false, true, 4));
        all.put(batch(codec, TimestampType.LOG_APPEND_TIME, 4, 3, 0, false, false, 8));
        all.put(batch(codec, TimestampType.CREATE_TIME, 12, 3, 8, false, false, 3));
        assertSameAsKafka(all.flip(), offset -> offset % 2 == 0, BatchRetention.DELETE_EMPTY, false);
    }

    /** Filters with ours and Kafka's; the bytes and the counts must agree. */
    private static void assertSameAsKafka(
            ByteBuffer records, LongPredicate retain, BatchRetention retention, boolean markerForEmptyTxn) {
        ByteBufferOutputStream out = new ByteBufferOutputStream(16);
        RecordsFilter.FilterResult ours = new RecordsFilter()
                .filterTo(
                        MemoryRecords.readableRecords(records, "test", 0),
                        new Ours(retain, retention, markerForEmptyTxn),
                        NOW + DELETE_RETENTION_MS,
                        out,
                        1 << 26);
        ByteBuffer kafkaOut = ByteBuffer.allocate(64 * 1024);
        FilterResult kafka = org.apache.kafka.common.record.internal.MemoryRecords.readableRecords(records.duplicate())
                .filterTo(new Theirs(retain, retention, markerForEmptyTxn), kafkaOut, BufferSupplier.create(), 1 << 26);
        ByteBuffer theirs = kafka.outputBuffer().flip();
        assertArrayEquals(Kafka.bytes(theirs), Kafka.bytes(out.buffer().flip()), "the bytes written");
        assertEquals(kafka.messagesRead(), ours.messagesRead(), "records read");
        assertEquals(kafka.bytesRead(), ours.bytesRead(), "bytes read");
        assertEquals(kafka.messagesRetained(), ours.messagesRetained(), "records kept");
        assertEquals(kafka.bytesRetained(), ours.bytesRetained(), "bytes kept");
        if (kafka.messagesRetained() > 0 || kafka.bytesRetained() > 0) {
            assertEquals(kafka.maxOffset(), ours.maxOffset(), "the largest offset written");
        }
        Kafka.batches(theirs);
    }

    /** A batch of {@code count} keyed records with headers; every third a tombstone when asked. */
    private static ByteBuffer batch(
            CompressionType codec,
            TimestampType type,
            long baseOffset,
            long producerId,
            int baseSequence,
            boolean transactional,
            boolean tombstones,
            int count) {
        RecordBatchBuilder builder = new RecordBatchBuilder(Compression.of(codec), type, baseOffset)
                .producer(producerId, producerId < 0 ? RecordBatch.NO_PRODUCER_EPOCH : (short) 3, baseSequence)
                .transactional(transactional)
                .partitionLeaderEpoch(2);
        if (type == TimestampType.LOG_APPEND_TIME) {
            builder.logAppendTime(T + 500);
        }
        for (int i = 0; i < count; i++) {
            String value = tombstones && i % 3 == 0 ? null : "value-" + i + "-" + "x".repeat(i * 7);
            builder.appendWithOffset(
                    baseOffset + i,
                    T + 10L * i,
                    utf8("key-" + (i % 4)),
                    value == null ? null : utf8(value),
                    i % 2 == 0 ? List.of(Header.of("h" + i, "v".getBytes(StandardCharsets.UTF_8))) : List.of());
        }
        return builder.build();
    }

    private static ByteBuffer utf8(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    private record Ours(LongPredicate retain, BatchRetention retention, boolean markerForEmptyTxn)
            implements RecordFilter {

        @Override
        public BatchRetentionResult checkBatchRetention(RecordBatch batch) {
            return new BatchRetentionResult(retention, markerForEmptyTxn);
        }

        @Override
        public boolean shouldRetainRecord(RecordBatch batch, RecordCursor record) {
            return retain.test(record.offset());
        }

        @Override
        public boolean shouldRetainLegacyRecord(Record record) {
            return retain.test(record.offset());
        }
    }

    private static final class Theirs extends org.apache.kafka.common.record.internal.MemoryRecords.RecordFilter {
        private final LongPredicate retain;
        private final String retentionName;
        private final boolean markerForEmptyTxn;

        Theirs(LongPredicate retain, RecordFilter.BatchRetention retention, boolean markerForEmptyTxn) {
            super(NOW, DELETE_RETENTION_MS);
            this.retain = retain;
            this.retentionName = retention.name();
            this.markerForEmptyTxn = markerForEmptyTxn;
        }

        @Override
        protected org.apache.kafka.common.record.internal.MemoryRecords.RecordFilter.BatchRetentionResult
                checkBatchRetention(org.apache.kafka.common.record.internal.RecordBatch batch) {
            return new org.apache.kafka.common.record.internal.MemoryRecords.RecordFilter.BatchRetentionResult(
                    org.apache.kafka.common.record.internal.MemoryRecords.RecordFilter.BatchRetention.valueOf(
                            retentionName),
                    markerForEmptyTxn);
        }

        @Override
        protected boolean shouldRetainRecord(
                org.apache.kafka.common.record.internal.RecordBatch batch,
                org.apache.kafka.common.record.internal.Record record) {
            return retain.test(record.offset());
        }
    }
}
