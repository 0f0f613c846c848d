package io.krabka.kernel.transaction;

import io.krabka.spi.common.TopicPartition;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.protocol.Errors;

/**
 * The state of one transactional id (Kafka's {@code TransactionMetadata}): its producer id and epochs, its open
 * transaction's partitions and times, and the state it is in. A change is prepared ({@code prepare...}, which
 * records the pending state and returns the {@link TxnTransitMetadata} to write), written to the log, then
 * completed ({@link #completeTransitionTo}) or abandoned ({@link #abandonTransition}). Callers hold the object's
 * monitor around every use.
 */
public final class TransactionMetadata {

    /** No producer id. */
    public static final long NO_PRODUCER_ID = -1;
    /** No producer epoch. */
    public static final short NO_PRODUCER_EPOCH = -1;

    private final String transactionalId;
    private long producerId;
    private long prevProducerId;
    private long nextProducerId;
    private short producerEpoch;
    private short lastProducerEpoch;
    private int txnTimeoutMs;
    private TransactionState state;
    private final Set<TopicPartition> topicPartitions;
    private long txnStartTimestamp;
    private long txnLastUpdateTimestamp;
    private TransactionVersion clientTransactionVersion;
    private Optional<TransactionState> pendingState = Optional.empty();
    // An epoch fence whose write failed already bumped the epoch in memory: the next fence must not bump it again.
    private boolean hasFailedEpochFence;

    /** A transactional id in this state. */
    public TransactionMetadata(
            String transactionalId,
            long producerId,
            long prevProducerId,
            long nextProducerId,
            short producerEpoch,
            short lastProducerEpoch,
            int txnTimeoutMs,
            TransactionState state,
            Set<TopicPartition> topicPartitions,
            long txnStartTimestamp,
            long txnLastUpdateTimestamp,
            TransactionVersion clientTransactionVersion) {
        this.transactionalId = Objects.requireNonNull(transactionalId, "transactionalId");
        this.producerId = producerId;
        this.prevProducerId = prevProducerId;
        this.nextProducerId = nextProducerId;
        this.producerEpoch = producerEpoch;
        this.lastProducerEpoch = lastProducerEpoch;
        this.txnTimeoutMs = txnTimeoutMs;
        this.state = Objects.requireNonNull(state, "state");
        this.topicPartitions = new HashSet<>(topicPartitions);
        this.txnStartTimestamp = txnStartTimestamp;
        this.txnLastUpdateTimestamp = txnLastUpdateTimestamp;
        this.clientTransactionVersion = Objects.requireNonNull(clientTransactionVersion, "clientTransactionVersion");
    }

    /** A new transactional id with its first producer id, in state Empty with no epoch yet. */
    static TransactionMetadata created(String transactionalId, long producerId, int txnTimeoutMs, long now) {
        return new TransactionMetadata(
                transactionalId,
                producerId,
                NO_PRODUCER_ID,
                NO_PRODUCER_ID,
                NO_PRODUCER_EPOCH,
                NO_PRODUCER_EPOCH,
                txnTimeoutMs,
                TransactionState.EMPTY,
                Set.of(),
                -1,
                now,
                TransactionVersion.TV_0);
    }

    /** A transactional id as {@code __transaction_state} holds it. */
    static TransactionMetadata fromLog(String transactionalId, TxnTransitMetadata value) {
        return new TransactionMetadata(
                transactionalId,
                value.producerId(),
                value.prevProducerId(),
                value.nextProducerId(),
                value.producerEpoch(),
                NO_PRODUCER_EPOCH,
                value.txnTimeoutMs(),
                value.txnState(),
                value.topicPartitions(),
                value.txnStartTimestamp(),
                value.txnLastUpdateTimestamp(),
                value.clientTransactionVersion());
    }

    /** Whether this epoch is the last but one a producer id may have: the coordinator keeps the last for fencing. */
    public static boolean isEpochExhausted(short producerEpoch) {
        return producerEpoch >= Short.MAX_VALUE - 1;
    }

    // Preparing changes.

