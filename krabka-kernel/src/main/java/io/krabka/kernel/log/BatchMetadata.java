package io.krabka.kernel.log;

/**
 * One of the last batches a producer appended, as kept to detect a retried batch. Kafka's name.
 *
 * @param lastSeq     the sequence of the batch's last record, or {@link ProducerBatch#NO_SEQUENCE}
 * @param lastOffset  the offset of the batch's last record
 * @param offsetDelta the last offset minus the first
 * @param timestamp   the batch's max timestamp
 */
public record BatchMetadata(int lastSeq, long lastOffset, int offsetDelta, long timestamp) {

    /** Validates the offsets. */
    public BatchMetadata {
        if (offsetDelta < 0 || lastOffset - offsetDelta < 0) {
            throw new IllegalArgumentException("offsets out of range: last " + lastOffset + ", delta " + offsetDelta);
        }
    }

    /** The sequence of the batch's first record; sequences wrap from {@link Integer#MAX_VALUE} to 0. */
    public int firstSeq() {
        // Kafka's DefaultRecordBatch.decrementSequence.
        return lastSeq < offsetDelta ? Integer.MAX_VALUE - (offsetDelta - lastSeq) + 1 : lastSeq - offsetDelta;
    }

    /** The offset of the batch's first record. */
    public long firstOffset() {
        return lastOffset - offsetDelta;
    }
}
