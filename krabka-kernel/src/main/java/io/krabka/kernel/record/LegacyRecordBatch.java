package io.krabka.kernel.record;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A view of one v0/v1 log entry (Kafka's {@code AbstractLegacyRecordBatch}): int64 offset, int32 size, and a
 * {@link LegacyRecord}. A compressed entry is a wrapper whose value holds an inner message set; in v1 the inner
 * offsets are relative and the wrapper carries the absolute offset of the last one, in v0 they are absolute.
 * Kafka no longer writes these formats; a log written by an old Kafka still holds them, so they are read,
 * checked and, on request, up-converted to magic 2.
 */
public final class LegacyRecordBatch implements LogBatch {

    private final ByteBuffer buffer;
    private final String source;
    private final long sourcePosition;
    private final LegacyRecord record;

    /** A view of {@code entry}, which holds exactly one entry from index 0 to its limit. */
    LegacyRecordBatch(ByteBuffer entry, String source, long sourcePosition) {
        this.buffer = entry;
        this.source = Objects.requireNonNull(source, "source");
        this.sourcePosition = sourcePosition;
        this.record = new LegacyRecord(
                entry.slice(Records.LOG_OVERHEAD, entry.limit() - Records.LOG_OVERHEAD),
                source,
                sourcePosition + Records.LOG_OVERHEAD);
    }

    /** The entry's offset: the wrapper's is that of its last inner message. */
    public long offset() {
        return buffer.getLong(Records.OFFSET_OFFSET);
    }

    /** The outer message. */
    public LegacyRecord outerRecord() {
        return record;
    }

    @Override
    public byte magic() {
        return record.magic();
    }

    @Override
    public long lastOffset() {
        return offset();
    }

    @Override
    public int sizeInBytes() {
        return buffer.limit();
    }

    @Override
    public long maxTimestamp() {
        return record.timestamp();
    }

    @Override
    public TimestampType timestampType() {
        return record.timestampType();
    }

    @Override
    public CompressionType compressionType() {
        return record.compressionType();
    }

    @Override
    public boolean isValid() {
        return record.isValid();
    }

    @Override
    public void ensureValid() {
        record.ensureValid();
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
     * The records: the entry itself when uncompressed, the inner messages with absolute offsets otherwise. Inner
     * timestamps are the wrapper's when it uses LogAppendTime. Each inner message's CRC is checked.
     *
     * @throws InvalidRecordException  if the wrapper is empty, has a null value, holds compressed or truncated inner
     *                                 messages, or its offset is below its last inner offset
     * @throws CorruptRecordException  if an inner message fails its CRC or cannot be decompressed
     * @throws RecordTooLargeException if the wrapper decompresses past the bound
     */
    @Override
    public List<Record> records(long maxDecompressedBytes) {
        if (compressionType() == CompressionType.NONE) {
            return List.of(toRecord(offset(), record, record.timestamp()));
        }
        List<LegacyRecordBatch> inner = innerEntries(maxDecompressedBytes);
        long wrapperOffset = offset();
        long absoluteBase = 0;
        if (magic() == 1 && wrapperOffset != 0) {
            long lastInner = inner.getLast().offset();
            if (wrapperOffset < lastInner) {
                throw invalid("found invalid wrapper offset in compressed v1 message set, wrapper offset '"
                        + wrapperOffset + "' is less than the last inner message offset '" + lastInner
                        + "' and it is not zero.");
            }
            absoluteBase = wrapperOffset - lastInner;
        }
        boolean wrapperTime = record.timestampType() == TimestampType.LOG_APPEND_TIME;
        List<Record> records = new ArrayList<>(inner.size());
        for (LegacyRecordBatch entry : inner) {
            LegacyRecord message = entry.outerRecord();
            long offset = magic() == 1 ? absoluteBase + entry.offset() : entry.offset();
            long timestamp = message.magic() == 1 && wrapperTime ? record.timestamp() : message.timestamp();
            records.add(toRecord(offset, message, timestamp));
        }
        return records;
    }

    private List<LegacyRecordBatch> innerEntries(long bound) {
        ByteBuffer value = record.value();
        if (value == null) {
            throw invalid("found invalid compressed record set with null value (magic = " + magic() + ")");
        }
        String innerSource = Records.at(source, sourcePosition) + ", decompressed";
        List<LegacyRecordBatch> entries = new ArrayList<>();
        long position = 0;
        try (InputStream in = Compression.wrapForInput(compressionType(), value, magic(), bound)) {
            byte[] header = new byte[Records.LOG_OVERHEAD];
            int n;
            while ((n = in.readNBytes(header, 0, header.length)) > 0) {
                ByteBuffer fields = ByteBuffer.wrap(header);
                int size = fields.getInt(Records.SIZE_OFFSET);
                if (n < header.length || size < LegacyRecord.RECORD_OVERHEAD_V0) {
                    throw invalid("inner message at decompressed byte " + position + " is truncated or declares size "
                            + size);
                }
                if (size > bound - position) {
                    throw new RecordTooLargeException(Records.at(source, sourcePosition) + ": inner message declares "
                            + size + " bytes, past the bound of " + bound + " decompressed bytes");
                }
                ByteBuffer entry =
                        ByteBuffer.allocate(Records.LOG_OVERHEAD + size).put(header);
                if (in.readNBytes(entry.array(), Records.LOG_OVERHEAD, size) < size) {
                    throw invalid("inner message at decompressed byte " + position + " is truncated");
                }
                LegacyRecordBatch inner = new LegacyRecordBatch(entry.clear(), innerSource, position);
                inner.ensureValid();
                if (inner.outerRecord().compressionType() != CompressionType.NONE) {
                    throw invalid("inner messages must not be compressed (decompressed byte " + position + ")");
                }
                entries.add(inner);
                position += entry.limit();
            }
        } catch (DecompressionBoundException e) {
            throw new RecordTooLargeException(
                    Records.at(source, sourcePosition) + ": compressed messages " + e.getMessage(), e);
        } catch (IOException e) {
            throw new CorruptRecordException(
                    Records.at(source, sourcePosition) + ": compressed messages cannot be decompressed: "
                            + e.getMessage(),
                    e);
        }
        if (entries.isEmpty()) {
            throw invalid("found invalid compressed record set with no inner records");
        }
        return entries;
    }

    /**
     * The entry as one magic 2 batch with the same offsets, timestamps, keys and values: the wrapper's codec at
     * its default level, its timestamp type (CreateTime for v0, whose timestamps stay -1), no producer and no
     * partition leader epoch.
     */
    public RecordBatch upConvert(long maxDecompressedBytes) {
        List<Record> records = records(maxDecompressedBytes);
        TimestampType type = timestampType() == TimestampType.LOG_APPEND_TIME
                ? TimestampType.LOG_APPEND_TIME
                : TimestampType.CREATE_TIME;
        RecordBatchBuilder builder = new RecordBatchBuilder(
                Compression.of(compressionType()), type, records.getFirst().offset());
        if (type == TimestampType.LOG_APPEND_TIME) {
            builder.logAppendTime(maxTimestamp());
        }
        for (Record r : records) {
            builder.appendWithOffset(r.offset(), r.timestamp(), r.key(), r.value(), r.headers());
        }
        return new RecordBatch(builder.build(), "up-converted " + Records.at(source, sourcePosition), 0);
    }

    private static Record toRecord(long offset, LegacyRecord message, long timestamp) {
        return new Record(
                offset,
                timestamp,
                RecordBatch.NO_SEQUENCE,
                message.attributes(),
                message.key(),
                message.value(),
                List.of());
    }

    private InvalidRecordException invalid(String detail) {
        return new InvalidRecordException(Records.at(source, sourcePosition) + ": " + detail);
    }

    @Override
    public String toString() {
        return "LegacyRecordBatch(" + Records.at(source, sourcePosition) + ", magic=" + magic() + ", offset=" + offset()
                + ", size=" + sizeInBytes() + ")";
    }
}
