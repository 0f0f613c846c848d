package io.krabka.kernel.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Kafka's time index ({@code .timeindex}): 12-byte big-endian entries, each an int64 timestamp and an int32 offset
 * relative to the segment's base offset, timestamps strictly increasing. An entry (T, O) says that every message
 * after offset O has a timestamp above T, so a lookup gives the offset from which to search for a timestamp. See
 * {@link AbstractIndex} for the file, its checks and its concurrency.
 */
public final class TimeIndex extends AbstractIndex {

    /** Bytes per entry. */
    public static final int ENTRY_SIZE = 12;

    /** The timestamp of a lookup that precedes every entry: Kafka's {@code RecordBatch.NO_TIMESTAMP}. */
    public static final long NO_TIMESTAMP = -1L;

    private volatile TimestampOffset lastEntry;

    /**
     * Opens an index file, as Kafka's {@code TimeIndex(file, baseOffset, maxIndexSize, writable)}.
     *
     * @param file         the {@code .timeindex} file; a writable index creates it if missing
     * @param baseOffset   the segment's base offset, which entries are relative to
     * @param maxIndexSize the size a new or reset file is preallocated to ({@code segment.index.bytes}), rounded
     *                     down to whole entries
     * @param writable     whether appends, truncation and resizing are allowed
     * @throws java.nio.file.NoSuchFileException if a read-only index's file does not exist
     */
    public TimeIndex(Path file, long baseOffset, int maxIndexSize, boolean writable) throws IOException {
        super(file, baseOffset, maxIndexSize, writable, ENTRY_SIZE);
        this.lastEntry = lastEntry(openBuffer(), entries());
    }

    /**
     * A read-only index over bytes, every entry checked.
     *
     * @param bytes      the bytes from their position to their limit: a mapped file or heap bytes
     * @param baseOffset the segment's base offset, which entries are relative to
     * @param source     what the bytes came from, for error messages (a file path)
     * @throws CorruptIndexException if the size is not a multiple of {@value #ENTRY_SIZE}, an offset is
     *                               negative or goes backwards, or a timestamp does not increase
     */
    public TimeIndex(ByteBuffer bytes, long baseOffset, String source) {
        super(bytes, baseOffset, source, ENTRY_SIZE);
        checkAllEntries();
        this.lastEntry = lastEntry(openBuffer(), entries());
    }

    @Override
    void checkOrder(ByteBuffer idx, int earlier, int later, String earlierName, String hint) {
        long at = (long) later * ENTRY_SIZE;
        if (timestamp(idx, later) <= timestamp(idx, earlier)) {
            throw new CorruptIndexException(
                    source(),
                    at,
                    "timestamp " + timestamp(idx, later) + " is not above " + earlierName + " "
                            + timestamp(idx, earlier) + hint);
        }
        if (relativeOffset(idx, later) < relativeOffset(idx, earlier)) {
            throw new CorruptIndexException(
                    source(),
                    at + 8,
                    "relative offset " + relativeOffset(idx, later) + " goes backwards from " + earlierName + " "
                            + relativeOffset(idx, earlier));
        }
    }

    /** The offset is not below the base offset; the timestamp may be anything. */
    @Override
    void checkEntry(ByteBuffer idx, int n) {
        int relativeOffset = relativeOffset(idx, n);
        if (relativeOffset < 0) {
            throw new CorruptIndexException(
                    source(),
                    (long) n * ENTRY_SIZE + 8,
                    "relative offset " + relativeOffset + " is negative: offset " + (baseOffset() + relativeOffset)
                            + " is below the base offset " + baseOffset());
        }
    }

    /** Full one slot early, as in Kafka: the last slot is kept for the entry a roll appends. */
    @Override
    public boolean isFull() {
        return entries() >= maxEntries() - 1;
    }

    /**
     * The entry with the largest timestamp at or below {@code targetTimestamp}, as Kafka's
     * {@code TimeIndex.lookup}. When the target precedes every entry, or the index is empty:
     * ({@link #NO_TIMESTAMP}, base offset).
     */
    public TimestampOffset lookup(long targetTimestamp) {
        return readEntries(TimeIndex::floorEntry, this, targetTimestamp);
    }