    /** The change that bumps the epoch of an open transaction before the coordinator aborts it. */
    TxnTransitMetadata prepareFenceProducerEpoch() {
        short bumped =
                hasFailedEpochFence || producerEpoch == Short.MAX_VALUE ? producerEpoch : (short) (producerEpoch + 1);
        return prepareTransitionTo(transit(TransactionState.PREPARE_EPOCH_FENCE).producerEpoch(bumped));
    }

    /**
     * The change of InitProducerId for the current producer id: a bumped epoch, or (for a retry of a bump already
     * made) the same.
     *
     * @param expectedProducerEpoch the epoch the producer has, if it gave one
     * @throws org.apache.kafka.common.errors.ProducerFencedException if that epoch is neither the current one nor
     *                                                                the one before it
     */
    TxnTransitMetadata prepareIncrementProducerEpoch(
            int newTxnTimeoutMs, Optional<Short> expectedProducerEpoch, long now) {
        if (isProducerEpochExhausted()) {
            throw new IllegalStateException("Cannot allocate any more producer epochs for producerId " + producerId);
        }
        Transit transit = transit(TransactionState.EMPTY);
        short bumped = (short) (producerEpoch + 1);
        if (expectedProducerEpoch.isEmpty()) {
            transit.producerEpoch(bumped).lastProducerEpoch(NO_PRODUCER_EPOCH);
        } else if (producerEpoch == NO_PRODUCER_EPOCH || expectedProducerEpoch.get() == producerEpoch) {
            transit.producerEpoch(bumped).lastProducerEpoch(producerEpoch);
        } else if (expectedProducerEpoch.get() == lastProducerEpoch) {
            // A retry of a bump that succeeded: no other producer took the id since, or the last epoch would be -1.
            transit.producerEpoch(producerEpoch).lastProducerEpoch(lastProducerEpoch);
        } else {
            throw Errors.PRODUCER_FENCED.exception("Expected producer epoch " + expectedProducerEpoch.get()
                    + " is neither the current epoch " + producerEpoch + " nor the last " + lastProducerEpoch);
        }
        return prepareTransitionTo(transit.txnTimeoutMs(newTxnTimeoutMs)
                .topicPartitions(Set.of())
                .txnStartTimestamp(-1)
                .txnLastUpdateTimestamp(now));
    }

    /** The change of InitProducerId that moves the id to a new producer id, its epochs being used up. */
    TxnTransitMetadata prepareProducerIdRotation(
            long newProducerId, int newTxnTimeoutMs, long now, boolean recordLastEpoch) {
        if (hasPendingTransaction()) {
            throw new IllegalStateException("Cannot rotate producer ids while a transaction is still pending");
        }
        return prepareTransitionTo(transit(TransactionState.EMPTY)
                .producerId(newProducerId)
                .producerEpoch((short) 0)
                .lastProducerEpoch(recordLastEpoch ? producerEpoch : NO_PRODUCER_EPOCH)
                .txnTimeoutMs(newTxnTimeoutMs)
                .topicPartitions(Set.of())
                .txnStartTimestamp(-1)
                .txnLastUpdateTimestamp(now));
    }

    /** The change that adds partitions, opening a transaction if none is. */
    TxnTransitMetadata prepareAddPartitions(Set<TopicPartition> added, long now, TransactionVersion clientVersion) {
        Set<TopicPartition> partitions = new HashSet<>(topicPartitions);
        partitions.addAll(added);
        boolean opens = state == TransactionState.EMPTY
                || state == TransactionState.COMPLETE_ABORT
                || state == TransactionState.COMPLETE_COMMIT;
        return prepareTransitionTo(transit(TransactionState.ONGOING)
                .topicPartitions(partitions)
                .txnStartTimestamp(opens ? now : txnStartTimestamp)
                .txnLastUpdateTimestamp(now)
                .clientTransactionVersion(clientVersion));
    }

