package io.krabka.kernel.log;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A read-only decoder of Kafka's offset index ({@code .index}): 8-byte big-endian entries, each an int32 offset
 * relative to the segment's base offset and the int32 position of that offset's batch in the segment file. The
 * index is sparse, so a lookup answers where to start scanning, not where the offset is.
 *
 * <p>The bytes are checked once, when the decoder is made; lookups are binary searches with absolute reads on the
 * shared buffer, so they allocate nothing but their result and are safe from many threads.
 */
public final class OffsetIndex {

    /** Bytes per entry. */
    public static final int ENTRY_SIZE = 8;

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
     * @throws CorruptIndexException if the size is not a multiple of {@value #ENTRY_SIZE}, an offset or position
     *                               is negative, or either goes backwards
     */
    public OffsetIndex(ByteBuffer bytes, long baseOffset, String source) {
        if (baseOffset < 0 || baseOffset > Long.MAX_VALUE - Integer.MAX_VALUE) {
            throw new IllegalArgumentException("base offset out of range: " + baseOffset);
        }
        this.entriesBuffer = IndexBuffers.entriesView(bytes, ENTRY_SIZE, source);
        this.baseOffset = baseOffset;
        this.source = Objects.requireNonNull(source, "source");
        this.entries = entriesBuffer.remaining() / ENTRY_SIZE;
        sanityCheck();
    }

    // Kafka's sanityCheck looks at the size and the last entry; binary search needs every entry in order.
    private void sanityCheck() {
        for (int n = 0; n < entries; n++) {
            int at = n * ENTRY_SIZE;
            int relativeOffset = relativeOffset(n);
            int position = physical(n);
            if (relativeOffset < 0) {
                throw new CorruptIndexException(source, at, "relative offset " + relativeOffset
                        + " is negative: offset " + (baseOffset + relativeOffset) + " is below the base offset " + baseOffset);
            }
            if (position < 0) {
                throw new CorruptIndexException(source, at + 4L, "file position " + position + " is negative");
            }
            if (n > 0 && relativeOffset < relativeOffset(n - 1)) {
                throw new CorruptIndexException(source, at, "relative offset " + relativeOffset
                        + " goes backwards from the previous entry's " + relativeOffset(n - 1));
            }
            if (n > 0 && position < physical(n - 1)) {
                throw new CorruptIndexException(source, at + 4L, "file position " + position
                        + " goes backwards from the previous entry's " + physical(n - 1));
            }
        }
    }

    /**
     * The entry with the largest offset at or below {@code targetOffset}: the position from which to scan for
     * it. When the target precedes every entry, or the index is empty, the segment start: (base offset, 0).
     */
    public OffsetPosition lookup(long targetOffset) {
        int slot = largestLowerBoundSlotFor(targetOffset);
        return slot < 0 ? new OffsetPosition(baseOffset, 0) : entry(slot);
    }

    /** The {@code n}th entry, from zero. */
    public OffsetPosition entry(int n) {
        Objects.checkIndex(n, entries);
        return new OffsetPosition(baseOffset + relativeOffset(n), physical(n));
    }

    /** The offset of the last entry, or the base offset when the index is empty. */
    public long lastOffset() {
        return entries == 0 ? baseOffset : baseOffset + relativeOffset(entries - 1);
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

    private int largestLowerBoundSlotFor(long targetOffset) {
        if (targetOffset < baseOffset) {
            return -1;
        }
        long target = targetOffset - baseOffset;
        int low = 0;
        int high = entries - 1;
        int found = -1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            if (relativeOffset(mid) <= target) {
                found = mid;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return found;
    }

    private int relativeOffset(int n) {
        return entriesBuffer.getInt(n * ENTRY_SIZE);
    }

    private int physical(int n) {
        return entriesBuffer.getInt(n * ENTRY_SIZE + 4);
    }

    @Override
    public String toString() {
        return "OffsetIndex[" + source + ", baseOffset=" + baseOffset + ", entries=" + entries + "]";
    }
}