    private TimestampOffset floorEntry(ByteBuffer idx, int n, long targetTimestamp) {
        int slot = IndexSearch.countAtOrBelow(this, idx, n, targetTimestamp, IndexSearchType.KEY) - 1;
        return slot < 0 ? new TimestampOffset(NO_TIMESTAMP, baseOffset()) : parseEntry(idx, slot);
    }

    /** The {@code n}th entry, from zero. */
    public TimestampOffset entry(int n) {
        return readEntries(TimeIndex::entryAt, this, n);
    }

    private TimestampOffset entryAt(ByteBuffer idx, int n, long slot) {
        return parseEntry(idx, (int) Objects.checkIndex(slot, n));
    }

    /** The last entry, or ({@link #NO_TIMESTAMP}, base offset) when the index is empty. */
    public TimestampOffset lastEntry() {
        return lastEntry;
    }

    /** {@link #maybeAppend(long, long, boolean)} with the full check. */
    public void maybeAppend(long timestamp, long offset) {
        maybeAppend(timestamp, offset, false);
    }

    /**
     * Appends an entry if {@code timestamp} is above the last entry's, as Kafka's {@code maybeAppend}: a timestamp
     * equal to the last (a segment closed or rolled twice) or {@link #NO_TIMESTAMP} (old message formats) adds
     * nothing.
     *
     * @param skipFullCheck true only for the entry a roll or close appends, which may take the last slot
     * @throws IllegalArgumentException     if the index is full
     * @throws InvalidOffsetException       if the offset is below the last entry's
     * @throws IllegalStateException        if the timestamp is below the last entry's, or the index is
     *                                      read-only or closed
     * @throws IndexOffsetOverflowException if the offset is below the base offset or too far above it
     */
    public void maybeAppend(long timestamp, long offset, boolean skipFullCheck) {
        lock.lock();
        try {
            ByteBuffer idx = writableBuffer();
            int n = entries();
            if ((!skipFullCheck && isFull()) || n >= maxEntries()) {
                throw new IllegalArgumentException(
                        "Attempt to append to a full time index (size = " + n + ") " + source());
            }
            TimestampOffset last = lastEntry;
            if (n > 0 && offset < last.offset()) {
                throw new InvalidOffsetException("Attempt to append an offset (" + offset + ") to slot " + n
                        + " no larger than the last offset appended (" + last.offset() + ") to " + source());
            }
            if (n > 0 && timestamp < last.timestamp()) {
                throw new IllegalStateException("Attempt to append a timestamp (" + timestamp + ") to slot " + n
                        + " no larger than the last timestamp appended (" + last.timestamp() + ") to " + source());
            }
            if (timestamp > last.timestamp()) {
                int at = n * ENTRY_SIZE;
                reserve(at, ENTRY_SIZE);
                idx.putLong(at, timestamp);
                idx.putInt(at + 8, relativeOffset(offset));
                lastEntry = new TimestampOffset(timestamp, offset);
                incrementEntries();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Removes the entries whose offset is at or above {@code offset}. */
    @Override
    public void truncateTo(long offset) {
        lock.lock();
        try {
            ByteBuffer idx = openBuffer();
            truncateToEntries(idx, IndexSearch.countBelow(this, idx, entries(), offset, IndexSearchType.VALUE));
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
        lastEntry = lastEntry(idx, n);
    }

    @Override
    long key(ByteBuffer idx, int n) {
        return timestamp(idx, n);
    }

    @Override
    long value(ByteBuffer idx, int n) {
        return baseOffset() + relativeOffset(idx, n);
    }

    private TimestampOffset lastEntry(ByteBuffer idx, int n) {
        return n == 0 ? new TimestampOffset(NO_TIMESTAMP, baseOffset()) : parseEntry(idx, n - 1);
    }

    private TimestampOffset parseEntry(ByteBuffer idx, int n) {
        return new TimestampOffset(timestamp(idx, n), baseOffset() + relativeOffset(idx, n));
    }

    private static long timestamp(ByteBuffer idx, int n) {
        return idx.getLong(n * ENTRY_SIZE);
    }

    private static int relativeOffset(ByteBuffer idx, int n) {
        return idx.getInt(n * ENTRY_SIZE + 8);
    }
}
