package io.krabka.kernel.log;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.StampedLock;
import java.util.function.Consumer;

/**
 * What Kafka's offset and time indexes share: fixed-size big-endian entries sorted by key, over a memory-mapped
 * file or over bytes from elsewhere.
 *
 * <p>A file-backed index is Kafka's: a writable one whose file does not exist gets a new file preallocated to the
 * maximum index size ({@code segment.index.bytes}) rounded down to whole entries; an existing file is mapped at its
 * length and, as in Kafka, every whole entry in it counts, so a preallocated file that was never trimmed reads as
 * full of entries up to its end. {@link #sanityCheck()} finds that and other damage in constant time; the caller
 * rebuilds an index that is missing ({@link java.nio.file.NoSuchFileException}) or fails it
 * ({@link CorruptIndexException}), as Kafka's log loader does. {@link #trimToValidSize()} cuts the file to its
 * entries when the segment rolls or the log closes; {@link #close()} only unmaps it.
 *
 * <p>An index over bytes is read-only and checked entry by entry when made, as those bytes come from elsewhere.
 *
 * <p>One writer at a time (appends, truncation, resizing are serialized); lookups run concurrently with appends
 * and with each other, take no lock unless a remap or close overlaps them, and allocate nothing but their result.
 */
public abstract sealed class AbstractIndex implements Closeable permits OffsetIndex, TimeIndex {

    /** Serializes changes. */
    final ReentrantLock lock = new ReentrantLock();

    private final StampedLock remapLock = new StampedLock();
    private final long baseOffset;
    private final int entrySize;
    private final int maxIndexSize;
    private final IndexFile indexFile;
    private final String bytesSource;
    private volatile ByteBuffer buffer;
    private volatile int entries;
    private volatile int maxEntries;

    AbstractIndex(Path file, long baseOffset, int maxIndexSize, boolean writable, int entrySize) throws IOException {
        checkBaseOffset(baseOffset);
        if (writable && maxIndexSize < entrySize) {
            throw new IllegalArgumentException("Invalid max index size " + maxIndexSize + " for " + file
                    + ": less than one entry of " + entrySize + " bytes");
        }
        this.baseOffset = baseOffset;
        this.entrySize = entrySize;
        this.maxIndexSize = maxIndexSize;
        this.indexFile = IndexFile.open(file, roundDownToEntries(maxIndexSize), writable);
        this.bytesSource = null;
        this.buffer = indexFile.buffer();
        this.maxEntries = indexFile.length() / entrySize;
        this.entries = indexFile.created() ? 0 : maxEntries;
    }

    AbstractIndex(ByteBuffer bytes, long baseOffset, String source, int entrySize) {
        checkBaseOffset(baseOffset);
        this.baseOffset = baseOffset;
        this.entrySize = entrySize;
        this.indexFile = null;
        this.bytesSource = Objects.requireNonNull(source, "source");
        this.buffer = IndexBuffers.entriesView(bytes, entrySize, source);
        this.maxIndexSize = buffer.capacity();
        this.maxEntries = buffer.capacity() / entrySize;
        this.entries = maxEntries;
    }

    private static void checkBaseOffset(long baseOffset) {
        if (baseOffset < 0 || baseOffset > Long.MAX_VALUE - Integer.MAX_VALUE) {
            throw new IllegalArgumentException("base offset out of range: " + baseOffset);
        }
    }

    /**
     * Kafka's checks on open, and the same kind on the first entry: whole entries, the first and the last entry
     * each sound, the last after the first. A preallocated file that was never trimmed, whose zeros count as
     * entries, fails them. Throws {@link CorruptIndexException} for an index to rebuild.
     */
    public final void sanityCheck() {
        checked(idx -> {
            int last = entries() - 1;
            if (last < 0) {
                return;
            }
            checkEntry(idx, 0);
            checkEntry(idx, last);
            if (last > 0) {
                checkOrder(idx, 0, last, "the first entry's", ", as in a preallocated index that was never trimmed");
            }
        });
    }

    /** Checks every entry, not just the ends {@link #sanityCheck()} looks at; run on bytes from elsewhere. */
    public final void checkAllEntries() {
        checked(idx -> {
            for (int n = 0; n < entries(); n++) {
                checkEntry(idx, n);
                if (n > 0) {
                    checkOrder(idx, n - 1, n, "the previous entry's", "");
                }
            }
        });
    }

