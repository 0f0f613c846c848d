package io.krabka.kernel.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.log.TransactionResult;
import io.krabka.kernel.transaction.EndTxnDecision.Prepare;
import io.krabka.kernel.transaction.EndTxnDecision.Respond;
import io.krabka.spi.common.TopicPartition;
import java.util.Set;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

/** What EndTxn does in each state, as Kafka 4.4's {@code endTransaction} decides it at transaction versions 0 and 2. */
class EndTxnDecisionTest {

    private static final long ID = 7;
    private static final short EPOCH = 5;

    @Test
    void atVersion0() {
        assertEquals(new Prepare(TransactionState.PREPARE_COMMIT, false), v1(TransactionState.ONGOING, EPOCH, true));
        assertEquals(new Prepare(TransactionState.PREPARE_ABORT, false), v1(TransactionState.ONGOING, EPOCH, false));
        assertEquals(Respond.error(Errors.PRODUCER_FENCED), v1(TransactionState.ONGOING, (short) 4, true));
        assertEquals(Respond.error(Errors.NONE), v1(TransactionState.COMPLETE_COMMIT, EPOCH, true), "a retry");
        assertEquals(Respond.error(Errors.INVALID_TXN_STATE), v1(TransactionState.COMPLETE_COMMIT, EPOCH, false));
        assertEquals(Respond.error(Errors.NONE), v1(TransactionState.COMPLETE_ABORT, EPOCH, false));
        assertEquals(Respond.error(Errors.CONCURRENT_TRANSACTIONS), v1(TransactionState.PREPARE_COMMIT, EPOCH, true));
        assertEquals(Respond.error(Errors.INVALID_TXN_STATE), v1(TransactionState.PREPARE_COMMIT, EPOCH, false));
        assertEquals(Respond.error(Errors.INVALID_TXN_STATE), v1(TransactionState.EMPTY, EPOCH, false));
        assertEquals(
                Respond.error(Errors.INVALID_PRODUCER_ID_MAPPING),
                EndTxnDecision.decideV1(metadata(TransactionState.ONGOING), 99, EPOCH, TransactionResult.COMMIT));
    }

    @Test
    void atVersion2() {
        assertEquals(new Prepare(TransactionState.PREPARE_COMMIT, false), v2(TransactionState.ONGOING, EPOCH, true));
        // After a commit the epoch is bumped: a retry carries the one before it.
        Respond done = new Respond(Errors.NONE, ID, EPOCH);
        assertEquals(done, v2(TransactionState.COMPLETE_COMMIT, (short) (EPOCH - 1), true));
        assertEquals(Respond.error(Errors.INVALID_TXN_STATE), v2(TransactionState.COMPLETE_COMMIT, EPOCH, true));
        assertEquals(
                new Prepare(TransactionState.PREPARE_ABORT, true),
                v2(TransactionState.COMPLETE_COMMIT, EPOCH, false),
                "an abort with no transaction open");
        assertEquals(
                Respond.error(Errors.INVALID_TXN_STATE),
                v2(TransactionState.COMPLETE_COMMIT, (short) (EPOCH - 1), false));
        assertEquals(new Prepare(TransactionState.PREPARE_ABORT, true), v2(TransactionState.EMPTY, EPOCH, false));
        assertEquals(Respond.error(Errors.INVALID_TXN_STATE), v2(TransactionState.EMPTY, EPOCH, true));
        assertEquals(
                Respond.error(Errors.CONCURRENT_TRANSACTIONS),
                v2(TransactionState.PREPARE_COMMIT, (short) (EPOCH - 1), true));
        assertEquals(Respond.error(Errors.PRODUCER_FENCED), v2(TransactionState.PREPARE_COMMIT, EPOCH, true));
        assertEquals(Respond.error(Errors.PRODUCER_FENCED), v2(TransactionState.ONGOING, (short) 3, true));
    }

    private static EndTxnDecision v1(TransactionState state, short epoch, boolean commit) {
        return EndTxnDecision.decideV1(
                metadata(state), ID, epoch, commit ? TransactionResult.COMMIT : TransactionResult.ABORT);
    }

    private static EndTxnDecision v2(TransactionState state, short epoch, boolean commit) {
        return EndTxnDecision.decideV2(
                metadata(state), ID, epoch, commit ? TransactionResult.COMMIT : TransactionResult.ABORT);
    }

    private static TransactionMetadata metadata(TransactionState state) {
        return new TransactionMetadata(
                "t",
                ID,
                -1,
                -1,
                EPOCH,
                (short) (EPOCH - 1),
                60_000,
                state,
                state == TransactionState.EMPTY || state.isExpirationAllowed()
                        ? Set.of()
                        : Set.of(new TopicPartition("orders", 0)),
                1_000,
                1_000,
                TransactionVersion.TV_2);
    }
}
