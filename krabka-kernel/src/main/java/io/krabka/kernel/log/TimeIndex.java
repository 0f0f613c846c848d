package io.krabka.kernel.log;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A read-only decoder of Kafka's time index ({@code .timeindex}): 12-byte big-endian entries, each an int64
 * timestamp and an int32 offset relative to the segment's base offset. An entry (T, O) says that every message
 * after offset O has a timestamp above T, so a lookup gives the offset from which to search for a timestamp.
 *
 * <p>The bytes are checked once, when the decoder is made; lookups are binary searches with absolute reads on the
 * shared buffer, so they allocate nothing but their result and are safe from many threads.
 */
public final class TimeIndex {

    /** Bytes per entry. */
    public static final int ENTRY_SIZE = 12;

    /** The timestamp of a lookup that precedes every entry: Kafka's {@code RecordBatch.NO_TIMESTAMP}. */
    public static final long NO_TIMESTAMP = -1L;

    private final ByteBuffer entriesBuffer;
    private final long baseOffset;
    private final String source;
    private final int entries;

    /**
     * Decodes and checks index bytes.
     *
     * @param bytes      the bytes from their position to their limit: a mapped file or heap bytes
     * @param baseOffset the segment's base offset, which entries are relative to
     * @param source     what the bytes came from, for error messages (a file path)
     * @throws CorruptIndexException if the size is not a multiple of {@value #ENTRY_SIZE}, an offset is
     *                               negative, or a timestamp or offset goes backwards
     */
    public TimeIndex(ByteBuffer bytes, long baseOffset, String source) {
        if (baseOffset < 0 || baseOffset > Long.MAX_VALUE - Integer.MAX_VALUE) {
            throw new IllegalArgumentException("base offset out of range: " + baseOffset);
        }
        this.entriesBuffer = IndexBuffers.entriesView(bytes, ENTRY_SIZE, source);
        this.baseOffset = baseOffset;
        this.source = Objects.requireNonNull(source, "source");
        this.entries = entriesBuffer.remaining() / ENTRY_SIZE;
        sanityCheck();
    }

    // Kafka's sanityCheck compares the last entry with the first and the base offset; binary search needs every
    // entry in order.
    private void sanityCheck() {
        for (int n = 0; n < entries; n++) {
            int at = n * ENTRY_SIZE;
            long timestamp = timestamp(n);
            int relativeOffset = relativeOffset(n);
            if (relativeOffset < 0) {
                throw new CorruptIndexException(source, at + 8L, "relative offset " + relativeOffset
                        + " is negative: offset " + (baseOffset + relativeOffset) + " is below the base offset " + baseOffset);
            }
            if (n > 0 && timestamp < timestamp(n - 1)) {
                throw new CorruptIndexException(source, at, "timestamp " + timestamp
                        + " goes backwards from the previous entry's " + timestamp(n - 1));
            }
            if (n > 0 && relativeOffset < relativeOffset(n - 1)) {
                throw new CorruptIndexException(source, at + 8L, "relative offset " + relativeOffset
                        + " goes backwards from the previous entry's " + relativeOffset(n - 1));
            }
        }
    }

    /**
     * The entry with the largest timestamp at or below {@code targetTimestamp}, as Kafka's
     * {@code TimeIndex.lookup}. When the target precedes every entry, or the index is empty:
     * ({@link #NO_TIMESTAMP}, base offset).
     */
    public TimestampOffset lookup(long targetTimestamp) {
        int slot = largestLowerBoundSlotFor(targetTimestamp);
        return slot < 0 ? new TimestampOffset(NO_TIMESTAMP, baseOffset) : entry(slot);
    }

    /** The {@code n}th entry, from zero. */
    public TimestampOffset entry(int n) {
        Objects.checkIndex(n, entries);
        return new TimestampOffset(timestamp(n), baseOffset + relativeOffset(n));
    }

    /** The last entry, or ({@link #NO_TIMESTAMP}, base offset) when the index is empty. */
    public TimestampOffset lastEntry() {
        return entries == 0 ? new TimestampOffset(NO_TIMESTAMP, baseOffset) : entry(entries - 1);
    }

    /** The segment's base offset. */
    public long baseOffset() {
        return baseOffset;
    }

    /** The number of entries. */
    public int entries() {
        return entries;
    }

    /** The size of the index in bytes. */
    public int sizeInBytes() {
        return entries * ENTRY_SIZE;
    }

    /** What the bytes came from. */
    public String source() {
        return source;
    }

    private int largestLowerBoundSlotFor(long targetTimestamp) {
        int low = 0;
        int high = entries - 1;
        int found = -1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            if (timestamp(mid) <= targetTimestamp) {
                found = mid;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return found;
    }

    private long timestamp(int n) {
        return entriesBuffer.getLong(n * ENTRY_SIZE);
    }

    private int relativeOffset(int n) {
        return entriesBuffer.getInt(n * ENTRY_SIZE + 8);
    }

    @Override
    public String toString() {
        return "TimeIndex[" + source + ", baseOffset=" + baseOffset + ", entries=" + entries + "]";
    }
}