    private void checked(Consumer<ByteBuffer> check) {
        long stamp = lockRead();
        try {
            IndexBuffers.checkWholeEntries(length(), entrySize, source());
            check.accept(openBuffer());
        } finally {
            unlockRead(stamp);
        }
    }

    /** Throws {@link CorruptIndexException} if entry {@code n} is not sound on its own. */
    abstract void checkEntry(ByteBuffer idx, int n);

    /**
     * Throws {@link CorruptIndexException} if entry {@code later} does not follow entry {@code earlier}: its key
     * above, its value not below.
     *
     * @param earlierName how the message names the earlier entry
     * @param hint        what the message adds about the key, where an index's shape suggests a cause
     */
    abstract void checkOrder(ByteBuffer idx, int earlier, int later, String earlierName, String hint);

    /** Removes the entries whose offset is at or above {@code offset}; an offset above all removes nothing. */
    public abstract void truncateTo(long offset);

    /** Removes every entry. */
    public abstract void truncate();

    /** The entry's key: what it is sorted by. */
    abstract long key(ByteBuffer idx, int n);

    /** The entry's value. */
    abstract long value(ByteBuffer idx, int n);

    /** Bytes per entry. */
    final int entrySize() {
        return entrySize;
    }

    /** Whether there is no slot left for an append. */
    public boolean isFull() {
        return entries >= maxEntries;
    }

    /** The segment's base offset, which entries are relative to. */
    public long baseOffset() {
        return baseOffset;
    }

    /** The number of entries. */
    public int entries() {
        return entries;
    }

    /** The number of entries the file has room for. */
    public int maxEntries() {
        return maxEntries;
    }

    /** The bytes the entries take. */
    public int sizeInBytes() {
        return entries * entrySize;
    }

    /** The length of the file (or of the bytes), entries and free slots together. */
    public int length() {
        ByteBuffer current = buffer;
        return current == null ? 0 : current.capacity();
    }

    /** The size a {@link #reset()} gives the file. */
    public int maxIndexSize() {
        return maxIndexSize;
    }

    /**
     * The index file, under its current name.
     *
     * @throws IllegalStateException for an index over bytes
     */
    public Path file() {
        return requireFile().path();
    }

    /** The file path, or what the bytes came from: for messages. */
    public String source() {
        return indexFile == null ? bytesSource : indexFile.path().toString();
    }

    /**
     * {@code offset} relative to the base offset.
     *
     * @throws IndexOffsetOverflowException if an entry cannot hold it
     */
    public int relativeOffset(long offset) {
        if (!canAppendOffset(offset)) {
            throw new IndexOffsetOverflowException(
                    "Integer overflow for offset: " + offset + " (" + source() + ", base offset " + baseOffset + ")");
        }
        return (int) (offset - baseOffset);
    }

    /** Whether an entry can hold {@code offset}: at most {@link Integer#MAX_VALUE} above the base offset. */
    public boolean canAppendOffset(long offset) {
        long relative = offset - baseOffset;
        return relative >= 0 && relative <= Integer.MAX_VALUE;
    }

