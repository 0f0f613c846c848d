package io.krabka.kernel.record;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.zip.CRC32C;

/**
 * A view of one magic 2 batch (Kafka's {@code DefaultRecordBatch}) in a buffer: header fields are read and set
 * in place, records are walked with a {@link RecordCursor}. The layout:
 * <pre>
 * 0 BaseOffset int64 | 8 Length int32 | 12 PartitionLeaderEpoch int32 | 16 Magic int8 | 17 CRC uint32 |
 * 21 Attributes int16 | 23 LastOffsetDelta int32 | 27 BaseTimestamp int64 | 35 MaxTimestamp int64 |
 * 43 ProducerId int64 | 51 ProducerEpoch int16 | 53 BaseSequence int32 | 57 RecordsCount int32 | 61 Records
 * </pre>
 * The CRC-32C covers the bytes from the attributes to the end, so the base offset and the partition leader epoch
 * can be set without recomputing it. Attributes: bits 0–2 compression, 3 timestamp type (1 = LogAppendTime),
 * 4 transactional, 5 control, 6 delete horizon (the base timestamp is then the delete horizon).
 *
 * <p>A view is not thread-safe when its setters are used; readers of unchanging bytes may share it.
 */
public final class RecordBatch implements LogBatch {

    /** The format version. */
    public static final byte MAGIC = 2;
    /** Header field positions. */
    public static final int BASE_OFFSET_OFFSET = 0,
            LENGTH_OFFSET = 8,
            PARTITION_LEADER_EPOCH_OFFSET = 12,
            MAGIC_OFFSET = 16,
            CRC_OFFSET = 17,
            ATTRIBUTES_OFFSET = 21,
            LAST_OFFSET_DELTA_OFFSET = 23,
            BASE_TIMESTAMP_OFFSET = 27,
            MAX_TIMESTAMP_OFFSET = 35,
            PRODUCER_ID_OFFSET = 43,
            PRODUCER_EPOCH_OFFSET = 51,
            BASE_SEQUENCE_OFFSET = 53,
            RECORDS_COUNT_OFFSET = 57;
    /** Bytes of header before the records. */
    public static final int RECORD_BATCH_OVERHEAD = 61;
    /** Values meaning "none". */
    public static final long NO_PRODUCER_ID = -1, NO_TIMESTAMP = -1;
    /** Values meaning "none". */
    public static final short NO_PRODUCER_EPOCH = -1;
    /** Values meaning "none". */
    public static final int NO_SEQUENCE = -1, NO_PARTITION_LEADER_EPOCH = -1;

    static final int COMPRESSION_CODEC_MASK = 0x07;
    static final int TIMESTAMP_TYPE_MASK = 0x08;
    /** The attribute bit of a transactional batch. */
    public static final int TRANSACTIONAL_FLAG_MASK = 0x10;
    /** The attribute bit of a control batch. */
    public static final int CONTROL_FLAG_MASK = 0x20;

    static final int DELETE_HORIZON_FLAG_MASK = 0x40;

    private final ByteBuffer buffer;
    private final String source;
    private final long sourcePosition;

    /** A view of {@code batch}, which holds exactly one batch from index 0 to its limit. */
    RecordBatch(ByteBuffer batch, String source, long sourcePosition) {
        this.buffer = batch;
        this.source = Objects.requireNonNull(source, "source");
        this.sourcePosition = sourcePosition;
        if (batch.get(MAGIC_OFFSET) != MAGIC) {
            throw new CorruptRecordException(
                    Records.at(source, sourcePosition) + ": magic " + batch.get(MAGIC_OFFSET) + " is not " + MAGIC);
        }
        if (batch.limit() < RECORD_BATCH_OVERHEAD) {
            throw new CorruptRecordException(Records.at(source, sourcePosition) + ": record batch is corrupt (the size "
                    + batch.limit() + " is smaller than the minimum allowed overhead " + RECORD_BATCH_OVERHEAD + ")");
        }
    }

