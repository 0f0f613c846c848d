package io.krabka.kernel.log;

import java.nio.ByteBuffer;

/** The layout of {@code .txnindex} entries: encoding, decoding and checking one entry in a buffer of entries. */
final class TxnIndexEntries {

    private static final int PRODUCER_ID = 2;
    private static final int FIRST_OFFSET = 10;
    private static final int LAST_OFFSET = 18;
    private static final int LAST_STABLE_OFFSET = 26;

    private TxnIndexEntries() {}

    /** The entry's 34 bytes, version 0. */
    static ByteBuffer encode(AbortedTxn txn) {
        return ByteBuffer.allocate(AbortedTxn.TOTAL_SIZE)
                .putShort(AbortedTxn.CURRENT_VERSION)
                .putLong(txn.producerId())
                .putLong(txn.firstOffset())
                .putLong(txn.lastOffset())
                .putLong(txn.lastStableOffset())
                .flip();
    }

    /** The {@code n}th entry of {@code entries}, which {@link #check} passed. */
    static AbortedTxn decode(ByteBuffer entries, int n) {
        return new AbortedTxn(
                entries.getLong(at(n) + PRODUCER_ID),
                firstOffset(entries, n),
                lastOffset(entries, n),
                lastStableOffset(entries, n));
    }

    static long firstOffset(ByteBuffer entries, int n) {
        return entries.getLong(at(n) + FIRST_OFFSET);
    }

    static long lastOffset(ByteBuffer entries, int n) {
        return entries.getLong(at(n) + LAST_OFFSET);
    }

    static long lastStableOffset(ByteBuffer entries, int n) {
        return entries.getLong(at(n) + LAST_STABLE_OFFSET);
    }

    /**
     * Checks the {@code n}th entry, and that its last offset does not go below the previous entry's. Kafka
     * rejects unknown versions while reading and last offsets below the start in its sanityCheck; its append
     * refuses last offsets that do not increase.
     *
     * @throws CorruptIndexException naming {@code source} and the byte position of the problem
     */
    static void check(ByteBuffer entries, int n, long startOffset, String source) {
        long at = at(n);
        short version = entries.getShort(at(n));
        long firstOffset = firstOffset(entries, n);
        long lastOffset = lastOffset(entries, n);
        long lastStableOffset = lastStableOffset(entries, n);
        if (version != AbortedTxn.CURRENT_VERSION) {
            throw new CorruptIndexException(
                    source,
                    at,
                    "unknown aborted transaction version " + version + ", the only known version is "
                            + AbortedTxn.CURRENT_VERSION);
        }
        if (firstOffset < 0) {
            throw new CorruptIndexException(source, at + FIRST_OFFSET, "first offset " + firstOffset + " is negative");
        }
        if (firstOffset > lastOffset) {
            throw new CorruptIndexException(
                    source,
                    at + LAST_OFFSET,
                    "last offset " + lastOffset + " is below the first offset " + firstOffset);
        }
        if (lastOffset < startOffset) {
            throw new CorruptIndexException(
                    source,
                    at + LAST_OFFSET,
                    "last offset " + lastOffset + " is below the segment's start offset " + startOffset);
        }
        if (lastStableOffset < 0) {
            throw new CorruptIndexException(
                    source, at + LAST_STABLE_OFFSET, "last stable offset " + lastStableOffset + " is negative");
        }
        if (n > 0 && lastOffset < lastOffset(entries, n - 1)) {
            throw new CorruptIndexException(
                    source,
                    at + LAST_OFFSET,
                    "last offset " + lastOffset + " goes backwards from the previous entry's "
                            + lastOffset(entries, n - 1));
        }
    }

    private static int at(int n) {
        return n * AbortedTxn.TOTAL_SIZE;
    }
}
