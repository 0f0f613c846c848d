package io.krabka.kernel.log;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Kafka's transaction index ({@code .txnindex}): the aborted transactions whose abort markers are in one segment,
 * as {@value AbortedTxn#TOTAL_SIZE}-byte big-endian entries (int16 version 0, then producerId, firstOffset,
 * lastOffset and lastStableOffset as int64), in the order of their last offsets.
 *
 * <p>A file-backed index is Kafka's: not preallocated, made by its first append, read from the file on each
 * search. An index over bytes is read-only and checked entry by entry when made. Searches run concurrently with
 * appends and see only whole entries; a file that cannot be read fails them with an {@link UncheckedIOException}.
 */
public final class TransactionIndex implements Closeable {

    private static final long NO_LAST_OFFSET = -1;

    private final long startOffset;
    private final TxnIndexFile txnFile;
    private final ByteBuffer bytes;
    private final String bytesSource;
    private long lastOffset = NO_LAST_OFFSET;

    /**
     * Opens a transaction index file, which need not exist yet, as Kafka's {@code TransactionIndex(startOffset,
     * file)}.
     *
     * @param startOffset the segment's base offset
     * @param file        the {@code .txnindex} file
     */
    public TransactionIndex(long startOffset, Path file) throws IOException {
        this.startOffset = checkStartOffset(startOffset);
        this.txnFile = new TxnIndexFile(file);
        this.bytes = null;
        this.bytesSource = null;
        long entries = txnFile.size() / AbortedTxn.TOTAL_SIZE;
        if (entries > 0) {
            ByteBuffer last = txnFile.read((entries - 1) * AbortedTxn.TOTAL_SIZE, AbortedTxn.TOTAL_SIZE);
            this.lastOffset = TxnIndexEntries.lastOffset(last, 0);
        }
    }

    /**
     * A read-only index over bytes, every entry checked.
     *
     * @param bytes       the bytes from their position to their limit: a mapped file or heap bytes
     * @param startOffset the segment's base offset
     * @param source      what the bytes came from, for error messages (a file path)
     * @throws CorruptIndexException if the size is not a multiple of {@value AbortedTxn#TOTAL_SIZE}, or an entry
     *                               has an unknown version, a negative offset, a first offset above its last, a
     *                               last offset below the segment's start or below the previous entry's
     */
    public TransactionIndex(ByteBuffer bytes, long startOffset, String source) {
        this.startOffset = checkStartOffset(startOffset);
        this.txnFile = null;
        this.bytes = IndexBuffers.entriesView(bytes, AbortedTxn.TOTAL_SIZE, source);
        this.bytesSource = source;
        sanityCheck();
    }

    private static long checkStartOffset(long startOffset) {
        if (startOffset < 0) {
            throw new IllegalArgumentException("start offset out of range: " + startOffset);
        }
        return startOffset;
    }

    /**
     * Checks every entry, as Kafka's {@code sanityCheck} does, and more: whole entries, version 0, offsets not
     * negative, first offset at or below last, last offsets at or above the segment's start and not going
     * backwards.
     *
     * @throws CorruptIndexException for an index to rebuild
     */
    public void sanityCheck() {
        IndexBuffers.checkWholeEntries(
                txnFile == null ? bytes.remaining() : txnFile.size(), AbortedTxn.TOTAL_SIZE, source());
        ByteBuffer all = readAll();
        for (int n = 0; n < all.remaining() / AbortedTxn.TOTAL_SIZE; n++) {
            TxnIndexEntries.check(all, n, startOffset, source());
        }
    }

    /**
     * Appends an aborted transaction.
     *
     * @throws IllegalArgumentException if its last offset is not above the last entry's, or below the segment's
     *                                  start
     * @throws IllegalStateException    for an index over bytes
     */
    public void append(AbortedTxn abortedTxn) throws IOException {
        TxnIndexFile file = requireFile();
        synchronized (file) {
            if (lastOffset != NO_LAST_OFFSET && lastOffset >= abortedTxn.lastOffset()) {
                throw new IllegalArgumentException(
                        "The last offset of appended transactions must increase sequentially, but "
                                + abortedTxn.lastOffset() + " is not greater than current last offset " + lastOffset
                                + " of index " + source());
            }
            if (abortedTxn.lastOffset() < startOffset) {
                throw new IllegalArgumentException("Last offset " + abortedTxn.lastOffset() + " of " + abortedTxn
                        + " is below the start offset " + startOffset + " of index " + source());
            }
            file.append(TxnIndexEntries.encode(abortedTxn));
            lastOffset = abortedTxn.lastOffset();
        }
    }

    /** Removes the entries whose last offset is at or above {@code offset}. */
    public void truncateTo(long offset) throws IOException {
        TxnIndexFile file = requireFile();
        synchronized (file) {
            ByteBuffer all = readAll();
            int n = 0;
            while (n < all.remaining() / AbortedTxn.TOTAL_SIZE && TxnIndexEntries.lastOffset(all, n) < offset) {
                n++;
            }
            file.truncate((long) n * AbortedTxn.TOTAL_SIZE);
            lastOffset = n == 0 ? NO_LAST_OFFSET : TxnIndexEntries.lastOffset(all, n - 1);
        }
    }

