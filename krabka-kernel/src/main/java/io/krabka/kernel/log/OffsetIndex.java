package io.krabka.kernel.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Kafka's offset index ({@code .index}): 8-byte big-endian entries, each an int32 offset relative to the segment's
 * base offset and the int32 position of that offset's batch in the segment file, offsets strictly increasing. The
 * index is sparse, so a lookup answers where to start scanning, not where the offset is. See {@link AbstractIndex}
 * for the file, its checks and its concurrency.
 */
public final class OffsetIndex extends AbstractIndex {

    /** Bytes per entry. */
    public static final int ENTRY_SIZE = 8;

    private volatile long lastOffset;

    /**
     * Opens an index file, as Kafka's {@code OffsetIndex(file, baseOffset, maxIndexSize, writable)}.
     *
     * @param file         the {@code .index} file; a writable index creates it if missing
     * @param baseOffset   the segment's base offset, which entries are relative to
     * @param maxIndexSize the size a new or reset file is preallocated to ({@code segment.index.bytes}), rounded
     *                     down to whole entries
     * @param writable     whether appends, truncation and resizing are allowed
     * @throws java.nio.file.NoSuchFileException if a read-only index's file does not exist
     */
    public OffsetIndex(Path file, long baseOffset, int maxIndexSize, boolean writable) throws IOException {
        super(file, baseOffset, maxIndexSize, writable, ENTRY_SIZE);
        this.lastOffset = lastEntry(openBuffer(), entries()).offset();
    }

    /**
     * A read-only index over bytes, every entry checked.
     *
     * @param bytes      the bytes from their position to their limit: a mapped file or heap bytes
     * @param baseOffset the segment's base offset, which entries are relative to
     * @param source     what the bytes came from, for error messages (a file path)
     * @throws CorruptIndexException if the size is not a multiple of {@value #ENTRY_SIZE}, an offset or position
     *                               is negative, an offset does not increase or a position goes backwards
     */
    public OffsetIndex(ByteBuffer bytes, long baseOffset, String source) {
        super(bytes, baseOffset, source, ENTRY_SIZE);
        checkAllEntries();
        this.lastOffset = lastEntry(openBuffer(), entries()).offset();
    }

    @Override
    void checkOrder(ByteBuffer idx, int earlier, int later, String earlierName, String hint) {
        long at = (long) later * ENTRY_SIZE;
        if (relativeOffset(idx, later) <= relativeOffset(idx, earlier)) {
            throw new CorruptIndexException(
                    source(),
                    at,
                    "relative offset " + relativeOffset(idx, later) + " is not above " + earlierName + " "
                            + relativeOffset(idx, earlier) + hint);
        }
        if (physical(idx, later) < physical(idx, earlier)) {
            throw new CorruptIndexException(
                    source(),
                    at + 4,
                    "file position " + physical(idx, later) + " goes backwards from " + earlierName + " "
                            + physical(idx, earlier));
        }
    }

    @Override
    void checkEntry(ByteBuffer idx, int n) {
        long at = (long) n * ENTRY_SIZE;
        int relativeOffset = relativeOffset(idx, n);
        if (relativeOffset < 0) {
            throw new CorruptIndexException(
                    source(),
                    at,
                    "relative offset " + relativeOffset + " is negative: offset " + (baseOffset() + relativeOffset)
                            + " is below the base offset " + baseOffset());
        }
        if (physical(idx, n) < 0) {
            throw new CorruptIndexException(source(), at + 4, "file position " + physical(idx, n) + " is negative");
        }
    }

    /**
     * The entry with the largest offset at or below {@code targetOffset}: the position from which to scan for
     * it. When the target precedes every entry, or the index is empty, the segment start: (base offset, 0).
     */
    public OffsetPosition lookup(long targetOffset) {
        return readEntries(OffsetIndex::floorEntry, this, targetOffset);
    }

    private OffsetPosition floorEntry(ByteBuffer idx, int n, long targetOffset) {
        int slot = IndexSearch.countAtOrBelow(this, idx, n, targetOffset, IndexSearchType.KEY) - 1;
        return slot < 0 ? new OffsetPosition(baseOffset(), 0) : parseEntry(idx, slot);
    }

