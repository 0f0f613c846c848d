package io.krabka.kernel.log;

import io.krabka.kernel.record.RecordBatch;
import java.io.IOException;
import java.util.Optional;

/**
 * What an appended batch does to the producer state, worked out before the batch is written and applied after,
 * as Kafka's {@code analyzeAndValidateProducerState}: a client's retry of a retained batch is a duplicate;
 * otherwise the producer's new state and the transaction its marker completes.
 *
 * @param appendInfo   the producer's state after the batch, if it has a producer id
 * @param completedTxn the transaction the batch's marker completes
 * @param duplicate    the retained batch a client's batch retries; nothing else is set then
 */
record ProducerStateUpdate(
        Optional<ProducerAppendInfo> appendInfo,
        Optional<CompletedTxn> completedTxn,
        Optional<BatchMetadata> duplicate) {

    private static final ProducerStateUpdate NONE =
            new ProducerStateUpdate(Optional.empty(), Optional.empty(), Optional.empty());

    /**
     * Checks {@code batch}, whose offsets are assigned, against the producer state.
     *
     * @param appendOffsetMetadata where the batch will be written, which an open transaction remembers
     * @throws ProducerStateException (its subclasses) if the batch does not follow from the producer's state
     */
    static ProducerStateUpdate analyze(
            ProducerStateManager producerStateManager,
            RecordBatch batch,
            LogOffsetMetadata appendOffsetMetadata,
            AppendOrigin origin,
            short transactionVersion) {
        Optional<ProducerBatch> producerBatch = ProducerBatches.of(batch);
        if (producerBatch.isEmpty()) {
            return NONE;
        }
        if (origin == AppendOrigin.CLIENT) {
            Optional<BatchMetadata> duplicate = producerStateManager.findDuplicateBatch(producerBatch.get());
            if (duplicate.isPresent()) {
                return new ProducerStateUpdate(Optional.empty(), Optional.empty(), duplicate);
            }
        }
        // The first offset of a transaction with its position, so the last stable offset needs no index lookup.
        Optional<LogOffsetMetadata> firstOffsetMetadata =
                batch.isTransactional() ? Optional.of(appendOffsetMetadata) : Optional.empty();
        ProducerAppendInfo appendInfo = producerStateManager.prepareUpdate(batch.producerId(), origin);
        Optional<CompletedTxn> completedTxn =
                appendInfo.append(producerBatch.get(), firstOffsetMetadata, transactionVersion);
        return new ProducerStateUpdate(Optional.of(appendInfo), completedTxn, Optional.empty());
    }

    /**
     * Applies the update once the batch is written: the producer's state, and for a completed transaction its
     * transaction index entry (if it aborted) with the last stable offset after it.
     */
    void apply(ProducerStateManager producerStateManager, LogSegment segment) throws IOException {
        appendInfo.ifPresent(producerStateManager::update);
        if (completedTxn.isPresent()) {
            CompletedTxn txn = completedTxn.get();
            segment.updateTxnIndex(txn, producerStateManager.lastStableOffset(txn));
            producerStateManager.completeTxn(txn);
        }
    }
}