    /**
     * A view of the magic 2 batch at {@code position} of {@code buffer}; the view shares the buffer's bytes.
     *
     * @param sourcePosition where {@code position} lies in the source, for error messages
     * @throws CorruptRecordException if the framing is bad, the batch is truncated, or its magic is not 2
     */
    public static RecordBatch at(ByteBuffer buffer, int position, String source, long sourcePosition) {
        return switch (Records.batchAt(buffer, position, source, sourcePosition)) {
            case RecordBatch batch -> batch;
            case LegacyRecordBatch legacy ->
                throw new CorruptRecordException(Records.at(source, sourcePosition) + ": magic " + legacy.magic()
                        + " batch where magic 2 is required");
        };
    }

    @Override
    public byte magic() {
        return MAGIC;
    }

    /** The offset of the first record. */
    public long baseOffset() {
        return buffer.getLong(BASE_OFFSET_OFFSET);
    }

    /** The offset of the last record, kept when compaction removes records. */
    public int lastOffsetDelta() {
        return buffer.getInt(LAST_OFFSET_DELTA_OFFSET);
    }

    @Override
    public long lastOffset() {
        return baseOffset() + lastOffsetDelta();
    }

    @Override
    public int sizeInBytes() {
        return buffer.limit();
    }

    /** The leader epoch the broker stamped on the batch, or -1. */
    public int partitionLeaderEpoch() {
        return buffer.getInt(PARTITION_LEADER_EPOCH_OFFSET);
    }

    /** The stored CRC-32C. */
    public long checksum() {
        return Integer.toUnsignedLong(buffer.getInt(CRC_OFFSET));
    }

    /** The CRC-32C of the bytes from the attributes to the end. */
    public long computeChecksum() {
        CRC32C crc = new CRC32C();
        crc.update(buffer.duplicate().position(ATTRIBUTES_OFFSET));
        return crc.getValue();
    }

    /** The attribute bits; Kafka uses only the low byte. */
    public short attributes() {
        return buffer.getShort(ATTRIBUTES_OFFSET);
    }

    /**
     * The codec of the records.
     *
     * @throws UnsupportedCompressionTypeException if the attributes name no codec
     */
    @Override
    public CompressionType compressionType() {
        int id = attributes() & COMPRESSION_CODEC_MASK;
        try {
            return CompressionType.forId(id);
        } catch (UnsupportedCompressionTypeException e) {
            throw new UnsupportedCompressionTypeException(Records.at(source, sourcePosition) + ": " + e.getMessage());
        }
    }

    /** Whether the records are compressed. */
    public boolean isCompressed() {
        return (attributes() & COMPRESSION_CODEC_MASK) != 0;
    }

    @Override
    public TimestampType timestampType() {
        return (attributes() & TIMESTAMP_TYPE_MASK) == 0 ? TimestampType.CREATE_TIME : TimestampType.LOG_APPEND_TIME;
    }

    /** Whether the batch belongs to a transaction. */
    public boolean isTransactional() {
        return (attributes() & TRANSACTIONAL_FLAG_MASK) != 0;
    }

    /** Whether the batch holds control records. */
    public boolean isControlBatch() {
        return (attributes() & CONTROL_FLAG_MASK) != 0;
    }

    /** Whether the base timestamp holds the delete horizon (set by the log cleaner). */
    public boolean hasDeleteHorizonMs() {
        return (attributes() & DELETE_HORIZON_FLAG_MASK) != 0;
    }

    /** The time after which the cleaner may drop tombstones and markers, when set. */
    public OptionalLong deleteHorizonMs() {
        return hasDeleteHorizonMs() ? OptionalLong.of(baseTimestamp()) : OptionalLong.empty();
    }

    /** The timestamp record deltas are relative to. */
    public long baseTimestamp() {
        return buffer.getLong(BASE_TIMESTAMP_OFFSET);
    }

    @Override
    public long maxTimestamp() {
        return buffer.getLong(MAX_TIMESTAMP_OFFSET);
    }

    /** The producer id, or -1. */
    public long producerId() {
        return buffer.getLong(PRODUCER_ID_OFFSET);
    }

    /** Whether a producer id is set. */
    public boolean hasProducerId() {
        return producerId() != NO_PRODUCER_ID;
    }

    /** The producer epoch, or -1. */
    public short producerEpoch() {
        return buffer.getShort(PRODUCER_EPOCH_OFFSET);
    }

