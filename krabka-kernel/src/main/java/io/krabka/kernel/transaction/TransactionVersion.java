package io.krabka.kernel.transaction;

/**
 * Kafka's {@code transaction.version} levels. A client says which it speaks by its request versions (EndTxn v5+,
 * AddPartitionsToTxn v4+, Produce v12+, TxnOffsetCommit v5+ are version 2, older ones version 0); the cluster's
 * finalized level decides how the coordinator writes {@code __transaction_state} and how it ends the transactions
 * it aborts itself.
 */
public enum TransactionVersion {
    /** Transactions as before KIP-890. */
    TV_0,
    /** KIP-890 part 1: the partition leader verifies that a partition is in the transaction. */
    TV_1,
    /** KIP-890 part 2: every transaction ends with an epoch bump; partitions are added by their leaders. */
    TV_2;

    /** The level's number. */
    public short featureLevel() {
        return (short) ordinal();
    }

    /** Whether every ending of a transaction bumps the producer epoch. */
    public boolean supportsEpochBump() {
        return this == TV_2;
    }

    /** The version of {@code TransactionLogValue} written at this level: 1 (flexible) from version 1. */
    public short transactionLogValueVersion() {
        return this == TV_0 ? (short) 0 : (short) 1;
    }

    /** The version of a level; levels above the highest known read as the highest. */
    public static TransactionVersion fromFeatureLevel(short level) {
        if (level <= 0) {
            return TV_0;
        }
        return level == 1 ? TV_1 : TV_2;
    }
}
