package io.krabka.kernel.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.TopicPartition;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.junit.jupiter.api.Test;

/**
 * A transactional id's states and epochs, as Kafka's {@code TransactionMetadata} moves them: a change is prepared
 * (pending) and completed; epochs bump at InitProducerId and, at transaction version 2, at every decision; the last
 * epoch before exhaustion moves the id to the next producer id; changes that do not follow are refused.
 */
class TransactionMetadataTest {

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);

    @Test
    void aTransactionAtVersion2BumpsTheEpochAtItsDecisionAndKeepsItAtCompletion() {
        TransactionMetadata metadata = TransactionMetadata.created("t", 7, 60_000, 1_000);
        complete(metadata, metadata.prepareIncrementProducerEpoch(60_000, Optional.empty(), 1_000));
        assertEquals(0, metadata.producerEpoch());
        complete(metadata, metadata.prepareAddPartitions(Set.of(ORDERS_0), 2_000, TransactionVersion.TV_2));
        assertEquals(TransactionState.ONGOING, metadata.state());
        assertEquals(2_000, metadata.txnStartTimestamp());
        complete(
                metadata,
                metadata.prepareAbortOrCommit(
                        TransactionState.PREPARE_COMMIT, TransactionVersion.TV_2, -1, 3_000, false));
        assertEquals(1, metadata.producerEpoch());
        assertEquals(0, metadata.lastProducerEpoch());
        complete(metadata, metadata.prepareComplete(4_000));
        assertEquals(TransactionState.COMPLETE_COMMIT, metadata.state());
        assertEquals(1, metadata.producerEpoch());
        assertEquals(Set.of(), metadata.topicPartitions());
    }

    @Test
    void theLastEpochMovesTheIdToItsNextProducerIdAtCompletion() {
        TransactionMetadata metadata = new TransactionMetadata(
                "t",
                7,
                -1,
                -1,
                (short) (Short.MAX_VALUE - 1),
                (short) -1,
                60_000,
                TransactionState.ONGOING,
                Set.of(ORDERS_0),
                1_000,
                1_000,
                TransactionVersion.TV_2);
        assertTrue(metadata.isProducerEpochExhausted());
        complete(
                metadata,
                metadata.prepareAbortOrCommit(
                        TransactionState.PREPARE_COMMIT, TransactionVersion.TV_2, 8, 2_000, false));
        assertEquals(Short.MAX_VALUE, metadata.producerEpoch(), "the last epoch is kept for the fence");
        complete(metadata, metadata.prepareComplete(3_000));
        assertEquals(8, metadata.producerId());
        assertEquals(0, metadata.producerEpoch());
        assertEquals(7, metadata.prevProducerId());
    }

    @Test
    void initProducerIdRetriesAndFencesAsKafkasKip360Says() {
        TransactionMetadata metadata = TransactionMetadata.created("t", 7, 60_000, 1_000);
        complete(metadata, metadata.prepareIncrementProducerEpoch(60_000, Optional.empty(), 1_000));
        complete(metadata, metadata.prepareIncrementProducerEpoch(60_000, Optional.of((short) 0), 2_000));
        assertEquals(1, metadata.producerEpoch());
        // A retry of that bump (its answer lost) gets the same epoch.
        complete(metadata, metadata.prepareIncrementProducerEpoch(60_000, Optional.of((short) 0), 3_000));
        assertEquals(1, metadata.producerEpoch());
        assertThrows(
                ProducerFencedException.class,
                () -> metadata.prepareIncrementProducerEpoch(60_000, Optional.of((short) 5), 4_000));
        assertEquals(Optional.empty(), metadata.pendingState(), "a refused change leaves nothing pending");
    }

    @Test
    void aChangeThatDoesNotFollowIsRefused() {
        TransactionMetadata metadata = TransactionMetadata.created("t", 7, 60_000, 1_000);
        complete(metadata, metadata.prepareIncrementProducerEpoch(60_000, Optional.empty(), 1_000));
        assertThrows(IllegalStateException.class, () -> metadata.prepareComplete(2_000), "nothing to complete");
        TxnTransitMetadata add = metadata.prepareAddPartitions(Set.of(ORDERS_0), 2_000, TransactionVersion.TV_0);
        assertThrows(
                IllegalStateException.class,
                () -> metadata.prepareAddPartitions(Set.of(ORDERS_0), 2_000, TransactionVersion.TV_0),
                "a change is pending");
        metadata.abandonTransition();
        assertEquals(TransactionState.EMPTY, metadata.state(), "an abandoned change leaves the state");
        complete(metadata, metadata.prepareAddPartitions(Set.of(ORDERS_0), 2_000, TransactionVersion.TV_0));
        assertThrows(
                IllegalStateException.class,
                () -> metadata.completeTransitionTo(add),
                "a transition completes only when prepared");
    }

    private static void complete(TransactionMetadata metadata, TxnTransitMetadata transit) {
        metadata.completeTransitionTo(transit);
    }
}
