package io.krabka.kernel.log;

import static io.krabka.kernel.log.ProducerStateFixture.PARTITION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Epoch, sequence and transaction rules, in the scenarios of Kafka's ProducerStateManagerTest. */
class ProducerAppendInfoTest {

    private static final long PID = 1L;
    private static final short EPOCH = 0;

    @TempDir
    Path logDir;

    private ProducerStateFixture f;

    @BeforeEach
    void setUp() throws IOException {
        f = new ProducerStateFixture(logDir);
    }

    @Test
    void sequencesContinueWithinAnEpochAndANewEpochStartsAtZero() {
        f.appendClient(PID, EPOCH, 0, 0L, false);
        f.appendClient(PID, EPOCH, 1, 1L, false);

        // A retry is found by findDuplicateBatch before appending; appended again it is out of order.
        assertThrows(OutOfOrderSequenceException.class, () -> f.appendClient(PID, EPOCH, 1, 2L, false));
        assertThrows(OutOfOrderSequenceException.class, () -> f.appendClient(PID, EPOCH, 5, 2L, false));

        f.appendClient(PID, (short) (EPOCH + 1), 0, 3L, false);
        assertThrows(InvalidProducerEpochException.class, () -> f.appendClient(PID, EPOCH, 0, 4L, false));
        assertEquals(1, f.entry(PID).producerEpoch());
    }

    @Test
    void aProducerWithoutStateMayStartAtAnySequence() {
        f.appendClient(PID, (short) 3, 42, 0L, false);
        assertEquals(42, f.entry(PID).lastSeq());
        f.appendClient(PID, (short) 3, 43, 1L, false);
        assertEquals(43, f.entry(PID).lastSeq());
    }

    @Test
    void aMarkerAloneKeepsFencingAndNeedsSequenceZero() {
        short producerEpoch = 2;
        f.appendMarker(PID, producerEpoch, TransactionResult.COMMIT, 27L);
        ProducerStateEntry first = f.entry(PID);
        assertEquals(producerEpoch, first.producerEpoch());
        assertEquals(ProducerBatch.NO_SEQUENCE, first.lastSeq());

        assertThrows(InvalidProducerEpochException.class, () -> f.appendClient(PID, (short) 0, 0, 28L, false));
        assertThrows(OutOfOrderSequenceException.class, () -> f.appendClient(PID, producerEpoch, 17, 28L, false));

        f.appendClient(PID, producerEpoch, 0, 28L, false);
        assertEquals(0, f.entry(PID).lastSeq());
    }

    @Test
    void sequencesWrapFromMaxValueToZero() {
        f.appendReplication(f.stateManager, PID, (short) 15, Integer.MAX_VALUE, 735L, f.now);
        f.appendClient(PID, (short) 15, 0, 1235L, false);
        ProducerStateEntry entry = f.entry(PID);
        assertEquals(Integer.MAX_VALUE, entry.firstSeq());
        assertEquals(0, entry.lastSeq());
    }

    @Test
    void aWrappedSequenceMustStillBeNext() {
        f.appendReplication(f.stateManager, PID, (short) 15, Integer.MAX_VALUE, 735L, f.now);
        assertThrows(OutOfOrderSequenceException.class, () -> f.appendClient(PID, (short) 15, 1, 1235L, false));
    }

    @Test
    void aBatchMayWrapItsSequencesInside() {
        ProducerAppendInfo info = f.stateManager.prepareUpdate(PID, AppendOrigin.REPLICATION);
        info.append(new ProducerBatch.Data(PID, (short) 15, Integer.MAX_VALUE - 10, 9, 2000L, 2020L, f.now, false));
        assertEquals(Optional.empty(), f.stateManager.lastEntry(PID));
        f.stateManager.update(info);

        ProducerStateEntry entry = f.entry(PID);
        assertEquals(Integer.MAX_VALUE - 10, entry.firstSeq());
        assertEquals(9, entry.lastSeq());
        assertEquals(2000L, entry.firstDataOffset());
        assertEquals(2020L, entry.lastDataOffset());
    }

    @Test
    void replicationIsNotValidated() {
        f.appendReplication(f.stateManager, PID, (short) 5, 16, 735L, f.now);
        ProducerStateEntry entry = f.entry(PID);
        assertEquals(5, entry.producerEpoch());
        assertEquals(16, entry.firstSeq());
        assertEquals(16, entry.lastSeq());
        assertEquals(735L, entry.firstDataOffset());
        assertEquals(735L, entry.lastDataOffset());

        // A gap and an older epoch are accepted from a replica: the leader validated them.
        f.appendReplication(f.stateManager, PID, (short) 5, 20, 736L, f.now);
        f.appendReplication(f.stateManager, PID, (short) 4, 3, 737L, f.now);
        assertEquals(4, f.entry(PID).producerEpoch());
        assertEquals(3, f.entry(PID).lastSeq());
    }

