package io.krabka.kernel.log;

/**
 * An aborted transaction, as a {@code .txnindex} entry records it.
 *
 * @param producerId       the transaction's producer
 * @param firstOffset      the transaction's first offset
 * @param lastOffset       the offset of its abort marker
 * @param lastStableOffset the last stable offset of the partition when the abort was written
 */
public record AbortedTxn(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {

    /** The entry version Kafka writes, and the only one it defines. */
    public static final short CURRENT_VERSION = 0;

    /** Bytes per entry: int16 version, then producerId, firstOffset, lastOffset, lastStableOffset as int64. */
    public static final int TOTAL_SIZE = 34;

    /** Validates the offsets. */
    public AbortedTxn {
        if (firstOffset < 0 || lastStableOffset < 0) {
            throw new IllegalArgumentException("negative offset in aborted transaction: first " + firstOffset
                    + ", last stable " + lastStableOffset);
        }
        if (firstOffset > lastOffset) {
            throw new IllegalArgumentException("first offset " + firstOffset + " is above last offset " + lastOffset);
        }
    }
}
