package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Transactions, the first unstable offset and the aborted-transaction index entries. */
class ProducerStateTransactionsTest {

    private static final long PID = 1L;
    private static final short EPOCH = 0;

    @TempDir
    Path logDir;

    private ProducerStateFixture f;
    private ProducerStateManager psm;

    @BeforeEach
    void setUp() throws IOException {
        f = new ProducerStateFixture(logDir);
        psm = f.stateManager;
    }

    private Optional<Long> firstUnstable() {
        return psm.firstUnstableOffset().map(LogOffsetMetadata::messageOffset);
    }

    @Test
    void theFirstUnstableOffsetWaitsForMarkersAndTheHighWatermark() {
        short epoch = 5;
        assertEquals(OptionalLong.empty(), psm.firstUndecidedOffset());

        f.appendClient(PID, epoch, 0, 99L, true);
        assertEquals(OptionalLong.of(99L), psm.firstUndecidedOffset());
        assertEquals(Optional.of(99L), firstUnstable());

        long other = 2L;
        f.appendClient(other, epoch, 0, 105L, true);
        assertEquals(OptionalLong.of(99L), psm.firstUndecidedOffset());
        assertEquals(Optional.of(99L), firstUnstable());

        f.appendMarker(PID, epoch, TransactionResult.COMMIT, 109L);
        assertEquals(OptionalLong.of(105L), psm.firstUndecidedOffset());
        assertEquals(Optional.of(99L), firstUnstable());

        psm.onHighWatermarkUpdated(100L);
        assertEquals(Optional.of(99L), firstUnstable());
        psm.onHighWatermarkUpdated(110L);
        assertEquals(Optional.of(105L), firstUnstable());

        f.appendMarker(other, epoch, TransactionResult.ABORT, 112L);
        assertEquals(OptionalLong.empty(), psm.firstUndecidedOffset());
        assertEquals(Optional.of(105L), firstUnstable());
        psm.onHighWatermarkUpdated(113L);
        assertEquals(Optional.empty(), firstUnstable());
    }

    @Test
    void theFirstUnstableOffsetKeepsThePositionOfTheTransactionsFirstBatch() {
        LogOffsetMetadata first = new LogOffsetMetadata(992342L, 990000L, 234224);
        ProducerAppendInfo info = psm.prepareUpdate(PID, AppendOrigin.CLIENT);
        info.append(
                new ProducerBatch.Data(PID, EPOCH, 0, 0, first.messageOffset(), first.messageOffset(), f.now, true),
                Optional.of(first),
                ProducerAppendInfo.TV_UNKNOWN);
        psm.update(info);
        assertEquals(Optional.of(first), psm.firstUnstableOffset());
    }

    @Test
    void theLastStableOffsetOfACompletedTransactionIsTheNextOpenOneOfAnotherProducer() {
        long segmentBase = 990000L;
        long start1 = 992342L;
        long start2 = start1 + 25;
        long start3 = start1 + 57;
        beginTransaction(PID, start1, segmentBase);
        beginTransaction(PID + 1, start2, segmentBase);
        beginTransaction(PID + 2, start3, segmentBase);

        long last1 = start3 + 15;
        CompletedTxn txn1 = new CompletedTxn(PID, start1, last1, false);
        assertEquals(start2, psm.lastStableOffset(txn1));
        psm.completeTxn(txn1);
        psm.onHighWatermarkUpdated(last1 + 1);
        assertEquals(
                Optional.of(new LogOffsetMetadata(start2, segmentBase, 50 * (int) (start2 - segmentBase))),
                psm.firstUnstableOffset());

        long last3 = last1 + 20;
        CompletedTxn txn3 = new CompletedTxn(PID + 2, start3, last3, false);
        assertEquals(start2, psm.lastStableOffset(txn3));
        psm.completeTxn(txn3);
        psm.onHighWatermarkUpdated(last3 + 1);
        assertEquals(Optional.of(start2), firstUnstable());

        long last2 = last3 + 78;
        CompletedTxn txn2 = new CompletedTxn(PID + 1, start2, last2, false);
        assertEquals(last2 + 1, psm.lastStableOffset(txn2));
        psm.completeTxn(txn2);
        psm.onHighWatermarkUpdated(last2 + 1);
        assertEquals(Optional.empty(), psm.firstUnstableOffset());
    }