    /**
     * The first entry whose position is at or beyond the end of a fetch of {@code fetchSize} bytes from
     * {@code fetchOffset}: an offset certainly outside the fetched range, as Kafka's
     * {@code fetchUpperBoundOffset}; empty if no entry is that far.
     */
    public Optional<OffsetPosition> fetchUpperBoundOffset(OffsetPosition fetchOffset, int fetchSize) {
        return readEntries(OffsetIndex::firstEntryFrom, this, (long) fetchOffset.position() + fetchSize);
    }

    private Optional<OffsetPosition> firstEntryFrom(ByteBuffer idx, int n, long position) {
        int slot = IndexSearch.countBelow(this, idx, n, position, IndexSearchType.VALUE);
        return slot == n ? Optional.empty() : Optional.of(parseEntry(idx, slot));
    }

    /** The {@code n}th entry, from zero. */
    public OffsetPosition entry(int n) {
        return readEntries(OffsetIndex::entryAt, this, n);
    }

    private OffsetPosition entryAt(ByteBuffer idx, int n, long slot) {
        return parseEntry(idx, (int) Objects.checkIndex(slot, n));
    }

    /** The offset of the last entry, or the base offset when the index is empty. */
    public long lastOffset() {
        return lastOffset;
    }

    /**
     * Appends an entry: {@code offset}'s batch starts at {@code position} in the segment file.
     *
     * @throws IllegalArgumentException     if the index is full or the position is negative or below the last
     *                                      entry's
     * @throws InvalidOffsetException       if the offset is not above the last entry's
     * @throws IndexOffsetOverflowException if the offset is below the base offset or too far above it
     * @throws IllegalStateException        if the index is read-only or closed
     */
    public void append(long offset, int position) {
        lock.lock();
        try {
            ByteBuffer idx = writableBuffer();
            int n = entries();
            if (isFull()) {
                throw new IllegalArgumentException("Attempt to append to a full index (size = " + n + ") " + source());
            }
            if (n > 0 && offset <= lastOffset) {
                throw new InvalidOffsetException("Attempt to append an offset " + offset + " to position " + n
                        + " no larger than the last offset appended (" + lastOffset + ") to " + source());
            }
            if (position < 0 || (n > 0 && position < physical(idx, n - 1))) {
                throw new IllegalArgumentException("Attempt to append file position " + position + " to " + source()
                        + (n > 0 ? ", whose last entry's is " + physical(idx, n - 1) : ""));
            }
            int at = n * ENTRY_SIZE;
            reserve(at, ENTRY_SIZE);
            idx.putInt(at, relativeOffset(offset));
            idx.putInt(at + 4, position);
            lastOffset = offset;
            incrementEntries();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void truncateTo(long offset) {
        lock.lock();
        try {
            ByteBuffer idx = openBuffer();
            truncateToEntries(idx, IndexSearch.countBelow(this, idx, entries(), offset, IndexSearchType.KEY));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void truncate() {
        lock.lock();
        try {
            truncateToEntries(openBuffer(), 0);
        } finally {
            lock.unlock();
        }
    }

    private void truncateToEntries(ByteBuffer idx, int n) {
        truncateToEntries(n);
        lastOffset = lastEntry(idx, n).offset();
    }

    @Override
    long key(ByteBuffer idx, int n) {
        return baseOffset() + relativeOffset(idx, n);
    }

    @Override
    long value(ByteBuffer idx, int n) {
        return physical(idx, n);
    }

    private OffsetPosition lastEntry(ByteBuffer idx, int n) {
        return n == 0 ? new OffsetPosition(baseOffset(), 0) : parseEntry(idx, n - 1);
    }

    private OffsetPosition parseEntry(ByteBuffer idx, int n) {
        return new OffsetPosition(baseOffset() + relativeOffset(idx, n), physical(idx, n));
    }

    private static int relativeOffset(ByteBuffer idx, int n) {
        return idx.getInt(n * ENTRY_SIZE);
    }

    private static int physical(ByteBuffer idx, int n) {
        return idx.getInt(n * ENTRY_SIZE + 4);
    }
}
