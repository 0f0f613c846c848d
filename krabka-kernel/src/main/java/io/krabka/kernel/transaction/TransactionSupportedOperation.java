package io.krabka.kernel.transaction;

/**
 * What a transactional write's request version says its client understands (Kafka's
 * {@code AddPartitionsToTxnManager.TransactionSupportedOperation}): whether the partition leader adds the partition to
 * the transaction (transaction version 2) or only verifies it is there, and whether the client knows
 * TRANSACTION_ABORTABLE.
 */
public enum TransactionSupportedOperation {
    /** Verify; a partition outside the transaction is INVALID_TXN_STATE. */
    DEFAULT_ERROR,
    /** Verify; a partition outside the transaction is TRANSACTION_ABORTABLE. */
    GENERIC_ERROR_SUPPORTED,
    /** Add the partition to the transaction (transaction version 2). */
    ADD_PARTITION;

    /** Whether the client ends each transaction with an epoch bump: it speaks transaction version 2. */
    public boolean supportsEpochBump() {
        return this == ADD_PARTITION;
    }

    /** The operation of a Produce request of this version. */
    public static TransactionSupportedOperation forProduce(short version) {
        return version > 11 ? ADD_PARTITION : version > 10 ? GENERIC_ERROR_SUPPORTED : DEFAULT_ERROR;
    }

    /** The operation of a TxnOffsetCommit request of this version. */
    public static TransactionSupportedOperation forTxnOffsetCommit(short version) {
        return version > 4 ? ADD_PARTITION : version > 3 ? GENERIC_ERROR_SUPPORTED : DEFAULT_ERROR;
    }
}