    /** Removes every entry. */
    public void reset() throws IOException {
        truncateTo(Long.MIN_VALUE);
    }

    /**
     * The aborted transactions that overlap the fetch range [{@code fetchOffset}, {@code upperBoundOffset}), as
     * Kafka's {@code collectAbortedTxns}: those with {@code lastOffset >= fetchOffset} and
     * {@code firstOffset < upperBoundOffset}. The scan stops, complete, after the first entry whose last stable
     * offset is at or above {@code upperBoundOffset}: no later abort can overlap the range. It is a linear scan
     * as in Kafka, whose result depends on that stop; the index holds only aborted transactions, so it is short.
     */
    public TxnIndexSearchResult collectAbortedTxns(long fetchOffset, long upperBoundOffset) {
        ByteBuffer all = readAll();
        int entries = all.remaining() / AbortedTxn.TOTAL_SIZE;
        List<AbortedTxn> overlapping = List.of();
        boolean complete = false;
        for (int n = 0; n < entries && !complete; n++) {
            if (TxnIndexEntries.lastOffset(all, n) >= fetchOffset
                    && TxnIndexEntries.firstOffset(all, n) < upperBoundOffset) {
                if (overlapping.isEmpty()) {
                    overlapping = new ArrayList<>();
                }
                overlapping.add(TxnIndexEntries.decode(all, n));
            }
            complete = TxnIndexEntries.lastStableOffset(all, n) >= upperBoundOffset;
        }
        return new TxnIndexSearchResult(overlapping, complete);
    }

    /** Every entry, in index order. */
    public List<AbortedTxn> allAbortedTxns() {
        ByteBuffer all = readAll();
        List<AbortedTxn> txns = new ArrayList<>();
        for (int n = 0; n < all.remaining() / AbortedTxn.TOTAL_SIZE; n++) {
            txns.add(TxnIndexEntries.decode(all, n));
        }
        return List.copyOf(txns);
    }

    /** The {@code n}th entry, from zero. */
    public AbortedTxn entry(int n) {
        Objects.checkIndex(n, entries());
        if (txnFile == null) {
            return TxnIndexEntries.decode(bytes, n);
        }
        try {
            return TxnIndexEntries.decode(txnFile.read((long) n * AbortedTxn.TOTAL_SIZE, AbortedTxn.TOTAL_SIZE), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("Failed to read from the transaction index " + source(), e);
        }
    }

    /** The number of whole entries. */
    public int entries() {
        return sizeInBytes() / AbortedTxn.TOTAL_SIZE;
    }

    /** Whether the index holds no entry; true for a file not made yet. */
    public boolean isEmpty() {
        return entries() == 0;
    }

    /** The size of the index in bytes. */
    public int sizeInBytes() {
        return txnFile == null ? bytes.remaining() : (int) Math.min(Integer.MAX_VALUE, txnFile.size());
    }

    /** The segment's base offset. */
    public long startOffset() {
        return startOffset;
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
        return txnFile == null ? bytesSource : txnFile.path().toString();
    }

    /** Writes the entries to the storage device. */
    public void flush() throws IOException {
        requireFile().flush();
    }

    /** Renames the file atomically, if it exists, e.g. to its {@code .deleted} name; the index stays usable. */
    public void renameTo(Path target) throws IOException {
        requireFile().renameTo(target);
    }

    /** Follows a rename of the directory the file is in. */
    public void updateParentDir(Path parentDir) {
        requireFile().updateParentDir(parentDir);
    }

    /** Closes the file; a later use opens it again. Does nothing for an index over bytes. */
    @Override
    public void close() throws IOException {
        if (txnFile != null) {
            txnFile.close();
        }
    }

    /** Closes and deletes the file; false if it did not exist. */
    public boolean deleteIfExists() throws IOException {
        TxnIndexFile file = requireFile();
        synchronized (file) {
            lastOffset = NO_LAST_OFFSET;
            return file.deleteIfExists();
        }
    }

    private ByteBuffer readAll() {
        if (txnFile == null) {
            return bytes;
        }
        try {
            ByteBuffer all = txnFile.readAll();
            return all.limit(all.limit() - all.limit() % AbortedTxn.TOTAL_SIZE);
        } catch (IOException e) {
            throw new UncheckedIOException("Failed to read from the transaction index " + source(), e);
        }
    }

    private TxnIndexFile requireFile() {
        if (txnFile == null) {
            throw new IllegalStateException("transaction index over bytes from " + bytesSource + " has no file");
        }
        return txnFile;
    }

    @Override
    public String toString() {
        return "TransactionIndex[" + source() + ", startOffset=" + startOffset + ", entries=" + entries() + "]";
    }
}
