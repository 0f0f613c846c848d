package io.krabka.kernel.log;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A read-only decoder of Kafka's transaction index ({@code .txnindex}): the aborted transactions whose abort
 * markers are in one segment, as {@value AbortedTxn#TOTAL_SIZE}-byte big-endian entries (int16 version, then
 * producerId, firstOffset, lastOffset and lastStableOffset as int64), in the order of their last offsets.
 *
 * <p>The bytes are checked once, when the decoder is made; searches read the shared buffer with absolute reads
 * and are safe from many threads.
 */
public final class TransactionIndex {

    private static final int PRODUCER_ID = 2;
    private static final int FIRST_OFFSET = 10;
    private static final int LAST_OFFSET = 18;
    private static final int LAST_STABLE_OFFSET = 26;

    private final ByteBuffer entriesBuffer;
    private final long startOffset;
    private final String source;
    private final int entries;

    /**
     * Decodes and checks index bytes.
     *
     * @param bytes       the bytes from their position to their limit: a mapped file or heap bytes
     * @param startOffset the segment's base offset
     * @param source      what the bytes came from, for error messages (a file path)
     * @throws CorruptIndexException if the size is not a multiple of {@value AbortedTxn#TOTAL_SIZE}, or an entry
     *                               has an unknown version, a negative offset, a first offset above its last, a
     *                               last offset below the segment's start or below the previous entry's
     */
    public TransactionIndex(ByteBuffer bytes, long startOffset, String source) {
        if (startOffset < 0) {
            throw new IllegalArgumentException("start offset out of range: " + startOffset);
        }
        this.entriesBuffer = IndexBuffers.entriesView(bytes, AbortedTxn.TOTAL_SIZE, source);
        this.startOffset = startOffset;
        this.source = Objects.requireNonNull(source, "source");
        this.entries = entriesBuffer.remaining() / AbortedTxn.TOTAL_SIZE;
        sanityCheck();
    }

    // Kafka rejects versions above the current one while reading and last offsets below the start in
    // sanityCheck; its append refuses last offsets that do not increase.
    private void sanityCheck() {
        for (int n = 0; n < entries; n++) {
            int at = n * AbortedTxn.TOTAL_SIZE;
            short version = entriesBuffer.getShort(at);
            long firstOffset = firstOffset(n);
            long lastOffset = lastOffset(n);
            long lastStableOffset = lastStableOffset(n);
            if (version != AbortedTxn.CURRENT_VERSION) {
                throw new CorruptIndexException(source, at, "unknown aborted transaction version " + version
                        + ", the only known version is " + AbortedTxn.CURRENT_VERSION);
            }
            if (firstOffset < 0) {
                throw new CorruptIndexException(source, at + FIRST_OFFSET, "first offset " + firstOffset + " is negative");
            }
            if (firstOffset > lastOffset) {
                throw new CorruptIndexException(source, at + LAST_OFFSET, "last offset " + lastOffset
                        + " is below the first offset " + firstOffset);
            }
            if (lastOffset < startOffset) {
                throw new CorruptIndexException(source, at + LAST_OFFSET, "last offset " + lastOffset
                        + " is below the segment's start offset " + startOffset);
            }
            if (lastStableOffset < 0) {
                throw new CorruptIndexException(source, at + LAST_STABLE_OFFSET, "last stable offset "
                        + lastStableOffset + " is negative");
            }
            if (n > 0 && lastOffset < lastOffset(n - 1)) {
                throw new CorruptIndexException(source, at + LAST_OFFSET, "last offset " + lastOffset
                        + " goes backwards from the previous entry's " + lastOffset(n - 1));
            }
        }
    }

    /**
     * The aborted transactions that overlap the fetch range [{@code fetchOffset}, {@code upperBoundOffset}), as
     * Kafka's {@code collectAbortedTxns}: those with {@code lastOffset >= fetchOffset} and
     * {@code firstOffset < upperBoundOffset}. The scan stops, complete, after the first entry whose last stable
     * offset is at or above {@code upperBoundOffset}: no later abort can overlap the range. It is a linear scan
     * as in Kafka, whose result depends on that stop; the index holds only aborted transactions, so it is short.
     */
    public TxnIndexSearchResult collectAbortedTxns(long fetchOffset, long upperBoundOffset) {
        List<AbortedTxn> overlapping = List.of();
        boolean complete = false;
        for (int n = 0; n < entries && !complete; n++) {
            if (lastOffset(n) >= fetchOffset && firstOffset(n) < upperBoundOffset) {
                if (overlapping.isEmpty()) {
                    overlapping = new ArrayList<>();
                }
                overlapping.add(entry(n));
            }
            complete = lastStableOffset(n) >= upperBoundOffset;
        }
        return new TxnIndexSearchResult(overlapping, complete);
    }

    /** Every entry, in index order. */
    public List<AbortedTxn> allAbortedTxns() {
        List<AbortedTxn> all = new ArrayList<>(entries);
        for (int n = 0; n < entries; n++) {
            all.add(entry(n));
        }
        return List.copyOf(all);
    }

    /** The {@code n}th entry, from zero. */
    public AbortedTxn entry(int n) {
        Objects.checkIndex(n, entries);
        return new AbortedTxn(entriesBuffer.getLong(n * AbortedTxn.TOTAL_SIZE + PRODUCER_ID),
                firstOffset(n), lastOffset(n), lastStableOffset(n));
    }

    /** The segment's base offset. */
    public long startOffset() {
        return startOffset;
    }

    /** The number of entries. */
    public int entries() {
        return entries;
    }

    /** The size of the index in bytes. */
    public int sizeInBytes() {
        return entries * AbortedTxn.TOTAL_SIZE;
    }

    /** What the bytes came from. */
    public String source() {
        return source;
    }

    private long firstOffset(int n) {
        return entriesBuffer.getLong(n * AbortedTxn.TOTAL_SIZE + FIRST_OFFSET);
    }

    private long lastOffset(int n) {
        return entriesBuffer.getLong(n * AbortedTxn.TOTAL_SIZE + LAST_OFFSET);
    }

    private long lastStableOffset(int n) {
        return entriesBuffer.getLong(n * AbortedTxn.TOTAL_SIZE + LAST_STABLE_OFFSET);
    }

    @Override
    public String toString() {
        return "TransactionIndex[" + source + ", startOffset=" + startOffset + ", entries=" + entries + "]";
    }
}
