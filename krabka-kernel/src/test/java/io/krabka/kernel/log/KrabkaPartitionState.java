package io.krabka.kernel.log;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Krabka's producer state under the comparison. */
final class KrabkaPartitionState implements PartitionStateUnderTest {

    final ProducerStateManager psm;

    KrabkaPartitionState(Path dir, int producerIdExpirationMs) throws IOException {
        psm = new ProducerStateManager(
                ProducerStateFixture.PARTITION,
                dir,
                ProducerStateFixture.MAX_TRANSACTION_TIMEOUT_MS,
                new ProducerStateManagerConfig(producerIdExpirationMs));
    }

    @Override
    public String appendData(
            long producerId,
            short epoch,
            int firstSeq,
            int lastSeq,
            long firstOffset,
            long lastOffset,
            long timestamp,
            boolean transactional,
            AppendOrigin origin) {
        try {
            ProducerAppendInfo info = psm.prepareUpdate(producerId, origin);
            info.append(new ProducerBatch.Data(
                    producerId, epoch, firstSeq, lastSeq, firstOffset, lastOffset, timestamp, transactional));
            psm.update(info);
            psm.updateMapEndOffset(lastOffset + 1);
            return "ok";
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    @Override
    public String appendMarker(
            long producerId,
            short epoch,
            boolean abort,
            int coordinatorEpoch,
            long offset,
            long timestamp,
            short transactionVersion,
            AppendOrigin origin) {
        try {
            ProducerAppendInfo info = psm.prepareUpdate(producerId, origin);
            Optional<CompletedTxn> completed = info.append(
                    new ProducerBatch.EndTxnMarker(
                            producerId,
                            epoch,
                            offset,
                            timestamp,
                            abort ? TransactionResult.ABORT : TransactionResult.COMMIT,
                            coordinatorEpoch),
                    Optional.empty(),
                    transactionVersion);
            psm.update(info);
            String outcome = "none";
            if (completed.isPresent()) {
                CompletedTxn txn = completed.get();
                long lastStableOffset = psm.lastStableOffset(txn);
                psm.completeTxn(txn);
                outcome = PartitionStateUnderTest.completed(
                        txn.producerId(), txn.firstOffset(), txn.lastOffset(), txn.isAborted(), lastStableOffset);
            }
            psm.updateMapEndOffset(offset + 1);
            return outcome;
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    @Override
    public void onHighWatermarkUpdated(long highWatermark) {
        psm.onHighWatermarkUpdated(highWatermark);
    }

    @Override
    public Optional<Path> takeSnapshot() throws IOException {
        return psm.takeSnapshot();
    }

    @Override
    public void truncateAndReload(long logStartOffset, long logEndOffset, long currentTimeMs) throws IOException {
        psm.truncateAndReload(logStartOffset, logEndOffset, currentTimeMs);
    }

    @Override
    public void removeExpiredProducers(long currentTimeMs) {
        psm.removeExpiredProducers(currentTimeMs);
    }

    @Override
    public long mapEndOffset() {
        return psm.mapEndOffset();
    }

    @Override
    public String state() {
        return "mapEnd=" + psm.mapEndOffset()
                + " firstUnstable=" + psm.firstUnstableOffset().map(LogOffsetMetadata::messageOffset)
                + " firstUndecided=" + psm.firstUndecidedOffset()
                + new TreeMap<>(psm.activeProducers())
                        .values().stream().map(KrabkaPartitionState::describe).collect(Collectors.joining());
    }

    static String describe(ProducerStateEntry e) {
        return "\n  " + e.producerId() + " epoch=" + e.producerEpoch() + " coordinator=" + e.coordinatorEpoch()
                + " ts=" + e.lastTimestamp() + " txn=" + e.currentTxnFirstOffset() + " batches="
                + e.batchMetadata().stream()
                        .map(b -> PartitionStateUnderTest.batch(
                                b.lastSeq(), b.lastOffset(), b.offsetDelta(), b.timestamp()))
                        .collect(Collectors.joining());
    }
}
