package io.krabka.kernel.log;

import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.EndTransactionMarker;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Batches for the log tests, built by the kernel's own builder (Kafka's classes judge it in the record tests). */
final class TestBatches {

    static final long T0 = 1_700_000_000_000L;

    private TestBatches() {}

    /** An uncompressed CreateTime batch of {@code count} records from {@code baseOffset}, timestamps rising by 1. */
    static ByteBuffer batch(long baseOffset, int count, long firstTimestamp) {
        return batch(Compression.NONE, baseOffset, count, firstTimestamp, -1);
    }

    /** A batch of {@code count} records with values of 20 to 80 bytes, stamped with {@code leaderEpoch}. */
    static ByteBuffer batch(Compression compression, long baseOffset, int count, long firstTimestamp, int leaderEpoch) {
        RecordBatchBuilder builder = new RecordBatchBuilder(compression, TimestampType.CREATE_TIME, baseOffset)
                .partitionLeaderEpoch(leaderEpoch);
        appendRecords(builder, baseOffset, count, firstTimestamp);
        return builder.build();
    }

    /** An uncompressed batch of one record per value from {@code offset}, all stamped {@code timestamp}. */
    static ByteBuffer simple(long offset, long timestamp, String... values) {
        RecordBatchBuilder builder = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, offset);
        for (String value : values) {
            builder.append(timestamp, null, value.getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    /** A batch of a producer: idempotent, or transactional. */
    static ByteBuffer producerBatch(
            long baseOffset,
            int count,
            long timestamp,
            long producerId,
            short epoch,
            int sequence,
            boolean transactional) {
        RecordBatchBuilder builder = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, baseOffset)
                .producer(producerId, epoch, sequence)
                .transactional(transactional)
                .partitionLeaderEpoch(0);
        appendRecords(builder, baseOffset, count, timestamp);
        return builder.build();
    }

    /** A transaction marker at {@code offset}. */
    static ByteBuffer marker(
            long offset, long timestamp, long producerId, short epoch, ControlRecordType type, int coordinatorEpoch) {
        return new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, offset)
                .producer(producerId, epoch, -1)
                .partitionLeaderEpoch(0)
                .appendEndTxnMarker(timestamp, new EndTransactionMarker(type, coordinatorEpoch))
                .build();
    }

    private static void appendRecords(RecordBatchBuilder builder, long baseOffset, int count, long firstTimestamp) {
        for (int i = 0; i < count; i++) {
            long offset = baseOffset + i;
            String value = "value-" + offset + "-" + "x".repeat((int) (offset * 7 % 61));
            builder.append(
                    firstTimestamp + i,
                    ("key-" + offset).getBytes(StandardCharsets.UTF_8),
                    value.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The batches' bytes laid end to end. */
    static ByteBuffer concat(ByteBuffer... batches) {
        int size = 0;
        for (ByteBuffer b : batches) {
            size += b.remaining();
        }
        ByteBuffer all = ByteBuffer.allocate(size);
        for (ByteBuffer b : batches) {
            all.put(b.duplicate());
        }
        return all.flip();
    }

    /** The batches as records to append. */
    static MemoryRecords records(ByteBuffer... batches) {
        return MemoryRecords.readableRecords(concat(batches), "test", 0);
    }

    static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
