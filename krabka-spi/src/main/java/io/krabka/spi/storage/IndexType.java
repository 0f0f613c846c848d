package io.krabka.spi.storage;

/** The files that travel with a segment to the remote tier, besides the log itself. */
public enum IndexType {
    /** The sparse offset index, {@code .index}. */
    OFFSET,
    /** The time index, {@code .timeindex}. */
    TIMESTAMP,
    /** The producer-state snapshot, {@code .snapshot}. */
    PRODUCER_SNAPSHOT,
    /** The aborted-transaction index, {@code .txnindex}; the only one a segment may lack. */
    TRANSACTION,
    /** The leader-epoch checkpoint up to the end of the segment. */
    LEADER_EPOCH
}
