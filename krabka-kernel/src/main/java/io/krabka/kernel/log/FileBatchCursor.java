package io.krabka.kernel.log;

import io.krabka.kernel.record.CorruptRecordException;
import io.krabka.kernel.record.LegacyRecord;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.Records;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Walks the batches of a region of a segment file by their headers, as Kafka's {@code FileLogInputStream}: one
 * positional read of at most {@value #HEADER_BYTES} bytes per batch into one reused buffer, so a scan allocates
 * nothing per batch. The walk stops quietly at a batch that runs past the region's end (a torn write, or the end
 * of what a reader may see) and fails with {@link CorruptRecordException}, naming the file and position, on a
 * size or magic that cannot be right.
 *
 * <p>One cursor per thread; cursors over the same file run concurrently with each other and with appends.
 */
final class FileBatchCursor {

    /** The v2 header: every field a scan looks at, in every format. */
    static final int HEADER_BYTES = RecordBatch.RECORD_BATCH_OVERHEAD;

    private static final int LEGACY_TIMESTAMP_OFFSET = Records.LOG_OVERHEAD + LegacyRecord.TIMESTAMP_OFFSET;
    private static final int LEGACY_ATTRIBUTES_OFFSET = Records.LOG_OVERHEAD + LegacyRecord.ATTRIBUTES_OFFSET;
    private static final int LEGACY_CODEC_MASK = 0x07;

    private final FileChannel channel;
    private final String source;
    private final int end;
    private final ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
    private int position;
    private int size;
    private int next;

    /**
     * A cursor before the batch at {@code start}, which must be a batch boundary, not reading at or past {@code end}.
     *
     * @param source the file, for error messages
     */
    FileBatchCursor(FileChannel channel, String source, int start, int end) {
        this.channel = channel;
        this.source = source;
        this.next = start;
        this.end = end;
    }

    /**
     * Moves to the next batch.
     *
     * @return false at the end of the region, or before a batch that runs past it
     * @throws CorruptRecordException if the batch's size or magic cannot be right
     * @throws EOFException           if the file ends before the region does (it was truncated under the reader)
     */
    boolean next() throws IOException {
        position = next;
        if (position >= end - Records.HEADER_SIZE_UP_TO_MAGIC) {
            return false;
        }
        header.clear().limit(Math.min(HEADER_BYTES, end - position));
        readFully(channel, header, position, source);
        // The bound keeps size + LOG_OVERHEAD within an int.
        size = Records.nextBatchSize(header, 0, source, position, Integer.MAX_VALUE - Records.LOG_OVERHEAD);
        if (size > end - position) {
            return false;
        }
        int minimum = switch (magic()) {
            case 0 -> Records.LOG_OVERHEAD + LegacyRecord.RECORD_OVERHEAD_V0;
            case 1 -> Records.LOG_OVERHEAD + LegacyRecord.RECORD_OVERHEAD_V1;
            default -> RecordBatch.RECORD_BATCH_OVERHEAD;
        };
        if (size < minimum) {
            throw new CorruptRecordException(source + " at byte " + position + ": magic " + magic() + " batch of "
                    + size + " bytes is smaller than its header of " + minimum);
        }
        next = position + size;
        return true;
    }

    /** The batch's position in the file. */
    int position() {
        return position;
    }

    /** The batch's size, its offset and size fields included. */
    int sizeInBytes() {
        return size;
    }

    /** The position after the batch. */
    int nextPosition() {
        return next;
    }

    byte magic() {
        return header.get(Records.MAGIC_OFFSET);
    }

    /** The offset field: the base offset of a v2 batch, the last offset of a v0/v1 entry. */
    long offsetField() {
        return header.getLong(Records.OFFSET_OFFSET);
    }

    /** The offset of the batch's last record. */
    long lastOffset() {
        return magic() == RecordBatch.MAGIC
                ? offsetField() + header.getInt(RecordBatch.LAST_OFFSET_DELTA_OFFSET)
                : offsetField();
    }

    /** The batch's max timestamp; -1 for v0. */
    long maxTimestamp() {
        return switch (magic()) {
            case 0 -> RecordBatch.NO_TIMESTAMP;
            case 1 -> header.getLong(LEGACY_TIMESTAMP_OFFSET);
            default -> header.getLong(RecordBatch.MAX_TIMESTAMP_OFFSET);
        };
    }

    /** The partition leader epoch of a v2 batch; -1 for v0/v1. */
    int partitionLeaderEpoch() {
        return magic() == RecordBatch.MAGIC
                ? header.getInt(RecordBatch.PARTITION_LEADER_EPOCH_OFFSET)
                : RecordBatch.NO_PARTITION_LEADER_EPOCH;
    }

    /** The producer id of a v2 batch, or -1; -1 for v0/v1. */
    long producerId() {
        return magic() == RecordBatch.MAGIC
                ? header.getLong(RecordBatch.PRODUCER_ID_OFFSET)
                : RecordBatch.NO_PRODUCER_ID;
    }

    /** The attributes of a v2 batch. */
    short attributes() {
        return header.getShort(RecordBatch.ATTRIBUTES_OFFSET);
    }

    /** The producer epoch of a v2 batch. */
    short producerEpoch() {
        return header.getShort(RecordBatch.PRODUCER_EPOCH_OFFSET);
    }

    /** The base sequence of a v2 batch. */
    int baseSequence() {
        return header.getInt(RecordBatch.BASE_SEQUENCE_OFFSET);
    }

    /** Whether this is a v0/v1 wrapper, whose base offset is known only once its inner messages are read. */
    boolean isCompressedLegacy() {
        return magic() < RecordBatch.MAGIC && (header.get(LEGACY_ATTRIBUTES_OFFSET) & LEGACY_CODEC_MASK) != 0;
    }

    /** The batch, its header values copied, for callers that keep it. */
    FileChannelBatch batch() {
        return new FileChannelBatch(
                channel,
                source,
                position,
                size,
                magic(),
                offsetField(),
                lastOffset(),
                maxTimestamp(),
                partitionLeaderEpoch(),
                isCompressedLegacy());
    }

    /** Reads the whole current batch into memory. */
    LogBatch load() throws IOException {
        return load(channel, source, position, size);
    }

    /** Reads the whole batch at {@code position} of {@code size} bytes into memory. */
    static LogBatch load(FileChannel channel, String source, int position, int size) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(size);
        readFully(channel, bytes, position, source);
        return Records.batchAt(bytes, 0, source, position);
    }

    /** Fills {@code buffer} from {@code position}; the file ending first is an {@link EOFException}. */
    static void readFully(FileChannel channel, ByteBuffer buffer, long position, String source) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, at);
            if (n < 0) {
                throw new EOFException(source + ": the file ended at byte " + at + " while reading "
                        + buffer.remaining() + " more bytes from byte " + position);
            }
            at += n;
        }
    }
}
