package io.krabka.kernel.log;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.storage.internals.log.CompletedTxn;
import org.apache.kafka.storage.internals.log.LogOffsetMetadata;
import org.apache.kafka.storage.internals.log.ProducerAppendInfo;
import org.apache.kafka.storage.internals.log.ProducerStateEntry;
import org.apache.kafka.storage.internals.log.ProducerStateManager;
import org.apache.kafka.storage.internals.log.ProducerStateManagerConfig;

/** Kafka 4.4's producer state under the comparison: the judge. */
final class KafkaPartitionState implements PartitionStateUnderTest {

    final ProducerStateManager psm;

    KafkaPartitionState(Path dir, int producerIdExpirationMs) throws IOException {
        psm = new ProducerStateManager(
                new TopicPartition("test", 0),
                dir.toFile(),
                ProducerStateFixture.MAX_TRANSACTION_TIMEOUT_MS,
                new ProducerStateManagerConfig(producerIdExpirationMs, false),
                Time.SYSTEM);
    }

    static org.apache.kafka.storage.internals.log.AppendOrigin origin(AppendOrigin origin) {
        return org.apache.kafka.storage.internals.log.AppendOrigin.valueOf(origin.name());
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
            ProducerAppendInfo info = psm.prepareUpdate(producerId, origin(origin));
            info.appendDataBatch(
                    epoch, firstSeq, lastSeq, timestamp, new LogOffsetMetadata(firstOffset), lastOffset, transactional);
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
            ProducerAppendInfo info = psm.prepareUpdate(producerId, origin(origin));
            EndTransactionMarker marker = new EndTransactionMarker(
                    abort ? ControlRecordType.ABORT : ControlRecordType.COMMIT, coordinatorEpoch);
            Optional<CompletedTxn> completed =
                    info.appendEndTxnMarker(marker, epoch, offset, timestamp, transactionVersion);
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
        return psm.takeSnapshot(true).map(java.io.File::toPath);
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
                + " firstUnstable=" + psm.firstUnstableOffset().map(m -> m.messageOffset)
                + " firstUndecided=" + psm.firstUndecidedOffset()
                + new TreeMap<>(psm.activeProducers())
                        .values().stream().map(KafkaPartitionState::describe).collect(Collectors.joining());
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