    private void beginTransaction(long producerId, long startOffset, long segmentBaseOffset) {
        ProducerAppendInfo info = psm.prepareUpdate(producerId, AppendOrigin.CLIENT);
        LogOffsetMetadata first =
                new LogOffsetMetadata(startOffset, segmentBaseOffset, 50 * (int) (startOffset - segmentBaseOffset));
        info.append(
                new ProducerBatch.Data(producerId, EPOCH, 0, 0, startOffset, startOffset, f.now, true),
                Optional.of(first),
                ProducerAppendInfo.TV_UNKNOWN);
        psm.update(info);
    }

    @Test
    void markersOfEmptyTransactionsCompleteNothing() {
        int[] seq = {0};
        ProducerAppendInfo first = psm.prepareUpdate(PID, AppendOrigin.CLIENT);
        appendData(first, 16L, 20L, seq);
        assertEquals(List.of(new TxnMetadata(PID, 16L)), first.startedTransactions());
        psm.update(first);
        psm.onHighWatermarkUpdated(21L);
        assertEquals(Optional.of(new LogOffsetMetadata(16L)), psm.firstUnstableOffset());

        // One append: ends the open transaction, two empty ones, one whole transaction, and opens another.
        ProducerAppendInfo second = psm.prepareUpdate(PID, AppendOrigin.CLIENT);
        Optional<CompletedTxn> firstCompleted = endTransaction(second, TransactionResult.COMMIT, 21L);
        assertEquals(Optional.of(new CompletedTxn(PID, 16L, 21L, false)), firstCompleted);
        assertEquals(Optional.empty(), endTransaction(second, TransactionResult.COMMIT, 22L));
        assertEquals(Optional.empty(), endTransaction(second, TransactionResult.ABORT, 23L));
        appendData(second, 24L, 27L, seq);
        Optional<CompletedTxn> secondCompleted = endTransaction(second, TransactionResult.ABORT, 28L);
        assertEquals(Optional.of(new CompletedTxn(PID, 24L, 28L, true)), secondCompleted);
        assertEquals(Optional.empty(), endTransaction(second, TransactionResult.ABORT, 29L));
        appendData(second, 30L, 31L, seq);

        assertEquals(List.of(new TxnMetadata(PID, 24L), new TxnMetadata(PID, 30L)), second.startedTransactions());
        psm.update(second);
        psm.completeTxn(firstCompleted.orElseThrow());
        psm.completeTxn(secondCompleted.orElseThrow());
        psm.onHighWatermarkUpdated(32L);
        assertEquals(Optional.of(new LogOffsetMetadata(30L)), psm.firstUnstableOffset());
    }

    private void appendData(ProducerAppendInfo info, long startOffset, long endOffset, int[] seq) {
        int count = (int) (endOffset - startOffset);
        info.append(new ProducerBatch.Data(PID, EPOCH, seq[0], seq[0] + count, startOffset, endOffset, f.now, true));
        seq[0] += count + 1;
    }

    private Optional<CompletedTxn> endTransaction(ProducerAppendInfo info, TransactionResult result, long offset) {
        return info.append(
                new ProducerBatch.EndTxnMarker(PID, EPOCH, offset, f.now, result, 27), Optional.empty(), (short) 0);
    }

    @Test
    void anAbortedTransactionBecomesATransactionIndexEntryWithTheLastStableOffset() {
        f.appendClient(PID, EPOCH, 0, 10L, true);
        f.appendClient(PID + 1, EPOCH, 0, 11L, true);
        f.appendClient(PID, EPOCH, 1, 12L, true);

        // As the log does: the last stable offset before the transaction completes, then the index entry.
        ProducerAppendInfo info = psm.prepareUpdate(PID, AppendOrigin.COORDINATOR);
        CompletedTxn aborted = info.append(
                        new ProducerBatch.EndTxnMarker(PID, EPOCH, 13L, f.now, TransactionResult.ABORT, 0),
                        Optional.empty(),
                        (short) 0)
                .orElseThrow();
        psm.update(info);
        long lastStableOffset = psm.lastStableOffset(aborted);
        assertEquals(new AbortedTxn(PID, 10L, 13L, 11L), aborted.toAbortedTxn(lastStableOffset));
        psm.completeTxn(aborted);

        info = psm.prepareUpdate(PID + 1, AppendOrigin.COORDINATOR);
        CompletedTxn committed = info.append(
                        new ProducerBatch.EndTxnMarker(PID + 1, EPOCH, 14L, f.now, TransactionResult.COMMIT, 0),
                        Optional.empty(),
                        (short) 0)
                .orElseThrow();
        psm.update(info);
        assertEquals(15L, psm.lastStableOffset(committed));
        assertThrows(IllegalStateException.class, () -> committed.toAbortedTxn(15L));
        psm.completeTxn(committed);
        assertEquals(Optional.of(10L), firstUnstable());
        psm.onHighWatermarkUpdated(15L);
        assertEquals(Optional.empty(), firstUnstable());
    }