    /**
     * Sets the file's length to {@code newSize} rounded down to whole entries, and maps it again: to trim it on roll,
     * or to give a reloaded active segment's index room again.
     *
     * @return false if the file already had that length
     * @throws IllegalArgumentException if the new size would cut entries
     */
    public boolean resize(int newSize) throws IOException {
        lock.lock();
        try {
            IndexFile file = writableFile();
            openBuffer();
            int rounded = roundDownToEntries(newSize);
            if (rounded < sizeInBytes()) {
                throw new IllegalArgumentException("cannot resize " + source() + " to " + newSize + " bytes: its "
                        + entries + " entries take " + sizeInBytes());
            }
            if (file.length() == rounded) {
                return false;
            }
            long stamp = remapLock.writeLock();
            try {
                buffer = null; // closed until the new mapping is in: a failure leaves the index closed
                buffer = file.resize(rounded);
                maxEntries = rounded / entrySize;
            } finally {
                remapLock.unlockWrite(stamp);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Cuts the file to its entries, dropping the free slots: done when the segment rolls. */
    public void trimToValidSize() throws IOException {
        lock.lock();
        try {
            resize(sizeInBytes());
        } finally {
            lock.unlock();
        }
    }

    /** Removes every entry and gives the file its maximum size again. */
    public void reset() throws IOException {
        lock.lock();
        try {
            truncate();
            resize(maxIndexSize);
        } finally {
            lock.unlock();
        }
    }

    /** Writes the entries to the storage device. */
    public void flush() {
        lock.lock();
        try {
            openBuffer();
            requireFile().force();
        } finally {
            lock.unlock();
        }
    }

    /** Renames the file atomically, e.g. to its {@code .deleted} or {@code .swap} name; the index stays usable. */
    public void renameTo(Path target) throws IOException {
        requireFile().renameTo(target);
    }

    /** Follows a rename of the directory the file is in. */
    public void updateParentDir(Path parentDir) {
        requireFile().updateParentDir(parentDir);
    }

    /** Unmaps and deletes the file; false if it did not exist. */
    public boolean deleteIfExists() throws IOException {
        close();
        return Files.deleteIfExists(file());
    }

    /**
     * Unmaps the file at once; later use fails. Idempotent. As in Kafka 4, closing does not trim: the log trims an
     * active segment's indexes with {@link #trimToValidSize()} before it closes them.
     */
    @Override
    public void close() {
        lock.lock();
        long stamp = remapLock.writeLock();
        try {
            buffer = null;
            if (indexFile != null) {
                indexFile.unmap();
            }
        } finally {
            remapLock.unlockWrite(stamp);
            lock.unlock();
        }
    }

    /** A read of the entries: {@code idx} and {@code n} are a consistent view of them, {@code arg} the caller's. */
    @FunctionalInterface
    interface EntriesRead<T extends AbstractIndex, R> {
        R read(T index, ByteBuffer idx, int n, long arg);
    }

    /**
     * Runs a read of the entries without a lock and checks afterwards that no remap or close came between; if one
     * did, the read fails or its result is dropped, and it runs again with remapping kept out. A remap closes the
     * old mapping before it changes the file, so a read on the old one fails cleanly and never reads past the
     * file's end. Callers pass a non-capturing method reference, so nothing is allocated here.
     */
    final <T extends AbstractIndex, R> R readEntries(EntriesRead<T, R> read, T index, long arg) {
        long stamp = remapLock.tryOptimisticRead();
        if (stamp != 0) {
            try {
                R result = read.read(index, openBuffer(), entries, arg);
                if (remapLock.validate(stamp)) {
                    return result;
                }
            } catch (IllegalStateException | IndexOutOfBoundsException remappedOrClosed) {
                // Decided below, with remapping kept out: a closed index or a bad slot fails there too.
            }
        }
        stamp = remapLock.readLock();
        try {
            return read.read(index, openBuffer(), entries, arg);
        } finally {
            remapLock.unlockRead(stamp);
        }
    }

    /** Keeps remapping and unmapping out until {@link #unlockRead}: taken by reads that must not be retried. */
    final long lockRead() {
        return remapLock.readLock();
    }

    final void unlockRead(long stamp) {
        remapLock.unlockRead(stamp);
    }

    /** The entries' bytes, for reads through {@link #readEntries} or under {@link #lockRead}, and writes under {@link #lock}. */
    final ByteBuffer openBuffer() {
        ByteBuffer current = buffer;
        if (current == null) {
            throw new IllegalStateException("index " + source() + " is closed");
        }
        return current;
    }

    /** The buffer to append to, under {@link #lock}. */
    final ByteBuffer writableBuffer() {
        writableFile();
        return openBuffer();
    }

    /**
     * Makes sure the disk has the blocks for {@code size} bytes of a new entry at {@code at}, under {@link #lock},
     * before it is written to the mapping: a full disk is then an {@link UncheckedIOException} with nothing written.
     */
    final void reserve(int at, int size) {
        try {
            writableFile().reserve(at, size);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not give " + source() + " room for an entry: " + e.getMessage(), e);
        }
    }

    /** Publishes an entry written at slot {@link #entries()}, under {@link #lock}. */
    final void incrementEntries() {
        entries++;
    }

    /** Drops the entries from slot {@code n} on, under {@link #lock}. */
    final void truncateToEntries(int n) {
        writableFile();
        entries = n;
    }

    private int roundDownToEntries(int size) {
        return size < 0 ? size : size / entrySize * entrySize;
    }

    private IndexFile requireFile() {
        if (indexFile == null) {
            throw new IllegalStateException("index over bytes from " + bytesSource + " has no file");
        }
        return indexFile;
    }

    private IndexFile writableFile() {
        IndexFile file = requireFile();
        if (!file.writable()) {
            throw new IllegalStateException("index " + source() + " is read-only");
        }
        return file;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + source() + ", baseOffset=" + baseOffset + ", entries=" + entries
                + "]";
    }
}