    /**
     * The change that decides the transaction (PrepareCommit or PrepareAbort); at transaction version 2 it bumps the
     * epoch.
     *
     * @param nextProducerId    the producer id to continue with when this epoch is the last, else -1
     * @param noPartitionAdded  an abort with no transaction open (transaction version 2): it starts now
     */
    TxnTransitMetadata prepareAbortOrCommit(
            TransactionState newState,
            TransactionVersion clientVersion,
            long nextProducerId,
            long now,
            boolean noPartitionAdded) {
        Transit transit = transit(newState);
        if (clientVersion.supportsEpochBump()) {
            // Short.MAX_VALUE is kept for fencing and never given to a client: an abort at it cannot bump.
            short epoch = producerEpoch == Short.MAX_VALUE ? producerEpoch : (short) (producerEpoch + 1);
            transit.producerEpoch(epoch).lastProducerEpoch(producerEpoch);
        }
        return prepareTransitionTo(transit.txnStartTimestamp(noPartitionAdded ? now : txnStartTimestamp)
                .nextProducerId(nextProducerId)
                .txnLastUpdateTimestamp(now)
                .clientTransactionVersion(clientVersion));
    }

    /** The change that completes a decided transaction once its markers are written. */
    TxnTransitMetadata prepareComplete(long now) {
        hasFailedEpochFence = false;
        Transit transit = transit(
                state == TransactionState.PREPARE_COMMIT
                        ? TransactionState.COMPLETE_COMMIT
                        : TransactionState.COMPLETE_ABORT);
        if (clientTransactionVersion.supportsEpochBump() && nextProducerId != NO_PRODUCER_ID) {
            transit.producerId(nextProducerId).producerEpoch((short) 0);
        }
        return prepareTransitionTo(
                transit.nextProducerId(NO_PRODUCER_ID).topicPartitions(Set.of()).txnLastUpdateTimestamp(now));
    }

    /** The change that expires the id. */
    TxnTransitMetadata prepareDead() {
        return prepareTransitionTo(transit(TransactionState.DEAD).topicPartitions(Set.of()));
    }

    /** The current state as a change to write again (a rewrite of what the log holds). */
    TxnTransitMetadata current() {
        return transit(state).build(producerId);
    }

    private boolean hasPendingTransaction() {
        return state == TransactionState.ONGOING || state.isPreparing();
    }

    private TxnTransitMetadata prepareTransitionTo(Transit transit) {
        TransactionState target = transit.state;
        if (pendingState.isPresent()) {
            throw new IllegalStateException("Preparing transaction state transition to " + target
                    + " while it already a pending state " + pendingState.get());
        }
        if (transit.producerId < 0) {
            throw new IllegalArgumentException("Illegal new producer id " + transit.producerId);
        }
        if (target != TransactionState.DEAD && transit.producerEpoch < 0) {
            throw new IllegalArgumentException("Illegal new producer epoch " + transit.producerEpoch);
        }
        if (!target.validPreviousStates().contains(state)) {
            throw new IllegalStateException("Preparing transaction state transition to " + target
                    + " failed since the target state " + target + " is not a valid previous state of the current "
                    + "state " + state);
        }
        pendingState = Optional.of(target);
        return transit.build(producerId);
    }

    // Completing them.

    /**
     * Takes the change written to the log: the pending state becomes the state.
     *
     * @throws IllegalStateException if it is not the change prepared
     */
    void completeTransitionTo(TxnTransitMetadata transit) {
        TransactionState target = pendingState.orElseThrow(() -> new IllegalStateException("TransactionalId "
                + transactionalId + " completing transaction state transition while it does not have a pending state"));
        if (target != transit.txnState()) {
            throw transitionFailure(transit);
        }
        boolean valid = switch (target) {
            case EMPTY ->
                (producerEpoch == transit.producerEpoch() || validProducerEpochBump(transit))
                        && transit.topicPartitions().isEmpty()
                        && transit.txnStartTimestamp() == -1;
            case ONGOING ->
                validProducerEpoch(transit)
                        && transit.topicPartitions().containsAll(topicPartitions)
                        && txnTimeoutMs == transit.txnTimeoutMs();
            case PREPARE_COMMIT, PREPARE_ABORT -> {
                boolean emptyAbort = target == TransactionState.PREPARE_ABORT
                        && transit.clientTransactionVersion().supportsEpochBump()
                        && (state == TransactionState.EMPTY
                                || state == TransactionState.COMPLETE_COMMIT
                                || state == TransactionState.COMPLETE_ABORT);
                yield validProducerEpoch(transit)
                        && topicPartitions.equals(transit.topicPartitions())
                        && txnTimeoutMs == transit.txnTimeoutMs()
                        && (txnStartTimestamp == transit.txnStartTimestamp() || emptyAbort);
            }
            case COMPLETE_COMMIT, COMPLETE_ABORT ->
                validProducerEpoch(transit)
                        && txnTimeoutMs == transit.txnTimeoutMs()
                        && transit.txnStartTimestamp() != -1;
            // A fence is never written: it turns into an abort. A dead id leaves the cache rather than completing.
            case PREPARE_EPOCH_FENCE, DEAD -> false;
        };
        if (!valid) {
            throw transitionFailure(transit);
        }
        producerId = transit.producerId();
        prevProducerId = transit.prevProducerId();
        nextProducerId = transit.nextProducerId();
        producerEpoch = transit.producerEpoch();
        lastProducerEpoch = transit.lastProducerEpoch();
        txnTimeoutMs = transit.txnTimeoutMs();
        topicPartitions.clear();
        topicPartitions.addAll(transit.topicPartitions());
        txnStartTimestamp = transit.txnStartTimestamp();
        txnLastUpdateTimestamp = transit.txnLastUpdateTimestamp();
        clientTransactionVersion = transit.clientTransactionVersion();
        pendingState = Optional.empty();
        state = target;
    }

