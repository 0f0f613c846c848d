package io.krabka.kernel.restore.bound;

/** What the restore does with one record of a {@link BatchDecision#FILTER} batch. */
public enum RecordDecision {
    /** The record is written. */
    KEEP,
    /** The record is left out, its offset left as an empty slot: the batch keeps its offset range. */
    EXCLUDED,
    /**
     * The record is past the cut: it and everything after it in the partition are not written, so the batch
     * ends at the record before it.
     */
    BEYOND_CUT
}
