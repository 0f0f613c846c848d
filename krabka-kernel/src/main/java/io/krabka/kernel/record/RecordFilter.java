package io.krabka.kernel.record;

/**
 * What {@link RecordsFilter} keeps of batches: Kafka's {@code MemoryRecords.RecordFilter}, which the log cleaner
 * implements. Each batch is asked about whole first; the records of a batch not deleted whole are asked about one
 * by one.
 */
public interface RecordFilter {

    /** What becomes of a batch as a whole: Kafka's {@code RecordFilter.BatchRetention}. */
    enum BatchRetention {
        /** Deleted without looking at its records. */
        DELETE,
        /** Kept even with no record left: a bare header claiming its offsets. */
        RETAIN_EMPTY,
        /** Kept only if a record is left. */
        DELETE_EMPTY
    }

    /**
     * The answer for a batch: Kafka's {@code BatchRetentionResult}.
     *
     * @param batchRetention            what becomes of the batch
     * @param containsMarkerForEmptyTxn whether it is a transaction marker whose transaction has no record left,
     *                                  which is then kept until a delete horizon set now has passed
     */
    record BatchRetentionResult(BatchRetention batchRetention, boolean containsMarkerForEmptyTxn) {}

    /** What becomes of {@code batch} as a whole; called once per magic 2 batch, before its records. */
    BatchRetentionResult checkBatchRetention(RecordBatch batch);

    /** Whether the record at {@code record} (a cursor over {@code batch}) stays. */
    boolean shouldRetainRecord(RecordBatch batch, RecordCursor record);

    /** Whether {@code record} of a v0 or v1 batch stays. */
    boolean shouldRetainLegacyRecord(Record record);
}
