package io.krabka.kernel.log;

import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.EndTransactionMarker;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.RecordCursor;
import java.io.IOException;
import java.util.Optional;

/** What the producer state learns from a stored batch, as Kafka's {@code ProducerAppendInfo.append(RecordBatch)}. */
final class ProducerBatches {

    // A marker is a few bytes; the bound only guards against a compressed control batch that inflates.
    private static final long CONTROL_RECORDS_BOUND = 1 << 20;

    private ProducerBatches() {}

    /**
     * The batch as producer state input: a data batch, an end-transaction marker (its first record), or an empty
     * control batch left by the cleaner; empty for a batch without a producer id.
     *
     * @throws io.krabka.kernel.record.InvalidRecordException if a control batch's first record is not a marker
     */
    static Optional<ProducerBatch> of(RecordBatch batch) {
        if (!batch.hasProducerId()) {
            return Optional.empty();
        }
        long producerId = batch.producerId();
        short epoch = batch.producerEpoch();
        if (!batch.isControlBatch()) {
            return Optional.of(new ProducerBatch.Data(
                    producerId,
                    epoch,
                    batch.baseSequence(),
                    batch.lastSequence(),
                    batch.baseOffset(),
                    batch.lastOffset(),
                    batch.maxTimestamp(),
                    batch.isTransactional()));
        }
        try (RecordCursor records = batch.cursor(CONTROL_RECORDS_BOUND)) {
            if (!records.next()) {
                return Optional.of(
                        new ProducerBatch.EmptyControl(producerId, epoch, batch.baseOffset(), batch.lastOffset()));
            }
            EndTransactionMarker marker = EndTransactionMarker.deserialize(records.record());
            TransactionResult result =
                    marker.type() == ControlRecordType.COMMIT ? TransactionResult.COMMIT : TransactionResult.ABORT;
            return Optional.of(new ProducerBatch.EndTxnMarker(
                    producerId, epoch, batch.baseOffset(), records.timestamp(), result, marker.coordinatorEpoch()));
        }
    }

    /**
     * The current batch of a file scan as producer state input, read from its header as Kafka's
     * {@code FileChannelRecordBatch} does: only a control batch is read whole, for its marker. Empty for a batch
     * without a producer id, and for v0/v1.
     */
    static Optional<ProducerBatch> of(FileBatchCursor batch) throws IOException {
        long producerId = batch.producerId();
        if (producerId == RecordBatch.NO_PRODUCER_ID) {
            return Optional.empty();
        }
        int attributes = batch.attributes();
        if ((attributes & RecordBatch.CONTROL_FLAG_MASK) != 0) {
            return of((RecordBatch) batch.load());
        }
        long baseOffset = batch.offsetField();
        long lastOffset = batch.lastOffset();
        int baseSequence = batch.baseSequence();
        int lastSequence = baseSequence == RecordBatch.NO_SEQUENCE
                ? RecordBatch.NO_SEQUENCE
                : RecordBatch.incrementSequence(baseSequence, (int) (lastOffset - baseOffset));
        return Optional.of(new ProducerBatch.Data(
                producerId,
                batch.producerEpoch(),
                baseSequence,
                lastSequence,
                baseOffset,
                lastOffset,
                batch.maxTimestamp(),
                (attributes & RecordBatch.TRANSACTIONAL_FLAG_MASK) != 0));
    }
}
