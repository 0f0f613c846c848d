package io.krabka.kernel.log;

import io.krabka.kernel.record.RecordBatch;
import java.io.IOException;
import java.util.Optional;

/**
 * What an appended batch does to the producer state, worked out before the batch is written and applied after,
 * as Kafka's {@code analyzeAndValidateProducerState}: a client's retry of a retained batch is a duplicate;
 * otherwise the producer's new state and the transaction its marker completes. A transactional batch of a client or
 * coordinator that opens a transaction must carry the partition's current verification (KIP-890) when
 * {@code transaction.partition.verification.enable} is on; the batch ends the verification once written.
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
     * @param requestGuard         the verification the append was given, or {@link VerificationGuard#SENTINEL}
     * @throws ProducerStateException (its subclasses) if the batch does not follow from the producer's state
     */
    static ProducerStateUpdate analyze(
            ProducerStateManager producerStateManager,
            RecordBatch batch,
            LogOffsetMetadata appendOffsetMetadata,
            AppendOrigin origin,
            short transactionVersion,
            VerificationGuard requestGuard) {
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
        if ((origin == AppendOrigin.CLIENT || origin == AppendOrigin.COORDINATOR)
                && batch.isTransactional()
                && !batch.isControlBatch()
                && !producerStateManager.hasOngoingTransaction(batch.producerId(), batch.producerEpoch())) {
            checkVerified(producerStateManager, batch, requestGuard);
        }
        // The first offset of a transaction with its position, so the last stable offset needs no index lookup.
        Optional<LogOffsetMetadata> firstOffsetMetadata =
                batch.isTransactional() ? Optional.of(appendOffsetMetadata) : Optional.empty();
        ProducerAppendInfo appendInfo = producerStateManager.prepareUpdate(batch.producerId(), origin);
        Optional<CompletedTxn> completedTxn =
                appendInfo.append(producerBatch.get(), firstOffsetMetadata, transactionVersion);
        return new ProducerStateUpdate(Optional.of(appendInfo), completedTxn, Optional.empty());
    }

    private static void checkVerified(
            ProducerStateManager producerStateManager, RecordBatch batch, VerificationGuard requestGuard) {
        Optional<ProducerStateEntry> entry = producerStateManager.lastEntry(batch.producerId());
        if (entry.isPresent() && batch.producerEpoch() < entry.get().producerEpoch()) {
            throw new InvalidProducerEpochException("Epoch of producer " + batch.producerId() + " is "
                    + batch.producerEpoch() + ", which is smaller than the last seen epoch "
                    + entry.get().producerEpoch());
        }
        boolean verified = producerStateManager
                .verificationStateEntry(batch.producerId())
                .map(state -> state.guard().verify(requestGuard))
                .orElse(false);
        if (producerStateManager.producerStateManagerConfig().transactionVerificationEnabled() && !verified) {
            throw new InvalidTxnStateException("Record was not part of an ongoing transaction");
        }
    }

    /**
     * Applies the update once the batch is written: the producer's state, and for a completed transaction its
     * transaction index entry (if it aborted) with the last stable offset after it.
     */
    void apply(ProducerStateManager producerStateManager, RecordBatch batch, LogSegment segment) throws IOException {
        appendInfo.ifPresent(producerStateManager::update);
        if (batch.isTransactional()) {
            endVerification(producerStateManager, batch);
        }
        if (completedTxn.isPresent()) {
            CompletedTxn txn = completedTxn.get();
            segment.updateTxnIndex(txn, producerStateManager.lastStableOffset(txn));
            producerStateManager.completeTxn(txn);
        }
    }

    // A transactional batch or marker ends the verification, except the marker that ends the transaction before the
    // verified one at version 2: it carries the epoch the verification is for.
    private static void endVerification(ProducerStateManager producerStateManager, RecordBatch batch) {
        Optional<VerificationStateEntry> entry = producerStateManager.verificationStateEntry(batch.producerId());
        boolean nextTransactionStarted = entry.isPresent()
                && entry.get().supportsEpochBump()
                && batch.isControlBatch()
                && batch.producerEpoch() == entry.get().epoch();
        if (!nextTransactionStarted) {
            producerStateManager.clearVerificationStateEntry(batch.producerId());
        }
    }
}
