package io.krabka.kernel.record;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * Writes one magic 2 batch, as Kafka's {@code MemoryRecordsBuilder} does: records are framed uncompressed, then
 * compressed as one stream after the 61-byte header, whose CRC-32C is computed last. The base timestamp is the
 * first record's (or the delete horizon when one is set), the max timestamp the largest record timestamp for
 * CreateTime and the log append time for LogAppendTime. Record attributes are written as 0.
 *
 * <p>Used for transaction markers, up-conversion, recompression and tests. Not thread-safe.
 */
public final class RecordBatchBuilder {

    private final Compression compression;
    private final TimestampType timestampType;
    private final long baseOffset;
    private ByteBuffer records = ByteBuffer.allocate(256);
    private long producerId = RecordBatch.NO_PRODUCER_ID;
    private short producerEpoch = RecordBatch.NO_PRODUCER_EPOCH;
    private int baseSequence = RecordBatch.NO_SEQUENCE;
    private boolean transactional;
    private boolean control;
    private int partitionLeaderEpoch = RecordBatch.NO_PARTITION_LEADER_EPOCH;
    private long logAppendTime = RecordBatch.NO_TIMESTAMP;
    private long deleteHorizonMs = RecordBatch.NO_TIMESTAMP;
    private long baseTimestamp = RecordBatch.NO_TIMESTAMP;
    private long maxTimestamp = RecordBatch.NO_TIMESTAMP;
    private long lastOffset = -1;
    private long overriddenLastOffset = -1;
    private int count;

    /**
     * A builder for a batch whose first record gets {@code baseOffset}.
     *
     * @param timestampType CreateTime or LogAppendTime
     */
    public RecordBatchBuilder(Compression compression, TimestampType timestampType, long baseOffset) {
        this.compression = Objects.requireNonNull(compression, "compression");
        if (timestampType == TimestampType.NO_TIMESTAMP_TYPE) {
            throw new IllegalArgumentException("magic 2 batches need a timestamp type");
        }
        this.timestampType = Objects.requireNonNull(timestampType, "timestampType");
        if (baseOffset < 0) {
            throw new IllegalArgumentException("base offset is negative: " + baseOffset);
        }
        this.baseOffset = baseOffset;
    }

    /** Sets the producer id, epoch and the sequence of the first record. */
    public RecordBatchBuilder producer(long producerId, short producerEpoch, int baseSequence) {
        this.producerId = producerId;
        this.producerEpoch = producerEpoch;
        this.baseSequence = baseSequence;
        return this;
    }

    /** Marks the batch transactional. */
    public RecordBatchBuilder transactional(boolean transactional) {
        this.transactional = transactional;
        return this;
    }

    /** Marks the batch as holding control records. */
    public RecordBatchBuilder control(boolean control) {
        this.control = control;
        return this;
    }

    /** Sets the partition leader epoch. */
    public RecordBatchBuilder partitionLeaderEpoch(int partitionLeaderEpoch) {
        this.partitionLeaderEpoch = partitionLeaderEpoch;
        return this;
    }

    /** Sets the time a LogAppendTime batch was appended: its max timestamp. */
    public RecordBatchBuilder logAppendTime(long logAppendTime) {
        this.logAppendTime = logAppendTime;
        return this;
    }

    /** Sets the delete horizon, which takes the base timestamp's place; before the first record. */
    public RecordBatchBuilder deleteHorizonMs(long deleteHorizonMs) {
        if (deleteHorizonMs < 0) {
            throw new IllegalArgumentException("delete horizon is negative: " + deleteHorizonMs);
        }
        if (count > 0) {
            throw new IllegalStateException("the delete horizon is the base timestamp: set it before the records");
        }
        this.deleteHorizonMs = deleteHorizonMs;
        return this;
    }

