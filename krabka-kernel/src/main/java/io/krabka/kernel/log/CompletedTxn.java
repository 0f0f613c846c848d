package io.krabka.kernel.log;

/**
 * A transaction whose marker has just been appended. The log asks {@link ProducerStateManager#lastStableOffset}
 * for the last stable offset, writes an aborted transaction to the segment's transaction index, and then calls
 * {@link ProducerStateManager#completeTxn}. Kafka's name.
 *
 * @param producerId  the transaction's producer
 * @param firstOffset the offset of its first batch
 * @param lastOffset  the offset of its marker
 * @param isAborted   whether the marker is an abort
 */
public record CompletedTxn(long producerId, long firstOffset, long lastOffset, boolean isAborted) {

    /** Validates the offsets. */
    public CompletedTxn {
        if (firstOffset < 0 || lastOffset < firstOffset) {
            throw new IllegalArgumentException("offsets out of range: first " + firstOffset + ", last " + lastOffset);
        }
    }

    /**
     * The transaction index entry of this aborted transaction.
     *
     * @param lastStableOffset the partition's last stable offset once the marker is written
     * @throws IllegalStateException if the transaction was committed: only aborts are indexed
     */
    public AbortedTxn toAbortedTxn(long lastStableOffset) {
        if (!isAborted) {
            throw new IllegalStateException("a committed transaction has no transaction index entry: " + this);
        }
        return new AbortedTxn(producerId, firstOffset, lastOffset, lastStableOffset);
    }
}
