package io.krabka.kernel.transaction;

import io.krabka.kernel.log.TransactionResult;
import org.apache.kafka.common.protocol.Errors;

/**
 * What an EndTxn from a producer does to its transactional id, as Kafka's {@code endTransaction} decides it: answer at
 * once (an error, or a retry of an ending already done), or prepare the commit or abort. At transaction version 0 the
 * epoch must be the current one; at version 2 every ending bumps it, so a retry carries the epoch before the bump, and
 * an abort with no transaction open ends an empty one. Called under the id's monitor.
 */
sealed interface EndTxnDecision {

    /** Answer now. */
    record Respond(Errors error, long producerId, short producerEpoch) implements EndTxnDecision {
        static Respond error(Errors error) {
            return new Respond(error, TransactionMetadata.NO_PRODUCER_ID, TransactionMetadata.NO_PRODUCER_EPOCH);
        }
    }

    /**
     * Prepare the decision.
     *
     * @param next             PrepareCommit or PrepareAbort
     * @param noPartitionAdded an abort with no transaction open (version 2): it starts now
     */
    record Prepare(TransactionState next, boolean noPartitionAdded) implements EndTxnDecision {}

    /** The decision for a producer at transaction version 0 or 1. */
    static EndTxnDecision decideV1(
            TransactionMetadata metadata, long producerId, short producerEpoch, TransactionResult result) {
        if (metadata.producerId() != producerId) {
            return Respond.error(Errors.INVALID_PRODUCER_ID_MAPPING);
        }
        if (producerEpoch != metadata.producerEpoch()) {
            return Respond.error(Errors.PRODUCER_FENCED);
        }
        if (metadata.pendingTransitionInProgress()) {
            return Respond.error(Errors.CONCURRENT_TRANSACTIONS);
        }
        boolean commit = result == TransactionResult.COMMIT;
        return switch (metadata.state()) {
            case ONGOING -> new Prepare(prepareState(result), false);
            // A retry of an ending done: answered as done, with no producer id (version 0 answers carry none).
            case COMPLETE_COMMIT -> commit ? Respond.error(Errors.NONE) : Respond.error(Errors.INVALID_TXN_STATE);
            case COMPLETE_ABORT -> commit ? Respond.error(Errors.INVALID_TXN_STATE) : Respond.error(Errors.NONE);
            case PREPARE_COMMIT -> Respond.error(commit ? Errors.CONCURRENT_TRANSACTIONS : Errors.INVALID_TXN_STATE);
            case PREPARE_ABORT -> Respond.error(commit ? Errors.INVALID_TXN_STATE : Errors.CONCURRENT_TRANSACTIONS);
            case EMPTY -> Respond.error(Errors.INVALID_TXN_STATE);
            case DEAD, PREPARE_EPOCH_FENCE -> throw illegalState(metadata);
        };
    }

    /** The decision for a producer at transaction version 2 (KIP-890 part 2). */
    static EndTxnDecision decideV2(
            TransactionMetadata metadata, long producerId, short producerEpoch, TransactionResult result) {
        // A retry of an ending whose answer was lost carries the epoch before its bump, or the last epoch of the
        // producer id the ending moved away from.
        boolean retryOnOverflow = metadata.prevProducerId() == producerId
                && producerEpoch == Short.MAX_VALUE - 1
                && metadata.producerEpoch() == 0;
        boolean retryOnEpochBump = metadata.producerEpoch() == producerEpoch + 1;
        boolean isRetry = retryOnEpochBump || retryOnOverflow;
        boolean validEpoch = switch (metadata.state()) {
            case ONGOING, EMPTY, DEAD, PREPARE_EPOCH_FENCE -> producerEpoch == metadata.producerEpoch();
            case PREPARE_COMMIT, PREPARE_ABORT -> retryOnEpochBump;
            case COMPLETE_COMMIT, COMPLETE_ABORT -> isRetry || producerEpoch == metadata.producerEpoch();
        };
        if (metadata.pendingTransitionInProgress()) {
            return Respond.error(Errors.CONCURRENT_TRANSACTIONS);
        }
        if (metadata.producerId() != producerId && !retryOnOverflow) {
            return Respond.error(Errors.INVALID_PRODUCER_ID_MAPPING);
        }
        if (!validEpoch) {
            return Respond.error(Errors.PRODUCER_FENCED);
        }
        boolean commit = result == TransactionResult.COMMIT;
        Respond done = new Respond(Errors.NONE, metadata.producerId(), metadata.producerEpoch());
        return switch (metadata.state()) {
            case ONGOING -> new Prepare(prepareState(result), false);
            case COMPLETE_COMMIT -> {
                if (commit) {
                    yield isRetry ? done : Respond.error(Errors.INVALID_TXN_STATE);
                }
                yield isRetry
                        ? Respond.error(Errors.INVALID_TXN_STATE)
                        : new Prepare(TransactionState.PREPARE_ABORT, true);
            }
            case COMPLETE_ABORT -> {
                if (commit) {
                    yield Respond.error(Errors.INVALID_TXN_STATE);
                }
                yield isRetry ? done : new Prepare(TransactionState.PREPARE_ABORT, true);
            }
            case PREPARE_COMMIT -> Respond.error(commit ? Errors.CONCURRENT_TRANSACTIONS : Errors.INVALID_TXN_STATE);
            case PREPARE_ABORT -> Respond.error(commit ? Errors.INVALID_TXN_STATE : Errors.CONCURRENT_TRANSACTIONS);
            case EMPTY ->
                commit ? Respond.error(Errors.INVALID_TXN_STATE) : new Prepare(TransactionState.PREPARE_ABORT, true);
            case DEAD, PREPARE_EPOCH_FENCE -> throw illegalState(metadata);
        };
    }

    private static TransactionState prepareState(TransactionResult result) {
        return result == TransactionResult.COMMIT ? TransactionState.PREPARE_COMMIT : TransactionState.PREPARE_ABORT;
    }

    private static IllegalStateException illegalState(TransactionMetadata metadata) {
        return new IllegalStateException("Found transactionalId " + metadata.transactionalId() + " with state "
                + metadata.state() + ". This is illegal as we should never have transitioned to this state.");
    }
}