    /** Forgets the pending change, whose write failed. */
    void abandonTransition() {
        pendingState = Optional.empty();
    }

    /**
     * Turns a prepared epoch fence into the abort it leads to: the fenced epoch becomes the current one, so that the
     * abort is of the fenced producer's transaction and the epoch bump is never lost, even if the abort's write fails.
     */
    void fenceEpoch(short fencedEpoch) {
        if (pendingState.orElse(null) != TransactionState.PREPARE_EPOCH_FENCE) {
            throw new IllegalStateException("TransactionalId " + transactionalId + " is not being fenced");
        }
        pendingState = Optional.empty();
        producerEpoch = fencedEpoch;
        lastProducerEpoch = NO_PRODUCER_EPOCH;
    }

    /** Records that the write of an epoch fence failed: the epoch in memory is already bumped. */
    void epochFenceFailed() {
        hasFailedEpochFence = true;
    }

    // A transit is valid when made from the current epoch and producer id; at version 2 a decision carries the epoch
    // it bumped from as its last epoch, and a completion that moved to a new producer id (epoch 0) the old id.
    private boolean validProducerEpoch(TxnTransitMetadata transit) {
        boolean v2 = transit.clientTransactionVersion().supportsEpochBump();
        if (v2
                && (transit.txnState() == TransactionState.COMPLETE_COMMIT
                        || transit.txnState() == TransactionState.COMPLETE_ABORT)
                && transit.producerEpoch() == 0) {
            return transit.lastProducerEpoch() == lastProducerEpoch && transit.prevProducerId() == producerId;
        }
        short epoch = v2 && transit.txnState().isPreparing() ? transit.lastProducerEpoch() : transit.producerEpoch();
        return epoch == producerEpoch && transit.producerId() == producerId;
    }

    private boolean validProducerEpochBump(TxnTransitMetadata transit) {
        return transit.producerEpoch() == (short) (producerEpoch + 1)
                || (transit.producerEpoch() == 0 && transit.producerId() != producerId);
    }

    private IllegalStateException transitionFailure(TxnTransitMetadata transit) {
        return new IllegalStateException(
                "TransactionalId " + transactionalId + " failed transition to state " + transit + " from " + this);
    }

    private Transit transit(TransactionState target) {
        return new Transit(target);
    }

    // Reading.

    /** The transactional id. */
    public String transactionalId() {
        return transactionalId;
    }

    /** The producer id. */
    public long producerId() {
        return producerId;
    }

    /** The producer id before the current one, or -1. */
    public long prevProducerId() {
        return prevProducerId;
    }

    /** The epoch. */
    public short producerEpoch() {
        return producerEpoch;
    }

    /** The epoch before the last bump, or -1. */
    public short lastProducerEpoch() {
        return lastProducerEpoch;
    }

    /** The transaction timeout. */
    public int txnTimeoutMs() {
        return txnTimeoutMs;
    }

    /** The state. */
    public TransactionState state() {
        return state;
    }