    @Test
    void aClientGapIsRefusedAndTheSameBatchFromAReplicaAccepted() {
        f.appendClient(PID, EPOCH, 0, 0L, false);
        assertThrows(OutOfOrderSequenceException.class, () -> f.appendClient(PID, EPOCH, 3, 1L, false));
        assertEquals(0, f.entry(PID).lastSeq());

        f.appendReplication(f.stateManager, PID, EPOCH, 3, 1L, f.now);
        assertEquals(3, f.entry(PID).lastSeq());
    }

    @Test
    void aCoordinatorsBatchesAreNotCheckedForSequences() {
        ProducerStateFixture.appendData(
                f.stateManager, PID, EPOCH, ProducerBatch.NO_SEQUENCE, 99L, f.now, AppendOrigin.COORDINATOR, true);
        ProducerStateFixture.appendData(
                f.stateManager, PID, EPOCH, ProducerBatch.NO_SEQUENCE, 100L, f.now, AppendOrigin.COORDINATOR, true);
        assertEquals(OptionalLong.of(99L), f.entry(PID).currentTxnFirstOffset());
        assertThrows(
                InvalidProducerEpochException.class,
                () -> ProducerStateFixture.appendData(
                        f.stateManager,
                        PID,
                        (short) -1,
                        ProducerBatch.NO_SEQUENCE,
                        101L,
                        f.now,
                        AppendOrigin.COORDINATOR,
                        true));
    }

    @Test
    void anAbortMarkerWithANewEpochClearsTheBatchesAndTheNextEpochStartsAtZero() {
        f.appendClient(PID, EPOCH, 0, 0L, false);
        short bumped = 1;
        f.appendMarker(PID, bumped, TransactionResult.ABORT, 1L);

        ProducerStateEntry entry = f.entry(PID);
        assertEquals(bumped, entry.producerEpoch());
        assertEquals(OptionalLong.empty(), entry.currentTxnFirstOffset());
        assertEquals(ProducerBatch.NO_SEQUENCE, entry.firstSeq());
        assertEquals(ProducerBatch.NO_SEQUENCE, entry.lastSeq());
        assertEquals(-1L, entry.lastDataOffset());

        f.appendClient(PID, bumped, 0, 2L, false);
        assertEquals(0, f.entry(PID).firstSeq());
    }

    @Test
    void afterAnEpochBumpByMarkerOnlySequenceZeroIsAccepted() {
        f.appendClient(PID, EPOCH, 0, 0L, true);
        f.appendClient(PID, EPOCH, 1, 1L, true);
        short bumped = 1;
        f.appendMarker(PID, bumped, TransactionResult.ABORT, 2L);

        assertThrows(OutOfOrderSequenceException.class, () -> f.appendClient(PID, bumped, 2, 3L, true));
        assertThrows(OutOfOrderSequenceException.class, () -> f.appendClient(PID, (short) (bumped + 1), 2, 3L, true));
        f.appendClient(PID, bumped, 0, 3L, true);
        assertEquals(bumped, f.entry(PID).producerEpoch());
        assertEquals(0, f.entry(PID).lastSeq());
    }

    @Test
    void aDirectEpochBumpMustStartAtZero() {
        f.appendClient(PID, EPOCH, 0, 0L, false);
        f.appendClient(PID, EPOCH, 1, 1L, false);
        f.appendClient(PID, EPOCH, 2, 2L, false);

        ProducerAppendInfo info = f.stateManager.prepareUpdate(PID, AppendOrigin.CLIENT);
        OutOfOrderSequenceException e = assertThrows(
                OutOfOrderSequenceException.class,
                () -> info.appendDataBatch((short) 1, 5, 5, f.now, new LogOffsetMetadata(3L), 3L, false));
        assertTrue(e.getMessage().contains("Invalid sequence number for new epoch"), e.getMessage());
        assertTrue(e.getMessage().contains("1 (request epoch)"), e.getMessage());
        assertTrue(e.getMessage().contains("5 (seq. number)"), e.getMessage());
        assertTrue(e.getMessage().contains("0 (current producer epoch)"), e.getMessage());
        assertTrue(e.getMessage().contains("test-0"), e.getMessage());

        info.appendDataBatch((short) 1, 0, 0, f.now, new LogOffsetMetadata(3L), 3L, false);
        assertEquals(1, info.toEntry().producerEpoch());
    }

