package io.krabka.kernel.log;

import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/** A partition's producer state over a directory, with a test clock and the appends Kafka's tests use. */
final class ProducerStateFixture {

    static final TopicPartition PARTITION = new TopicPartition("test", 0);
    static final int MAX_TRANSACTION_TIMEOUT_MS = 5 * 60 * 1000;
    static final long LATE_TRANSACTION_TIMEOUT_MS =
            MAX_TRANSACTION_TIMEOUT_MS + ProducerStateManager.LATE_TRANSACTION_BUFFER_MS;

    final Path logDir;
    final ProducerStateManagerConfig config = ProducerStateManagerConfig.defaults();
    final ProducerStateManager stateManager;
    long now = 1_700_000_000_000L;

    ProducerStateFixture(Path logDir) throws IOException {
        this.logDir = logDir;
        this.stateManager = newStateManager();
    }

    /** Another producer state over the same directory, as after a restart. */
    ProducerStateManager newStateManager() throws IOException {
        return new ProducerStateManager(PARTITION, logDir, MAX_TRANSACTION_TIMEOUT_MS, config);
    }

    void sleep(long ms) {
        now += ms;
    }

    /** A one-record data batch from a client at the current time. */
    void appendClient(ProducerStateManager psm, long producerId, short epoch, int seq, long offset, boolean txn) {
        appendData(psm, producerId, epoch, seq, offset, now, AppendOrigin.CLIENT, txn);
    }

    void appendClient(long producerId, short epoch, int seq, long offset, boolean txn) {
        appendClient(stateManager, producerId, epoch, seq, offset, txn);
    }

    void appendReplication(
            ProducerStateManager psm, long producerId, short epoch, int seq, long offset, long timestamp) {
        appendData(psm, producerId, epoch, seq, offset, timestamp, AppendOrigin.REPLICATION, false);
    }

    /** A one-record data batch, applied and the map end moved past it. */
    static void appendData(
            ProducerStateManager psm,
            long producerId,
            short epoch,
            int seq,
            long offset,
            long timestamp,
            AppendOrigin origin,
            boolean txn) {
        ProducerAppendInfo info = psm.prepareUpdate(producerId, origin);
        info.append(new ProducerBatch.Data(producerId, epoch, seq, seq, offset, offset, timestamp, txn));
        psm.update(info);
        psm.updateMapEndOffset(offset + 1);
    }

    /** A marker from the coordinator with transaction version 0, completing its transaction as the log would. */
    Optional<CompletedTxn> appendMarker(
            ProducerStateManager psm,
            long producerId,
            short epoch,
            TransactionResult result,
            long offset,
            int coordinatorEpoch) {
        return appendMarker(psm, producerId, epoch, result, offset, coordinatorEpoch, (short) 0);
    }

    Optional<CompletedTxn> appendMarker(long producerId, short epoch, TransactionResult result, long offset) {
        return appendMarker(stateManager, producerId, epoch, result, offset, 0);
    }

    Optional<CompletedTxn> appendMarker(
            ProducerStateManager psm,
            long producerId,
            short epoch,
            TransactionResult result,
            long offset,
            int coordinatorEpoch,
            short transactionVersion) {
        ProducerAppendInfo info = psm.prepareUpdate(producerId, AppendOrigin.COORDINATOR);
        Optional<CompletedTxn> completed = info.append(
                new ProducerBatch.EndTxnMarker(producerId, epoch, offset, now, result, coordinatorEpoch),
                Optional.empty(),
                transactionVersion);
        psm.update(info);
        completed.ifPresent(psm::completeTxn);
        psm.updateMapEndOffset(offset + 1);
        return completed;
    }

    ProducerStateEntry entry(ProducerStateManager psm, long producerId) {
        return psm.lastEntry(producerId).orElseThrow(() -> new AssertionError("no state for producer " + producerId));
    }

    ProducerStateEntry entry(long producerId) {
        return entry(stateManager, producerId);
    }
}