    @Test
    void completingATransactionThatWasNotOpenIsAnError() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> psm.completeTxn(new CompletedTxn(PID, 5L, 6L, true)));
        assertTrue(e.getMessage().contains("test-0"), e.getMessage());
    }

    @Test
    void aTransactionOpenLongerThanTheTimeoutIsLate() {
        long pid1 = 39L;
        long pid2 = 57L;
        f.appendClient(pid1, (short) 2, 0, 100L, true);
        assertFalse(psm.hasLateTransaction(f.now));
        f.sleep(500);
        f.appendClient(pid2, (short) 9, 0, 150L, true);
        assertFalse(psm.hasLateTransaction(f.now));

        f.sleep(ProducerStateFixture.LATE_TRANSACTION_TIMEOUT_MS - 500 + 1);
        assertTrue(psm.hasLateTransaction(f.now));
        f.sleep(500);
        assertTrue(psm.hasLateTransaction(f.now));

        f.appendMarker(pid1, (short) 2, TransactionResult.COMMIT, 200L);
        assertTrue(psm.hasLateTransaction(f.now));
        f.appendMarker(pid2, (short) 9, TransactionResult.COMMIT, 250L);
        assertFalse(psm.hasLateTransaction(f.now));
    }

    @Test
    void truncationEndsLateness() throws IOException {
        f.appendClient(39L, (short) 2, 0, 100L, true);
        f.sleep(ProducerStateFixture.LATE_TRANSACTION_TIMEOUT_MS + 1);
        assertTrue(psm.hasLateTransaction(f.now));
        psm.truncateAndReload(0L, 80L, f.now);
        assertFalse(psm.hasLateTransaction(f.now));

        f.appendClient(39L, (short) 2, 0, 100L, true);
        f.sleep(ProducerStateFixture.LATE_TRANSACTION_TIMEOUT_MS + 1);
        assertTrue(psm.hasLateTransaction(f.now));
        psm.truncateFullyAndStartAt(150L);
        assertFalse(psm.hasLateTransaction(f.now));
    }

    @Test
    void lateTransactionsAreKnownAgainAfterReload() throws IOException {
        f.appendClient(39L, (short) 2, 0, 100L, true);
        f.sleep(500);
        f.appendClient(57L, (short) 9, 0, 150L, true);
        psm.takeSnapshot();
        f.sleep(ProducerStateFixture.LATE_TRANSACTION_TIMEOUT_MS - 500 + 1);
        assertTrue(psm.hasLateTransaction(f.now));

        ProducerStateManager reloaded = f.newStateManager();
        reloaded.truncateAndReload(0L, psm.mapEndOffset(), f.now);
        assertTrue(reloaded.hasLateTransaction(f.now));
        assertEquals(OptionalLong.of(100L), reloaded.firstUndecidedOffset());
    }

    @Test
    void readersSeeTheFirstUnstableOffsetWhileTheLogAppends() throws InterruptedException {
        int transactions = 20_000;
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<String> failure = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(2);
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            readers.add(Thread.ofPlatform().start(() -> {
                started.countDown();
                long seen = -1;
                while (!done.get()) {
                    Optional<LogOffsetMetadata> first = psm.firstUnstableOffset();
                    if (first.isPresent()) {
                        long offset = first.get().messageOffset();
                        // Transactions start at even offsets and only move forward.
                        if (offset % 2 != 0 || offset < seen) {
                            failure.compareAndSet(null, "saw " + offset + " after " + seen);
                        }
                        seen = offset;
                    }
                }
            }));
        }
        started.await();
        for (int n = 0; n < transactions; n++) {
            long offset = 2L * n;
            f.appendClient(PID, EPOCH, n, offset, true);
            f.appendMarker(PID, EPOCH, n % 2 == 0 ? TransactionResult.COMMIT : TransactionResult.ABORT, offset + 1);
            psm.onHighWatermarkUpdated(offset + 2);
        }
        done.set(true);
        for (Thread reader : readers) {
            reader.join();
        }
        assertEquals(null, failure.get());
        assertEquals(Optional.empty(), psm.firstUnstableOffset());
    }
}