    @Test
    void aNonTransactionalBatchDuringATransactionIsRefusedAndChangesNothing() {
        f.appendClient(PID, EPOCH, 0, 0L, true);
        ProducerAppendInfo info = f.stateManager.prepareUpdate(PID, AppendOrigin.CLIENT);
        assertThrows(
                InvalidTxnStateException.class,
                () -> info.append(new ProducerBatch.Data(PID, EPOCH, 1, 1, 1L, 1L, f.now, false)));
        assertTrue(info.toEntry().isEmpty());
        assertEquals(List.of(), info.startedTransactions());

        // The same append info goes on from where it was.
        info.append(new ProducerBatch.Data(PID, EPOCH, 1, 1, 1L, 1L, f.now, true));
        assertEquals(1, info.toEntry().lastSeq());
    }

    @Test
    void aMarkerWithAnOlderEpochIsRefused() {
        f.appendClient(PID, (short) 5, 0, 99L, true);
        assertThrows(
                InvalidProducerEpochException.class,
                () -> f.appendMarker(PID, (short) 3, TransactionResult.COMMIT, 100L));
    }

    @Test
    void anOlderCoordinatorIsFenced() {
        short epoch = 5;
        f.appendClient(PID, epoch, 0, 99L, true);
        f.appendMarker(f.stateManager, PID, epoch, TransactionResult.COMMIT, 100L, 1);
        assertEquals(1, f.entry(PID).coordinatorEpoch());

        f.appendMarker(f.stateManager, PID, epoch, TransactionResult.COMMIT, 101L, 1);
        f.appendMarker(f.stateManager, PID, epoch, TransactionResult.COMMIT, 102L, 2);
        assertThrows(
                TransactionCoordinatorFencedException.class,
                () -> f.appendMarker(f.stateManager, PID, epoch, TransactionResult.COMMIT, 103L, 1));
        assertEquals(2, f.entry(PID).coordinatorEpoch());
    }

    @Test
    void aReplicaAcceptsStaleEpochsInMarkers() {
        f.appendClient(PID, (short) 5, 0, 99L, true);
        f.appendMarker(f.stateManager, PID, (short) 5, TransactionResult.COMMIT, 100L, 3);

        ProducerAppendInfo info = f.stateManager.prepareUpdate(PID, AppendOrigin.REPLICATION);
        info.append(new ProducerBatch.EndTxnMarker(PID, (short) 4, 101L, f.now, TransactionResult.ABORT, 2));
        f.stateManager.update(info);
        assertEquals(4, f.entry(PID).producerEpoch());
        assertEquals(2, f.entry(PID).coordinatorEpoch());
    }

    @Test
    void aVersionTwoMarkerNeedsABumpedEpochUnlessTheTransactionIsOver() {
        short epoch = 5;
        f.appendClient(PID, epoch, 0, 10L, true);
        assertThrows(
                InvalidProducerEpochException.class,
                () -> f.appendMarker(f.stateManager, PID, epoch, TransactionResult.COMMIT, 11L, 0, (short) 2));

        assertTrue(f.appendMarker(f.stateManager, PID, (short) 6, TransactionResult.COMMIT, 11L, 0, (short) 2)
                .isPresent());
        // The coordinator retries the marker it wrote: accepted, and it completes nothing.
        assertEquals(
                Optional.empty(),
                f.appendMarker(f.stateManager, PID, (short) 6, TransactionResult.COMMIT, 12L, 0, (short) 2));
        assertThrows(
                InvalidProducerEpochException.class,
                () -> f.appendMarker(f.stateManager, PID, (short) 5, TransactionResult.COMMIT, 13L, 0, (short) 2));
    }

    @Test
    void aVersionTwoMarkerAtTheLastEpochMayEndAnOpenTransaction() {
        f.appendClient(PID, Short.MAX_VALUE, 0, 10L, true);
        Optional<CompletedTxn> completed =
                f.appendMarker(f.stateManager, PID, Short.MAX_VALUE, TransactionResult.ABORT, 11L, 0, (short) 2);
        assertEquals(Optional.of(new CompletedTxn(PID, 10L, 11L, true)), completed);
    }

    @Test
    void aCoordinatorsMarkerNeedsItsTransactionVersion() {
        ProducerAppendInfo info = f.stateManager.prepareUpdate(PID, AppendOrigin.COORDINATOR);
        assertThrows(
                IllegalArgumentException.class,
                () -> info.append(new ProducerBatch.EndTxnMarker(PID, EPOCH, 0L, f.now, TransactionResult.COMMIT, 0)));
    }

