package io.krabka.kernel.log;

/** How a transaction ended: the type of its end-transaction marker. Kafka's name. */
public enum TransactionResult {
    /** The transaction's records are visible to read_committed consumers. */
    COMMIT,
    /** The transaction's records are skipped by read_committed consumers. */
    ABORT
}
