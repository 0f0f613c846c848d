package io.krabka.kernel.transaction;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The states of a transactional id, with Kafka's ids (in {@code __transaction_state}) and names (in
 * DescribeTransactions and ListTransactions), and the states each may follow.
 */
public enum TransactionState {
    /** No transaction: after InitProducerId, or once one completed and the id was fenced or re-initialized. */
    EMPTY(0, "Empty", true),
    /** Partitions were added: a transaction is open. */
    ONGOING(1, "Ongoing", false),
    /** Committing: the decision is in the log, markers are being written. */
    PREPARE_COMMIT(2, "PrepareCommit", false),
    /** Aborting: the decision is in the log, markers are being written. */
    PREPARE_ABORT(3, "PrepareAbort", false),
    /** Every commit marker is written. */
    COMPLETE_COMMIT(4, "CompleteCommit", true),
    /** Every abort marker is written. */
    COMPLETE_ABORT(5, "CompleteAbort", true),
    /** The transactional id expired and is being removed. */
    DEAD(6, "Dead", false),
    /** An open transaction is being fenced (its epoch bumped) before its abort; never written. */
    PREPARE_EPOCH_FENCE(7, "PrepareEpochFence", false);

    private final byte id;
    private final String stateName;
    private final boolean expirationAllowed;

    TransactionState(int id, String stateName, boolean expirationAllowed) {
        this.id = (byte) id;
        this.stateName = stateName;
        this.expirationAllowed = expirationAllowed;
    }

    /** The id in {@code __transaction_state}. */
    public byte id() {
        return id;
    }

    /** The name the admin APIs give. */
    public String stateName() {
        return stateName;
    }

    /** Whether a transactional id in this state may expire. */
    public boolean isExpirationAllowed() {
        return expirationAllowed;
    }

    /** The states a transactional id may come to this one from. */
    public Set<TransactionState> validPreviousStates() {
        return switch (this) {
            case EMPTY -> EnumSet.of(EMPTY, COMPLETE_COMMIT, COMPLETE_ABORT);
            case ONGOING -> EnumSet.of(ONGOING, EMPTY, COMPLETE_COMMIT, COMPLETE_ABORT);
            case PREPARE_COMMIT -> EnumSet.of(ONGOING);
            // KIP-890: a transaction-version-2 client may abort with no transaction open.
            case PREPARE_ABORT -> EnumSet.of(ONGOING, PREPARE_EPOCH_FENCE, EMPTY, COMPLETE_COMMIT, COMPLETE_ABORT);
            case COMPLETE_COMMIT -> EnumSet.of(PREPARE_COMMIT);
            case COMPLETE_ABORT -> EnumSet.of(PREPARE_ABORT);
            case DEAD -> EnumSet.of(EMPTY, COMPLETE_ABORT, COMPLETE_COMMIT);
            case PREPARE_EPOCH_FENCE -> EnumSet.of(ONGOING);
        };
    }

    /** Whether markers are being written: the transaction is decided but not complete. */
    public boolean isPreparing() {
        return this == PREPARE_COMMIT || this == PREPARE_ABORT;
    }

    /** The state with this id. */
    public static TransactionState fromId(byte id) {
        return Arrays.stream(values())
                .filter(state -> state.id == id)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no transaction state has id " + id));
    }

    /** The state with this name, as the admin APIs give it. */
    public static Optional<TransactionState> fromName(String name) {
        return Arrays.stream(values())
                .filter(state -> state.stateName.equals(name))
                .findFirst();
    }
}