    /** The sequence of the first record, or -1. */
    public int baseSequence() {
        return buffer.getInt(BASE_SEQUENCE_OFFSET);
    }

    /** The sequence of the last record, wrapping past Integer.MAX_VALUE to 0 as Kafka does; -1 without one. */
    public int lastSequence() {
        int base = baseSequence();
        return base == NO_SEQUENCE ? NO_SEQUENCE : incrementSequence(base, lastOffsetDelta());
    }

    /** The declared number of records. */
    public int recordsCount() {
        return buffer.getInt(RECORDS_COUNT_OFFSET);
    }

    @Override
    public boolean isValid() {
        return checksum() == computeChecksum();
    }

    @Override
    public void ensureValid() {
        long stored = checksum();
        long computed = computeChecksum();
        if (stored != computed) {
            throw new CorruptRecordException(Records.at(source, sourcePosition)
                    + ": record batch is corrupt (stored crc = " + stored + ", computed crc = " + computed + ")");
        }
    }

    /** Sets the base offset so the last record gets {@code offset}; outside the CRC, so the CRC stays. */
    public void setLastOffset(long offset) {
        buffer.putLong(BASE_OFFSET_OFFSET, offset - lastOffsetDelta());
    }

    /** Sets the partition leader epoch; outside the CRC, so the CRC stays. */
    public void setPartitionLeaderEpoch(int epoch) {
        buffer.putInt(PARTITION_LEADER_EPOCH_OFFSET, epoch);
    }

    /**
     * Sets the timestamp type and max timestamp, recomputing the CRC only when either changes, as Kafka does.
     */
    public void setMaxTimestamp(TimestampType timestampType, long maxTimestamp) {
        if (timestampType == TimestampType.NO_TIMESTAMP_TYPE) {
            throw new IllegalArgumentException("magic 2 batches need a timestamp type");
        }
        if (timestampType() == timestampType && maxTimestamp() == maxTimestamp) {
            return;
        }
        int attributes = attributes() & ~TIMESTAMP_TYPE_MASK;
        if (timestampType == TimestampType.LOG_APPEND_TIME) {
            attributes |= TIMESTAMP_TYPE_MASK;
        }
        buffer.putShort(ATTRIBUTES_OFFSET, (short) attributes);
        buffer.putLong(MAX_TIMESTAMP_OFFSET, maxTimestamp);
        buffer.putInt(CRC_OFFSET, (int) computeChecksum());
    }

    @Override
    public ByteBuffer buffer() {
        return buffer.duplicate();
    }

    @Override
    public String source() {
        return source;
    }

    @Override
    public long sourcePosition() {
        return sourcePosition;
    }

    /**
     * A cursor over the records: in place for uncompressed batches, streaming decompression otherwise.
     *
     * @param maxDecompressedBytes the bound on the bytes compressed records may decompress to
     * @throws InvalidRecordException if the record count is negative
     */
    public RecordCursor cursor(long maxDecompressedBytes) {
        return new RecordCursor(this, maxDecompressedBytes);
    }

    @Override
    public List<Record> records(long maxDecompressedBytes) {
        try (RecordCursor cursor = cursor(maxDecompressedBytes)) {
            List<Record> records = new ArrayList<>(Math.max(0, Math.min(recordsCount(), 1024)));
            while (cursor.next()) {
                records.add(cursor.record());
            }
            return records;
        }
    }

    /** {@code sequence + increment}, wrapping past Integer.MAX_VALUE to 0 as Kafka's sequences do. */
    public static int incrementSequence(int sequence, int increment) {
        if (sequence > Integer.MAX_VALUE - increment) {
            return increment - (Integer.MAX_VALUE - sequence) - 1;
        }
        return sequence + increment;
    }

    @Override
    public String toString() {
        return "RecordBatch(" + Records.at(source, sourcePosition) + ", offsets=[" + baseOffset() + ", " + lastOffset()
                + "], size=" + sizeInBytes() + ", compression=" + (attributes() & COMPRESSION_CODEC_MASK)
                + ", timestampType=" + timestampType() + ")";
    }
}
