package io.krabka.kernel.record;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Writes a magic 2 batch holding some of another batch's records, as Kafka's {@code MemoryRecords.filterTo}
 * rebuilds one with its {@code MemoryRecordsBuilder}: the same base offset, last offset (so no offset moves and the
 * producer's last sequence stays), producer, epoch, sequence, flags, leader epoch and codec (at its default level);
 * each record re-encoded with attributes 0 and its timestamp against the new base timestamp (the delete horizon
 * when one is set, else the first record's), its key, value and headers copied as they are. Also writes the bare
 * header Kafka keeps for a batch left without records.
 *
 * <p>Made once and reused batch after batch: it records where each kept record lies (in the batch's own bytes
 * when uncompressed, in a copy when the records were decompressed), so nothing is allocated per record. Not
 * thread-safe.
 */
public final class RetainedBatchBuilder {

    private final CRC32C crc = new CRC32C();
    private final ByteBufferOutputStream uncompressed = new ByteBufferOutputStream(16 * 1024);
    private ByteBuffer staging = ByteBuffer.allocate(16 * 1024);
    private int[] tailStarts = new int[64];
    private int[] tailLengths = new int[64];
    private int[] offsetDeltas = new int[64];
    private long[] timestamps = new long[64];
    private RecordBatch batch;
    private ByteBuffer source;
    private int count;

    /** Starts a batch keeping records of {@code original}. */
    public void start(RecordBatch original) {
        this.batch = original;
        this.source = null;
        this.count = 0;
        staging.clear();
    }

    /** The number of records kept so far. */
    public int count() {
        return count;
    }

    /** Keeps the record {@code cursor} is at, a cursor over the batch given to {@link #start}. */
    public void retain(RecordCursor cursor) {
        if (count == tailStarts.length) {
            int grown = 2 * count;
            tailStarts = Arrays.copyOf(tailStarts, grown);
            tailLengths = Arrays.copyOf(tailLengths, grown);
            offsetDeltas = Arrays.copyOf(offsetDeltas, grown);
            timestamps = Arrays.copyOf(timestamps, grown);
        }
        int tailLength = cursor.tailEnd() - cursor.tailPosition();
        if (batch.isCompressed()) {
            // The cursor's buffer holds only the current record: keep a copy of the tail.
            if (staging.remaining() < tailLength) {
                ByteBuffer larger =
                        ByteBuffer.allocate(Math.max(2 * staging.capacity(), staging.position() + tailLength));
                staging = larger.put(staging.flip());
            }
            tailStarts[count] = staging.position();
            staging.put(staging.position(), cursor.buffer(), cursor.tailPosition(), tailLength);
            staging.position(staging.position() + tailLength);
        } else {
            source = cursor.buffer();
            tailStarts[count] = cursor.tailPosition();
        }
        tailLengths[count] = tailLength;
        offsetDeltas[count] = cursor.offsetDelta();
        timestamps[count] = cursor.timestamp();
        count++;
    }

    /**
     * Appends the batch of the records kept to {@code out}.
     *
     * @param deleteHorizonMs the delete horizon to set, or {@link RecordBatch#NO_TIMESTAMP} for none
     * @return the batch's size in bytes
     * @throws IllegalStateException if no record is kept
     */
    public int writeTo(ByteBufferOutputStream out, long deleteHorizonMs) {
        if (count == 0) {
            throw new IllegalStateException("no record kept of " + batch);
        }
        ByteBuffer tails = batch.isCompressed() ? staging : source;
        long baseTimestamp = deleteHorizonMs >= 0 ? deleteHorizonMs : timestamps[0];
        long maxTimestamp = RecordBatch.NO_TIMESTAMP;
        int start = out.position();
        out.position(start + RecordBatch.RECORD_BATCH_OVERHEAD);
        CompressionType codec = batch.compressionType();
        ByteBufferOutputStream records = codec == CompressionType.NONE ? out : uncompressed;
        if (records == uncompressed) {
            uncompressed.clear();
        }
        for (int i = 0; i < count; i++) {
            long timestampDelta = timestamps[i] - baseTimestamp;
            int bodySize =
                    1 + Varints.sizeOfVarlong(timestampDelta) + Varints.sizeOfVarint(offsetDeltas[i]) + tailLengths[i];
            records.ensureRemaining(Varints.sizeOfVarint(bodySize) + bodySize);
            ByteBuffer buffer = records.buffer();
            Varints.writeVarint(bodySize, buffer);
            buffer.put((byte) 0);
            Varints.writeVarlong(timestampDelta, buffer);
            Varints.writeVarint(offsetDeltas[i], buffer);
            buffer.put(buffer.position(), tails, tailStarts[i], tailLengths[i]);
            buffer.position(buffer.position() + tailLengths[i]);
            maxTimestamp = Math.max(maxTimestamp, timestamps[i]);
        }
        if (records == uncompressed) {
            compress(codec, out);
        }
        boolean logAppendTime = batch.timestampType() == TimestampType.LOG_APPEND_TIME;
        int attributes = codec.id()
                | (batch.attributes()
                        & (RecordBatch.TIMESTAMP_TYPE_MASK
                                | RecordBatch.TRANSACTIONAL_FLAG_MASK
                                | RecordBatch.CONTROL_FLAG_MASK))
                | (deleteHorizonMs >= 0 ? RecordBatch.DELETE_HORIZON_FLAG_MASK : 0);
        writeHeader(
                out,
                start,
                attributes,
                batch.lastOffsetDelta(),
                baseTimestamp,
                logAppendTime ? batch.maxTimestamp() : maxTimestamp,
                count);
        return out.position() - start;
    }

    private void compress(CompressionType codec, ByteBufferOutputStream out) {
        ByteBuffer body = uncompressed.buffer();
        try (OutputStream compressing = Compression.of(codec).wrapForOutput(out, RecordBatch.MAGIC)) {
            compressing.write(body.array(), body.arrayOffset(), body.position());
        } catch (IOException e) {
            throw new UncheckedIOException("compressing with " + codec.kafkaName() + " failed", e);
        }
    }

    /**
     * Appends the header Kafka keeps of a batch left without records ({@code DefaultRecordBatch.writeEmptyHeader}):
     * its offsets, producer, epoch, sequence, flags and max timestamp, no base timestamp, no codec, no record.
     *
     * @return the header's size in bytes
     */
    public int writeEmptyHeader(ByteBufferOutputStream out, RecordBatch original) {
        this.batch = original;
        int start = out.position();
        out.position(start + RecordBatch.RECORD_BATCH_OVERHEAD);
        int attributes = original.attributes()
                & (RecordBatch.TIMESTAMP_TYPE_MASK
                        | RecordBatch.TRANSACTIONAL_FLAG_MASK
                        | RecordBatch.CONTROL_FLAG_MASK);
        writeHeader(
                out,
                start,
                attributes,
                original.lastOffsetDelta(),
                RecordBatch.NO_TIMESTAMP,
                original.maxTimestamp(),
                0);
        return RecordBatch.RECORD_BATCH_OVERHEAD;
    }

    // The header of the batch from start to the stream's position, its CRC-32C computed last.
    private void writeHeader(
            ByteBufferOutputStream out,
            int start,
            int attributes,
            int lastOffsetDelta,
            long baseTimestamp,
            long maxTimestamp,
            int records) {
        ByteBuffer buffer = out.buffer();
        int end = buffer.position();
        buffer.putLong(start + RecordBatch.BASE_OFFSET_OFFSET, batch.baseOffset())
                .putInt(start + RecordBatch.LENGTH_OFFSET, end - start - Records.LOG_OVERHEAD)
                .putInt(start + RecordBatch.PARTITION_LEADER_EPOCH_OFFSET, batch.partitionLeaderEpoch())
                .put(start + RecordBatch.MAGIC_OFFSET, RecordBatch.MAGIC)
                .putShort(start + RecordBatch.ATTRIBUTES_OFFSET, (short) attributes)
                .putInt(start + RecordBatch.LAST_OFFSET_DELTA_OFFSET, lastOffsetDelta)
                .putLong(start + RecordBatch.BASE_TIMESTAMP_OFFSET, baseTimestamp)
                .putLong(start + RecordBatch.MAX_TIMESTAMP_OFFSET, maxTimestamp)
                .putLong(start + RecordBatch.PRODUCER_ID_OFFSET, batch.producerId())
                .putShort(start + RecordBatch.PRODUCER_EPOCH_OFFSET, batch.producerEpoch())
                .putInt(start + RecordBatch.BASE_SEQUENCE_OFFSET, batch.baseSequence())
                .putInt(start + RecordBatch.RECORDS_COUNT_OFFSET, records);
        crc.reset();
        int from = start + RecordBatch.ATTRIBUTES_OFFSET;
        crc.update(buffer.array(), buffer.arrayOffset() + from, end - from);
        buffer.putInt(start + RecordBatch.CRC_OFFSET, (int) crc.getValue());
    }
}