    @Test
    void prepareUpdateDoesNotChangeTheStateUntilUpdate() {
        ProducerAppendInfo info = f.stateManager.prepareUpdate(PID, AppendOrigin.CLIENT);
        info.append(new ProducerBatch.Data(PID, EPOCH, 0, 5, 15L, 20L, f.now, false));
        assertEquals(Optional.empty(), f.stateManager.lastEntry(PID));
        f.stateManager.update(info);

        ProducerAppendInfo next = f.stateManager.prepareUpdate(PID, AppendOrigin.CLIENT);
        next.append(new ProducerBatch.Data(PID, EPOCH, 6, 10, 26L, 30L, f.now, false));
        ProducerStateEntry entry = f.entry(PID);
        assertEquals(0, entry.firstSeq());
        assertEquals(5, entry.lastSeq());
        assertEquals(20L, entry.lastDataOffset());

        f.stateManager.update(next);
        entry = f.entry(PID);
        assertEquals(0, entry.firstSeq());
        assertEquals(10, entry.lastSeq());
        assertEquals(30L, entry.lastDataOffset());
    }

    @Test
    void aTransactionInOneAppendIsCompletedByItsMarker() {
        f.appendClient(PID, EPOCH, 0, 9L, false);
        ProducerAppendInfo info = f.stateManager.prepareUpdate(PID, AppendOrigin.CLIENT);
        info.append(new ProducerBatch.Data(PID, EPOCH, 1, 5, 16L, 20L, f.now, true));
        info.append(new ProducerBatch.Data(PID, EPOCH, 6, 10, 26L, 30L, f.now, true));
        assertEquals(OptionalLong.of(16L), info.toEntry().currentTxnFirstOffset());
        assertEquals(List.of(new TxnMetadata(PID, 16L)), info.startedTransactions());

        Optional<CompletedTxn> completed =
                info.appendEndTxnMarker(TransactionResult.COMMIT, 15, EPOCH, 40L, f.now, (short) 0);
        assertEquals(Optional.of(new CompletedTxn(PID, 16L, 40L, false)), completed);

        // The marker leaves the batches alone.
        ProducerStateEntry entry = info.toEntry();
        assertEquals(1, entry.firstSeq());
        assertEquals(10, entry.lastSeq());
        assertEquals(16L, entry.firstDataOffset());
        assertEquals(30L, entry.lastDataOffset());
        assertEquals(OptionalLong.empty(), entry.currentTxnFirstOffset());
        assertEquals(15, entry.coordinatorEpoch());
    }

    @Test
    void anEmptyControlBatchMakesTheProducerKnownAndOpensNothing() {
        long producerId = 23423L;
        ProducerAppendInfo info = f.stateManager.prepareUpdate(producerId, AppendOrigin.CLIENT);
        assertEquals(Optional.empty(), info.append(new ProducerBatch.EmptyControl(producerId, EPOCH, 15L, 15L)));
        f.stateManager.update(info);
        assertEquals(OptionalLong.empty(), f.entry(producerId).currentTxnFirstOffset());
        assertEquals(ProducerBatch.NO_PRODUCER_EPOCH, f.entry(producerId).producerEpoch());
    }

    @Test
    void aBatchOfAnotherProducerIsAnError() {
        ProducerAppendInfo info = f.stateManager.prepareUpdate(PID, AppendOrigin.CLIENT);
        assertThrows(
                IllegalArgumentException.class,
                () -> info.append(new ProducerBatch.Data(PID + 1, EPOCH, 0, 0, 0L, 0L, f.now, false)));
        assertThrows(
                IllegalArgumentException.class,
                () -> info.append(
                        new ProducerBatch.Data(PID, EPOCH, 0, 0, 5L, 5L, f.now, false),
                        Optional.of(new LogOffsetMetadata(4L)),
                        ProducerAppendInfo.TV_UNKNOWN));
    }

