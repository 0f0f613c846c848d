package io.krabka.kernel.restore;

import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.EndTransactionMarker;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A segment's bytes built batch by batch with the kernel's own writer, remembering where each batch lies. */
final class TestSegment {

    static final long T0 = 1_700_000_000_000L;

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final List<Integer> positions = new ArrayList<>();

    /** Appends {@code count} records with keys and values from {@code baseOffset}, stamped from {@code t} up by 1. */
    TestSegment records(Compression compression, long baseOffset, int count, long t) {
        RecordBatchBuilder builder =
                new RecordBatchBuilder(compression, TimestampType.CREATE_TIME, baseOffset).partitionLeaderEpoch(3);
        return append(fill(builder, baseOffset, count, t));
    }

    /** Appends a producer's batch: idempotent, or transactional. */
    TestSegment producer(
            long baseOffset, int count, long t, long producerId, short epoch, int sequence, boolean transactional) {
        RecordBatchBuilder builder = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, baseOffset)
                .producer(producerId, epoch, sequence)
                .transactional(transactional)
                .partitionLeaderEpoch(4);
        return append(fill(builder, baseOffset, count, t));
    }

    /** Appends a transaction marker. */
    TestSegment marker(long offset, long t, long producerId, short epoch, ControlRecordType type) {
        return append(new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, offset)
                .producer(producerId, epoch, RecordBatch.NO_SEQUENCE)
                .transactional(true)
                .partitionLeaderEpoch(4)
                .appendEndTxnMarker(t, new EndTransactionMarker(type, 7))
                .build());
    }

    /** Appends bytes as they are: a batch, or anything a test wants in the stream. */
    TestSegment append(ByteBuffer batch) {
        positions.add(bytes.size());
        byte[] b = new byte[batch.remaining()];
        batch.duplicate().get(b);
        bytes.writeBytes(b);
        return this;
    }

    private static ByteBuffer fill(RecordBatchBuilder builder, long baseOffset, int count, long t) {
        for (int i = 0; i < count; i++) {
            long offset = baseOffset + i;
            builder.append(
                    t + i,
                    ("key-" + offset).getBytes(StandardCharsets.UTF_8),
                    ("value-" + offset + "-" + "v".repeat((int) (offset * 11 % 97))).getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    /** Where the {@code n}th appended batch starts. */
    int position(int n) {
        return positions.get(n);
    }

    /** The {@code n}th batch's size. */
    int size(int n) {
        return (n + 1 < positions.size() ? positions.get(n + 1) : bytes.size()) - positions.get(n);
    }

    /** The segment's bytes. */
    byte[] bytes() {
        return bytes.toByteArray();
    }

    /** Recomputes the CRC of the batch at {@code position} of {@code segment}, after a test changed covered bytes. */
    static void resealChecksum(byte[] segment, int position) {
        ByteBuffer buffer = ByteBuffer.wrap(segment);
        RecordBatch batch = RecordBatch.at(buffer, position, "test", position);
        buffer.putInt(position + RecordBatch.CRC_OFFSET, (int) batch.computeChecksum());
    }
}
