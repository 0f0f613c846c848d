package io.krabka.it;

import io.krabka.it.LogEntry.Data;
import io.krabka.it.LogEntry.HeaderEntry;
import io.krabka.it.LogEntry.Marker;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * A record batch of a segment, decoded with kafka-clients' own record classes (which kafka-clients 4.4 keeps in
 * {@code org.apache.kafka.common.record.internal}; should they move again, this stops compiling).
 *
 * @param position             where the batch starts in the segment file
 * @param sizeInBytes          its size, header included
 * @param baseOffset           its first offset
 * @param lastOffset           its last offset
 * @param maxTimestamp         the largest timestamp of its records
 * @param partitionLeaderEpoch the leader epoch it was written in
 * @param producerId           its producer, or -1
 * @param compression          how its records are compressed
 * @param timestampType        CreateTime or LogAppendTime
 * @param records              its records, in offset order
 */
record LoggedBatch(
        int position,
        int sizeInBytes,
        long baseOffset,
        long lastOffset,
        long maxTimestamp,
        int partitionLeaderEpoch,
        long producerId,
        CompressionType compression,
        TimestampType timestampType,
        List<LoggedRecord> records) {

    /** Copies the records. */
    LoggedBatch {
        records = List.copyOf(records);
    }

    /**
     * A record of a batch with the offset and timestamp the log gave it.
     *
     * @param offset    its offset
     * @param timestamp its timestamp (a marker's too)
     * @param entry     what it is
     */
    record LoggedRecord(long offset, long timestamp, LogEntry entry) {}

    /** The position just past the batch: the next batch's start. */
    int end() {
        return position + sizeInBytes;
    }

    /**
     * Every batch of a segment file's bytes, each checked against its CRC; the batches must cover the bytes
     * exactly.
     *
     * @throws AssertionError if a batch is not magic v2, fails its CRC, or the batches leave bytes over
     */
    static List<LoggedBatch> decode(byte[] segment, String source) {
        List<LoggedBatch> batches = new ArrayList<>();
        int position = 0;
        for (MutableRecordBatch batch :
                MemoryRecords.readableRecords(ByteBuffer.wrap(segment)).batches()) {
            if (batch.magic() != RecordBatch.MAGIC_VALUE_V2) {
                throw new AssertionError(source + ": batch at " + position + " has magic " + batch.magic());
            }
            batch.ensureValid();
            List<LoggedRecord> records = new ArrayList<>();
            for (Record record : batch) {
                record.ensureValid();
                LogEntry entry = batch.isControlBatch()
                        ? new Marker(ControlRecordType.parse(record.key()))
                        : new Data(
                                record.timestamp(),
                                bytes(record.key()),
                                bytes(record.value()),
                                Arrays.stream(record.headers())
                                        .map(HeaderEntry::of)
                                        .toList(),
                                batch.isTransactional());
                records.add(new LoggedRecord(record.offset(), record.timestamp(), entry));
            }
            batches.add(new LoggedBatch(
                    position,
                    batch.sizeInBytes(),
                    batch.baseOffset(),
                    batch.lastOffset(),
                    batch.maxTimestamp(),
                    batch.partitionLeaderEpoch(),
                    batch.producerId(),
                    batch.compressionType(),
                    batch.timestampType(),
                    records));
            position += batch.sizeInBytes();
        }
        if (position != segment.length) {
            throw new AssertionError(source + ": the batches end at byte " + position + " of " + segment.length);
        }
        return batches;
    }

    private static byte[] bytes(ByteBuffer buffer) {
        if (buffer == null) {
            return null;
        }
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