    @Test
    void theLastFiveBatchesAreFoundAsDuplicatesWithTheirOffsets() {
        for (int n = 0; n < 7; n++) {
            // Batches of three records: sequences 3n..3n+2 at offsets 10n..10n+2.
            ProducerAppendInfo info = f.stateManager.prepareUpdate(PID, AppendOrigin.CLIENT);
            info.append(new ProducerBatch.Data(PID, EPOCH, 3 * n, 3 * n + 2, 10L * n, 10L * n + 2, f.now + n, false));
            f.stateManager.update(info);
        }
        assertEquals(
                ProducerStateEntry.NUM_BATCHES_TO_RETAIN,
                f.entry(PID).batchMetadata().size());
        for (int n = 2; n < 7; n++) {
            ProducerBatch retry = new ProducerBatch.Data(PID, EPOCH, 3 * n, 3 * n + 2, 500L, 502L, f.now, false);
            BatchMetadata original = f.stateManager.findDuplicateBatch(retry).orElseThrow();
            assertEquals(10L * n, original.firstOffset());
            assertEquals(10L * n + 2, original.lastOffset());
            assertEquals(f.now + n, original.timestamp());
        }
        // Too old to be recognised; appended it is out of order.
        ProducerBatch.Data tooOld = new ProducerBatch.Data(PID, EPOCH, 3, 5, 500L, 502L, f.now, false);
        assertEquals(Optional.empty(), f.stateManager.findDuplicateBatch(tooOld));
        assertThrows(
                OutOfOrderSequenceException.class,
                () -> f.stateManager.prepareUpdate(PID, AppendOrigin.CLIENT).append(tooOld));
        // Another epoch, another sequence range, a marker: no duplicate.
        assertEquals(
                Optional.empty(),
                f.stateManager.findDuplicateBatch(
                        new ProducerBatch.Data(PID, (short) 1, 18, 20, 500L, 502L, f.now, false)));
        assertEquals(
                Optional.empty(),
                f.stateManager.findDuplicateBatch(
                        new ProducerBatch.Data(PID, EPOCH, 18, 19, 500L, 501L, f.now, false)));
        assertEquals(
                Optional.empty(),
                f.stateManager.findDuplicateBatch(
                        new ProducerBatch.EndTxnMarker(PID, EPOCH, 500L, f.now, TransactionResult.COMMIT, 0)));
        assertEquals(
                Optional.empty(),
                f.stateManager.findDuplicateBatch(
                        new ProducerBatch.Data(PID + 1, EPOCH, 18, 20, 500L, 502L, f.now, false)));
    }

    @Test
    void aNewEpochForgetsTheBatchesOfTheOld() {
        f.appendClient(PID, EPOCH, 0, 0L, false);
        f.appendClient(PID, (short) 1, 0, 1L, false);
        assertEquals(1, f.entry(PID).batchMetadata().size());
        assertFalse(f.stateManager
                .findDuplicateBatch(new ProducerBatch.Data(PID, EPOCH, 0, 0, 9L, 9L, f.now, false))
                .isPresent());
        assertTrue(f.stateManager
                .findDuplicateBatch(new ProducerBatch.Data(PID, (short) 1, 0, 0, 9L, 9L, f.now, false))
                .isPresent());
    }

    @Test
    void invalidBatchesAreRefusedWhenMade() {
        assertThrows(IllegalArgumentException.class, () -> new ProducerBatch.Data(-1L, EPOCH, 0, 0, 0L, 0L, 0L, false));
        assertThrows(
                IllegalArgumentException.class, () -> new ProducerBatch.Data(PID, EPOCH, -2, 0, 0L, 0L, 0L, false));
        assertThrows(IllegalArgumentException.class, () -> new ProducerBatch.Data(PID, EPOCH, 0, 0, 5L, 4L, 0L, false));
        assertThrows(
                IllegalArgumentException.class,
                () -> new ProducerBatch.Data(PID, EPOCH, 0, 0, 0L, 1L << 32, 0L, false));
        assertThrows(
                IllegalArgumentException.class,
                () -> new ProducerBatch.EndTxnMarker(PID, EPOCH, -1L, 0L, TransactionResult.ABORT, 0));
        assertThrows(IllegalArgumentException.class, () -> new ProducerBatch.EndTxnMarker(PID, EPOCH, 0L, 0L, null, 0));
        assertThrows(IllegalArgumentException.class, () -> new ProducerBatch.EmptyControl(PID, EPOCH, 3L, 2L));
    }

    @Test
    void exceptionsNameThePartition() {
        f.appendClient(PID, (short) 2, 0, 0L, false);
        InvalidProducerEpochException e = assertThrows(
                InvalidProducerEpochException.class,
                () -> new ProducerAppendInfo(PARTITION, PID, f.entry(PID), AppendOrigin.CLIENT)
                        .append(new ProducerBatch.Data(PID, (short) 1, 0, 0, 1L, 1L, f.now, false)));
        assertTrue(e.getMessage().contains("test-0"), e.getMessage());
        assertTrue(e.getMessage().contains("is 1, which is < the last seen epoch 2"), e.getMessage());
    }
}
