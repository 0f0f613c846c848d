package io.krabka.kernel.record;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.MutableRecordBatch;

/** Kafka 4.4's own record classes, the judge of the format: conversions between its types and ours. */
final class Kafka {

    private Kafka() {}

    static org.apache.kafka.common.compress.Compression compression(Compression ours) {
        return switch (ours.type()) {
            case NONE -> org.apache.kafka.common.compress.Compression.NONE;
            case GZIP ->
                org.apache.kafka.common.compress.Compression.gzip()
                        .level(ours.level())
                        .build();
            case SNAPPY -> org.apache.kafka.common.compress.Compression.snappy().build();
            case LZ4 ->
                org.apache.kafka.common.compress.Compression.lz4()
                        .level(ours.level())
                        .build();
            case ZSTD ->
                org.apache.kafka.common.compress.Compression.zstd()
                        .level(ours.level())
                        .build();
        };
    }

    static org.apache.kafka.common.record.TimestampType timestampType(TimestampType ours) {
        return switch (ours) {
            case NO_TIMESTAMP_TYPE -> org.apache.kafka.common.record.TimestampType.NO_TIMESTAMP_TYPE;
            case CREATE_TIME -> org.apache.kafka.common.record.TimestampType.CREATE_TIME;
            case LOG_APPEND_TIME -> org.apache.kafka.common.record.TimestampType.LOG_APPEND_TIME;
        };
    }

    static org.apache.kafka.common.header.Header[] headers(List<Header> headers) {
        return headers.stream()
                .map(h -> new RecordHeader(h.key(), h.value() == null ? null : bytes(h.value())))
                .toArray(org.apache.kafka.common.header.Header[]::new);
    }

    /** A Kafka-built batch of {@code records} (their offsets must rise from {@code baseOffset}). */
    static ByteBuffer build(
            Compression compression,
            TimestampType type,
            long baseOffset,
            long logAppendTime,
            long producerId,
            short epoch,
            int baseSequence,
            boolean transactional,
            int leaderEpoch,
            List<Record> records) {
        ByteBuffer buffer = ByteBuffer.allocate(1024);
        MemoryRecordsBuilder builder = MemoryRecords.builder(
                buffer,
                (byte) 2,
                compression(compression),
                timestampType(type),
                baseOffset,
                logAppendTime,
                producerId,
                epoch,
                baseSequence,
                transactional,
                leaderEpoch);
        for (Record r : records) {
            builder.appendWithOffset(r.offset(), r.timestamp(), r.key(), r.value(), headers(r.headers()));
        }
        return builder.build().buffer();
    }

    /** Kafka's reading of the batches in {@code bytes}: each checked with ensureValid. */
    static List<MutableRecordBatch> batches(ByteBuffer bytes) {
        List<MutableRecordBatch> batches = new ArrayList<>();
        for (MutableRecordBatch batch :
                MemoryRecords.readableRecords(bytes.duplicate()).batches()) {
            batch.ensureValid();
            batches.add(batch);
        }
        return batches;
    }

    /** Kafka's records of a batch, as ours. */
    static List<Record> records(org.apache.kafka.common.record.internal.RecordBatch batch) {
        List<Record> records = new ArrayList<>();
        for (org.apache.kafka.common.record.internal.Record r : batch) {
            records.add(new Record(
                    r.offset(),
                    r.timestamp(),
                    r.sequence(),
                    (byte) 0,
                    r.key(),
                    r.value(),
                    Arrays.stream(r.headers())
                            .map(h -> Header.of(h.key(), h.value()))
                            .toList()));
        }
        return records;
    }

    static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
