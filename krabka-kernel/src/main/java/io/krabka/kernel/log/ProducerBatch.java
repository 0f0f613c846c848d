package io.krabka.kernel.log;

/**
 * What the producer state needs to know of one appended batch with a producer id, decoupled from the batch
 * codec: the log makes one from each batch it appends or recovers. A data batch, a transaction marker, or a
 * control batch whose marker the cleaner removed.
 */
public sealed interface ProducerBatch {

    /** The producer id of a batch written without one; such batches carry no producer state. */
    long NO_PRODUCER_ID = -1L;

    /** The epoch of a producer the state has no epoch for. */
    short NO_PRODUCER_EPOCH = -1;

    /** The sequence of a batch written without one, and the last sequence of a producer with no batches. */
    int NO_SEQUENCE = -1;

    /** A timestamp that is not known. */
    long NO_TIMESTAMP = -1L;

    /** The producer that wrote the batch. */
    long producerId();

    /** The producer's epoch when it wrote the batch. */
    short producerEpoch();

    /** The batch's first offset. */
    long firstOffset();

    /** The batch's last offset. */
    long lastOffset();

    /**
     * A batch of records.
     *
     * @param producerId      the producer
     * @param producerEpoch   its epoch
     * @param baseSequence    the sequence of the first record, or {@link #NO_SEQUENCE}
     * @param lastSequence    the sequence of the last record (wrapping past {@link Integer#MAX_VALUE} to 0), or
     *                        {@link #NO_SEQUENCE}
     * @param firstOffset     the offset of the first record
     * @param lastOffset      the offset of the last record
     * @param maxTimestamp    the batch's max timestamp
     * @param isTransactional whether the batch belongs to a transaction
     */
    record Data(
            long producerId,
            short producerEpoch,
            int baseSequence,
            int lastSequence,
            long firstOffset,
            long lastOffset,
            long maxTimestamp,
            boolean isTransactional)
            implements ProducerBatch {

        /** Validates the ids, sequences and offsets. */
        public Data {
            requireProducerId(producerId);
            if (baseSequence < NO_SEQUENCE || lastSequence < NO_SEQUENCE) {
                throw new IllegalArgumentException(
                        "negative sequence: base " + baseSequence + ", last " + lastSequence);
            }
            requireOffsets(firstOffset, lastOffset);
        }
    }

    /**
     * A control batch holding an end-transaction marker.
     *
     * @param producerId       the producer whose transaction ends
     * @param producerEpoch    the epoch the coordinator wrote the marker with
     * @param offset           the marker's offset
     * @param timestamp        the marker record's timestamp
     * @param result           commit or abort
     * @param coordinatorEpoch the epoch of the transaction coordinator that wrote it
     */
    record EndTxnMarker(
            long producerId,
            short producerEpoch,
            long offset,
            long timestamp,
            TransactionResult result,
            int coordinatorEpoch)
            implements ProducerBatch {

        /** Validates the id, the offset and the result. */
        public EndTxnMarker {
            requireProducerId(producerId);
            requireOffsets(offset, offset);
            if (result == null) {
                throw new IllegalArgumentException("no transaction result");
            }
        }

        @Override
        public long firstOffset() {
            return offset;
        }

        @Override
        public long lastOffset() {
            return offset;
        }
    }

    /**
     * A control batch with no records left: the cleaner removed a whole transaction and kept the empty batch to
     * retain the producer's state. It changes nothing but makes the producer known.
     *
     * @param producerId    the producer
     * @param producerEpoch its epoch
     * @param firstOffset   the batch's first offset
     * @param lastOffset    the batch's last offset
     */
    record EmptyControl(long producerId, short producerEpoch, long firstOffset, long lastOffset)
            implements ProducerBatch {

        /** Validates the id and the offsets. */
        public EmptyControl {
            requireProducerId(producerId);
            requireOffsets(firstOffset, lastOffset);
        }
    }

    private static void requireProducerId(long producerId) {
        if (producerId < 0) {
            throw new IllegalArgumentException("a batch without a producer id has no producer state: " + producerId);
        }
    }

    private static void requireOffsets(long firstOffset, long lastOffset) {
        if (firstOffset < 0 || lastOffset < firstOffset || lastOffset - firstOffset > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("offsets out of range: first " + firstOffset + ", last " + lastOffset);
        }
    }
}
