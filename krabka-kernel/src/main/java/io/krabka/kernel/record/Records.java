package io.krabka.kernel.record;

import java.nio.ByteBuffer;

/**
 * The framing every batch format shares (Kafka's {@code Records}): int64 offset, int32 size of what follows, and,
 * at byte 16, the magic byte.
 */
public final class Records {

    /** Where the offset sits. */
    public static final int OFFSET_OFFSET = 0;
    /** Where the size sits. */
    public static final int SIZE_OFFSET = 8;
    /** Bytes of offset and size. */
    public static final int LOG_OVERHEAD = 12;
    /** Where the magic byte sits, in every format. */
    public static final int MAGIC_OFFSET = 16;
    /** Bytes needed to know a batch's size and magic. */
    public static final int HEADER_SIZE_UP_TO_MAGIC = MAGIC_OFFSET + 1;
    /** The smallest size field a batch of any format can have: a v0 message with null key and value. */
    public static final int MIN_SIZE_FIELD = LegacyRecord.RECORD_OVERHEAD_V0;
    /** The newest format. */
    public static final byte CURRENT_MAGIC = 2;

    private Records() {}

    /**
     * The size of the batch starting at {@code position}, offset and size fields included, checked as Kafka's
     * {@code ByteBufferLogInputStream.nextBatchSize} does. The answer may exceed the bytes present: the batch is
     * then truncated.
     *
     * @param buffer         the bytes, read with absolute gets
     * @param position       where the batch starts in {@code buffer}
     * @param source         what the bytes came from, for error messages
     * @param sourcePosition where {@code position} lies in the source
     * @param maxBatchSize   the largest size field accepted
     * @return the batch's size, or -1 when fewer than {@value #HEADER_SIZE_UP_TO_MAGIC} bytes are present
     * @throws CorruptRecordException if the size field is below {@value #LOG_OVERHEAD}+14 bytes or above the
     *                                maximum, or the magic is not 0, 1 or 2
     */
    public static int nextBatchSize(
            ByteBuffer buffer, int position, String source, long sourcePosition, int maxBatchSize) {
        int remaining = buffer.limit() - position;
        if (remaining < LOG_OVERHEAD) {
            return -1;
        }
        int size = buffer.getInt(position + SIZE_OFFSET);
        if (size < MIN_SIZE_FIELD) {
            throw new CorruptRecordException(at(source, sourcePosition) + ": record size " + size
                    + " is less than the minimum record overhead (" + MIN_SIZE_FIELD + ")");
        }
        if (size > maxBatchSize) {
            throw new CorruptRecordException(at(source, sourcePosition) + ": record size " + size
                    + " exceeds the largest allowable message size (" + maxBatchSize + ")");
        }
        if (remaining < HEADER_SIZE_UP_TO_MAGIC) {
            return -1;
        }
        byte magic = buffer.get(position + MAGIC_OFFSET);
        if (magic < 0 || magic > CURRENT_MAGIC) {
            throw new CorruptRecordException(at(source, sourcePosition) + ": invalid magic found in record: " + magic);
        }
        return size + LOG_OVERHEAD;
    }

    /**
     * A view of the batch at {@code position}, of the class its magic names.
     *
     * @throws CorruptRecordException if the batch's framing is bad or it extends past the buffer's limit
     */
    public static LogBatch batchAt(ByteBuffer buffer, int position, String source, long sourcePosition) {
        int size = nextBatchSize(buffer, position, source, sourcePosition, Integer.MAX_VALUE);
        if (size < 0 || size > buffer.limit() - position) {
            throw new CorruptRecordException(at(source, sourcePosition) + ": batch is truncated: "
                    + (buffer.limit() - position) + " bytes present of " + (size < 0 ? "its header" : size));
        }
        ByteBuffer slice = buffer.slice(position, size);
        return slice.get(MAGIC_OFFSET) == CURRENT_MAGIC
                ? new RecordBatch(slice, source, sourcePosition)
                : new LegacyRecordBatch(slice, source, sourcePosition);
    }

    /** How errors name a place: {@code source at byte N}. */
    static String at(String source, long position) {
        return source + " at byte " + position;
    }
}
