package io.krabka.kernel.log;

/**
 * A verification under way for one producer of a partition (Kafka's name): its guard, when it began (it expires
 * with the producer ids, {@code producer.id.expiration.ms}), the epoch it is for, and whether the producer speaks
 * transaction version 2.
 */
public final class VerificationStateEntry {

    private final long timestamp;
    private final VerificationGuard guard = new VerificationGuard();
    private final short epoch;
    private final boolean supportsEpochBump;

    VerificationStateEntry(long timestamp, short epoch, boolean supportsEpochBump) {
        this.timestamp = timestamp;
        this.epoch = epoch;
        this.supportsEpochBump = supportsEpochBump;
    }

    /** When the verification began. */
    public long timestamp() {
        return timestamp;
    }

    /** Its guard. */
    public VerificationGuard guard() {
        return guard;
    }

    /** The producer epoch it verifies. */
    public short epoch() {
        return epoch;
    }

    /** Whether the producer ends each transaction with an epoch bump (transaction version 2). */
    public boolean supportsEpochBump() {
        return supportsEpochBump;
    }
}