    /** The state being written, if a change is. */
    public Optional<TransactionState> pendingState() {
        return pendingState;
    }

    /** Whether a change is being written. */
    public boolean pendingTransitionInProgress() {
        return pendingState.isPresent();
    }

    /** The partitions of the open or deciding transaction. */
    public Set<TopicPartition> topicPartitions() {
        return Set.copyOf(topicPartitions);
    }

    /** When the transaction began, or -1. */
    public long txnStartTimestamp() {
        return txnStartTimestamp;
    }

    /** When the id last changed. */
    public long txnLastUpdateTimestamp() {
        return txnLastUpdateTimestamp;
    }

    /** The transaction version of the client's last change. */
    public TransactionVersion clientTransactionVersion() {
        return clientTransactionVersion;
    }

    /** Whether the epoch may be bumped only once more. */
    public boolean isProducerEpochExhausted() {
        return isEpochExhausted(producerEpoch);
    }

    /** Removes a partition whose marker is written. */
    void removePartition(TopicPartition partition) {
        if (!state.isPreparing()) {
            throw new IllegalStateException("TransactionalId " + transactionalId + " is " + state
                    + ": no markers are being written to remove " + partition + " for");
        }
        topicPartitions.remove(partition);
    }

    @Override
    public String toString() {
        return "TransactionMetadata(transactionalId=" + transactionalId + ", producerId=" + producerId
                + ", prevProducerId=" + prevProducerId + ", nextProducerId=" + nextProducerId + ", producerEpoch="
                + producerEpoch + ", lastProducerEpoch=" + lastProducerEpoch + ", txnTimeoutMs=" + txnTimeoutMs
                + ", state=" + state + ", pendingState=" + pendingState + ", topicPartitions=" + topicPartitions
                + ", txnStartTimestamp=" + txnStartTimestamp + ", txnLastUpdateTimestamp=" + txnLastUpdateTimestamp
                + ", clientTransactionVersion=" + clientTransactionVersion + ")";
    }

    // A change being prepared: the current values, some of them replaced.
    private final class Transit {
        private final TransactionState state;
        private long producerId = TransactionMetadata.this.producerId;
        private long nextProducerId = TransactionMetadata.this.nextProducerId;
        private short producerEpoch = TransactionMetadata.this.producerEpoch;
        private short lastProducerEpoch = TransactionMetadata.this.lastProducerEpoch;
        private int txnTimeoutMs = TransactionMetadata.this.txnTimeoutMs;
        private Set<TopicPartition> topicPartitions = TransactionMetadata.this.topicPartitions;
        private long txnStartTimestamp = TransactionMetadata.this.txnStartTimestamp;
        private long txnLastUpdateTimestamp = TransactionMetadata.this.txnLastUpdateTimestamp;
        private TransactionVersion clientTransactionVersion = TransactionMetadata.this.clientTransactionVersion;

        Transit(TransactionState state) {
            this.state = state;
        }

        Transit producerId(long value) {
            producerId = value;
            return this;
        }

        Transit nextProducerId(long value) {
            nextProducerId = value;
            return this;
        }

        Transit producerEpoch(short value) {
            producerEpoch = value;
            return this;
        }

        Transit lastProducerEpoch(short value) {
            lastProducerEpoch = value;
            return this;
        }

        Transit txnTimeoutMs(int value) {
            txnTimeoutMs = value;
            return this;
        }

        Transit topicPartitions(Set<TopicPartition> value) {
            topicPartitions = value;
            return this;
        }

        Transit txnStartTimestamp(long value) {
            txnStartTimestamp = value;
            return this;
        }

        Transit txnLastUpdateTimestamp(long value) {
            txnLastUpdateTimestamp = value;
            return this;
        }

        Transit clientTransactionVersion(TransactionVersion value) {
            clientTransactionVersion = value;
            return this;
        }

        TxnTransitMetadata build(long previousProducerId) {
            return new TxnTransitMetadata(
                    producerId,
                    previousProducerId,
                    nextProducerId,
                    producerEpoch,
                    lastProducerEpoch,
                    txnTimeoutMs,
                    state,
                    topicPartitions,
                    txnStartTimestamp,
                    txnLastUpdateTimestamp,
                    clientTransactionVersion);
        }
    }
}
