package io.krabka.kernel.group;

import static io.krabka.kernel.group.GroupFixture.GROUP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.coordinator.CoordinatorLogWriter.TransactionalProducer;
import io.krabka.kernel.log.TransactionResult;
import io.krabka.kernel.log.VerificationGuard;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.util.List;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

/**
 * Offsets committed in a transaction (TxnOffsetCommit) as Kafka's coordinator keeps them: pending until the
 * transaction's marker, committed by a commit marker unless a later record replaced them, dropped by an abort or a
 * tombstone; a read_committed fetch sees a partition with pending offsets as unstable.
 */
class TransactionalOffsetsTest {

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final long PRODUCER = 42;

    private final GroupFixture fixture = new GroupFixture();

    @Test
    void offsetsWaitForTheCommitMarker() {
        assertEquals(List.of(Errors.NONE), commitInTransaction(15));
        assertNull(fixture.offsets.committed(GROUP, "orders", 0), "pending, not committed");
        assertTrue(fixture.offsets.hasPendingTransactionalOffsets(GROUP, ORDERS_0));
        fixture.offsets.replayEndTransactionMarker(PRODUCER, TransactionResult.COMMIT, group -> true);
        assertEquals(15, fixture.offsets.committed(GROUP, "orders", 0).offset());
        assertFalse(fixture.offsets.hasPendingTransactionalOffsets(GROUP, ORDERS_0));
    }

    @Test
    void anAbortDropsThem() {
        commitInTransaction(15);
        fixture.offsets.replayEndTransactionMarker(PRODUCER, TransactionResult.ABORT, group -> true);
        assertNull(fixture.offsets.committed(GROUP, "orders", 0));
        assertFalse(fixture.offsets.hasPendingTransactionalOffsets(GROUP, ORDERS_0));
    }

    @Test
    void aCommitWrittenAfterThemWins() {
        commitInTransaction(15);
        assertEquals(List.of(Errors.NONE), fixture.offsets.commit(GROUP, "", List.of(commit(20)), -1));
        fixture.offsets.replayEndTransactionMarker(PRODUCER, TransactionResult.COMMIT, group -> true);
        assertEquals(20, fixture.offsets.committed(GROUP, "orders", 0).offset(), "the later record is kept");
    }

    @Test
    void aMarkerOfAnotherPartitionOfTheTopicLeavesThemPending() {
        commitInTransaction(15);
        fixture.offsets.replayEndTransactionMarker(PRODUCER, TransactionResult.COMMIT, group -> false);
        assertTrue(fixture.offsets.hasPendingTransactionalOffsets(GROUP, ORDERS_0));
    }

    @Test
    void deletingTheGroupDropsThemToo() {
        commitInTransaction(15);
        assertEquals(Errors.NONE, fixture.offsets.deleteGroup(GROUP));
        assertFalse(fixture.offsets.hasPendingTransactionalOffsets(GROUP, ORDERS_0));
        fixture.offsets.replayEndTransactionMarker(PRODUCER, TransactionResult.COMMIT, group -> true);
        assertNull(fixture.offsets.committed(GROUP, "orders", 0), "the tombstone came first");
    }

    @Test
    void aTransactionalCommitNeedsNoMemberAndNoStableGroup() {
        assertEquals(
                Errors.NONE,
                fixture.offsets.validateCommit(GROUP, "", null, -1, true),
                "a producer outside the group, as the Java producer of sendOffsetsToTransaction without metadata");
        assertEquals(Errors.ILLEGAL_GENERATION, fixture.offsets.validateCommit(GROUP, "member", null, 3, true));
    }

    private List<Errors> commitInTransaction(long offset) {
        return fixture.offsets.commitTransactional(
                GROUP,
                new TransactionalProducer(PRODUCER, (short) 0, VerificationGuard.SENTINEL),
                List.of(commit(offset)));
    }

    private static PartitionCommit commit(long offset) {
        return new PartitionCommit("orders", Uuid.ZERO_UUID, 0, offset, -1, "");
    }
}
