package io.krabka.kernel.restore.bound;

import io.krabka.kernel.record.Record;

/** What the restore does with one batch, decided from its header by {@link RestoreBounds#decide(BatchHeader)}. */
public enum BatchDecision {
    /** Every record is kept: the batch is copied byte for byte. */
    KEEP,
    /** The batch is past the cut: it and every later batch of the partition are not written. */
    DROP,
    /** Some records may be kept and some not: each is decided by {@link RestoreBounds#decide(BatchHeader, Record)}. */
    FILTER,
    /**
     * Every record is excluded: the batch is written as a header without records, which keeps its offset range
     * claimed so that no later offset moves.
     */
    EMPTY
}