    /**
     * Makes the batch claim offsets up to {@code lastOffset}, beyond its last record, as Kafka's log cleaner keeps
     * a filtered batch's last offset (Kafka's {@code MemoryRecordsBuilder.overrideLastOffset}).
     */
    public RecordBatchBuilder overrideLastOffset(long lastOffset) {
        if (lastOffset < baseOffset || lastOffset - baseOffset > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "last offset " + lastOffset + " is out of range of base offset " + baseOffset);
        }
        this.overriddenLastOffset = lastOffset;
        return this;
    }

    /** Appends a record at the next offset. */
    public RecordBatchBuilder append(long timestamp, ByteBuffer key, ByteBuffer value, List<Header> headers) {
        return appendWithOffset(lastOffset < 0 ? baseOffset : lastOffset + 1, timestamp, key, value, headers);
    }

    /** Appends a record with byte-array key and value (either may be null) and no headers at the next offset. */
    public RecordBatchBuilder append(long timestamp, byte[] key, byte[] value) {
        return append(
                timestamp,
                key == null ? null : ByteBuffer.wrap(key),
                value == null ? null : ByteBuffer.wrap(value),
                List.of());
    }

    /**
     * Appends a record at {@code offset}, which must exceed the previous record's; gaps are allowed, as in
     * compacted batches.
     */
    public RecordBatchBuilder appendWithOffset(
            long offset, long timestamp, ByteBuffer key, ByteBuffer value, List<Header> headers) {
        if (offset < baseOffset
                || offset <= lastOffset
                || offset - baseOffset > Integer.MAX_VALUE
                || (overriddenLastOffset >= 0 && offset > overriddenLastOffset)) {
            throw new IllegalArgumentException("illegal offset " + offset + " following previous offset " + lastOffset
                    + " in a batch based at " + baseOffset);
        }
        if (timestamp < 0 && timestamp != RecordBatch.NO_TIMESTAMP) {
            throw new IllegalArgumentException("invalid negative timestamp " + timestamp);
        }
        if (count == 0) {
            // Record timestamps are deltas from the base timestamp, which a delete horizon takes the place of.
            baseTimestamp = deleteHorizonMs >= 0 ? deleteHorizonMs : timestamp;
        }
        int offsetDelta = (int) (offset - baseOffset);
        long timestampDelta = timestamp - baseTimestamp;
        byte[][] headerKeys = new byte[headers.size()][];
        int bodySize = 1
                + Varints.sizeOfVarlong(timestampDelta)
                + Varints.sizeOfVarint(offsetDelta)
                + sizeOfBytes(key)
                + sizeOfBytes(value)
                + Varints.sizeOfVarint(headers.size());
        for (int i = 0; i < headerKeys.length; i++) {
            headerKeys[i] = headers.get(i).key().getBytes(StandardCharsets.UTF_8);
            bodySize += Varints.sizeOfVarint(headerKeys[i].length)
                    + headerKeys[i].length
                    + sizeOfBytes(headers.get(i).value());
        }
        ensureRoom(Varints.sizeOfVarint(bodySize) + bodySize);
        Varints.writeVarint(bodySize, records);
        records.put((byte) 0);
        Varints.writeVarlong(timestampDelta, records);
        Varints.writeVarint(offsetDelta, records);
        writeBytes(key);
        writeBytes(value);
        Varints.writeVarint(headers.size(), records);
        for (int i = 0; i < headerKeys.length; i++) {
            Varints.writeVarint(headerKeys[i].length, records);
            records.put(headerKeys[i]);
            writeBytes(headers.get(i).value());
        }
        lastOffset = offset;
        maxTimestamp = Math.max(maxTimestamp, timestamp);
        count++;
        return this;
    }

    /** Appends a control record; the batch becomes a control batch. */
    public RecordBatchBuilder appendControlRecord(long timestamp, ControlRecordType type, ByteBuffer value) {
        control = true;
        return append(timestamp, type.recordKey(), value, List.of());
    }

    /**
     * Appends a transaction marker; the batch becomes a transactional control batch, as Kafka writes markers.
     */
    public RecordBatchBuilder appendEndTxnMarker(long timestamp, EndTransactionMarker marker) {
        if (producerId == RecordBatch.NO_PRODUCER_ID) {
            throw new IllegalArgumentException("end transaction markers need a producer id");
        }
        transactional = true;
        return appendControlRecord(timestamp, marker.type(), marker.serializeValue());
    }

    /** The number of records appended. */
    public int numRecords() {
        return count;
    }

    // The last offset the batch claims: the override, else its last record's (the base offset when it has none).
    private long claimedLastOffset() {
        if (overriddenLastOffset >= 0) {
            return overriddenLastOffset;
        }
        return count == 0 ? baseOffset : lastOffset;
    }

    /** The finished batch: a buffer holding exactly it, from position 0 to its limit. */
    public ByteBuffer build() {
        ByteBuffer body = records.duplicate().flip();
        if (compression.type() != CompressionType.NONE) {
            body = compress(body);
        }
        int size = RecordBatch.RECORD_BATCH_OVERHEAD + body.remaining();
        ByteBuffer batch = ByteBuffer.allocate(size);
        batch.position(RecordBatch.RECORD_BATCH_OVERHEAD);
        batch.put(body);
        int attributes = compression.type().id();
        if (timestampType == TimestampType.LOG_APPEND_TIME) {
            attributes |= RecordBatch.TIMESTAMP_TYPE_MASK;
        }
        if (transactional) {
            attributes |= RecordBatch.TRANSACTIONAL_FLAG_MASK;
        }
        if (control) {
            attributes |= RecordBatch.CONTROL_FLAG_MASK;
        }
        if (deleteHorizonMs >= 0) {
            attributes |= RecordBatch.DELETE_HORIZON_FLAG_MASK;
        }
        batch.putLong(RecordBatch.BASE_OFFSET_OFFSET, baseOffset)
                .putInt(RecordBatch.LENGTH_OFFSET, size - Records.LOG_OVERHEAD)
                .putInt(RecordBatch.PARTITION_LEADER_EPOCH_OFFSET, partitionLeaderEpoch)
                .put(RecordBatch.MAGIC_OFFSET, RecordBatch.MAGIC)
                .putShort(RecordBatch.ATTRIBUTES_OFFSET, (short) attributes)
                .putInt(RecordBatch.LAST_OFFSET_DELTA_OFFSET, (int) (claimedLastOffset() - baseOffset))
                .putLong(RecordBatch.BASE_TIMESTAMP_OFFSET, deleteHorizonMs >= 0 ? deleteHorizonMs : baseTimestamp)
                .putLong(
                        RecordBatch.MAX_TIMESTAMP_OFFSET,
                        timestampType == TimestampType.LOG_APPEND_TIME ? logAppendTime : maxTimestamp)
                .putLong(RecordBatch.PRODUCER_ID_OFFSET, producerId)
                .putShort(RecordBatch.PRODUCER_EPOCH_OFFSET, producerEpoch)
                .putInt(RecordBatch.BASE_SEQUENCE_OFFSET, baseSequence)
                .putInt(RecordBatch.RECORDS_COUNT_OFFSET, count);
        batch.clear();
        RecordBatch view = new RecordBatch(batch, "builder", 0);
        batch.putInt(RecordBatch.CRC_OFFSET, (int) view.computeChecksum());
        return batch;
    }

    private ByteBuffer compress(ByteBuffer body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(64, body.remaining() / 2));
        try (OutputStream out = compression.wrapForOutput(bytes, RecordBatch.MAGIC)) {
            out.write(body.array(), body.arrayOffset() + body.position(), body.remaining());
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "compressing with " + compression.type().kafkaName() + " failed", e);
        }
        return ByteBuffer.wrap(bytes.toByteArray());
    }

    private void ensureRoom(int bytes) {
        if (records.remaining() < bytes) {
            int needed = records.position() + bytes;
            ByteBuffer larger = ByteBuffer.allocate(Math.max(needed, 2 * records.capacity()));
            records.flip();
            larger.put(records);
            records = larger;
        }
    }

    private static int sizeOfBytes(ByteBuffer bytes) {
        return bytes == null ? 1 : Varints.sizeOfVarint(bytes.remaining()) + bytes.remaining();
    }

    private void writeBytes(ByteBuffer bytes) {
        if (bytes == null) {
            Varints.writeVarint(-1, records);
        } else {
            Varints.writeVarint(bytes.remaining(), records);
            records.put(bytes.duplicate());
        }
    }
}
