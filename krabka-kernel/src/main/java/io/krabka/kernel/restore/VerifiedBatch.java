package io.krabka.kernel.restore;

import io.krabka.kernel.record.RecordBatch;

/**
 * One batch that passed the verify stage: where it lies in the segment and the header values the later stages
 * rebuild the indexes, the producer state and the leader epoch cache from.
 *
 * @param position             where the batch starts in the segment
 * @param sizeInBytes          the whole batch, offset and length fields included
 * @param baseOffset           the offset of its first record
 * @param lastOffset           the offset of its last record, kept when compaction removed records
 * @param recordCount          the records it holds
 * @param maxTimestamp         its max timestamp, or {@link RecordBatch#NO_TIMESTAMP}
 * @param partitionLeaderEpoch the leader epoch it was written in, or {@link RecordBatch#NO_PARTITION_LEADER_EPOCH}
 * @param producerId           the producer id, or {@link RecordBatch#NO_PRODUCER_ID}
 * @param producerEpoch        the producer epoch, or {@link RecordBatch#NO_PRODUCER_EPOCH}
 * @param baseSequence         the sequence of the first record, or {@link RecordBatch#NO_SEQUENCE}
 * @param lastSequence         the sequence of the last record, or {@link RecordBatch#NO_SEQUENCE}
 * @param transactional        whether it belongs to a transaction
 * @param control              whether it holds control records (transaction markers)
 */
public record VerifiedBatch(
        long position,
        int sizeInBytes,
        long baseOffset,
        long lastOffset,
        int recordCount,
        long maxTimestamp,
        int partitionLeaderEpoch,
        long producerId,
        short producerEpoch,
        int baseSequence,
        int lastSequence,
        boolean transactional,
        boolean control) {

    /** Validates what the verify stage guarantees. */
    public VerifiedBatch {
        if (position < 0) {
            throw new IllegalArgumentException("negative position " + position);
        }
        if (sizeInBytes < RecordBatch.RECORD_BATCH_OVERHEAD) {
            throw new IllegalArgumentException("size " + sizeInBytes + " below the batch header's "
                    + RecordBatch.RECORD_BATCH_OVERHEAD + " bytes");
        }
        if (baseOffset < 0 || lastOffset < baseOffset) {
            throw new IllegalArgumentException("offsets [" + baseOffset + ", " + lastOffset + "] are not a range");
        }
        if (recordCount < 0 || recordCount - 1L > lastOffset - baseOffset) {
            throw new IllegalArgumentException(
                    recordCount + " records do not fit offsets [" + baseOffset + ", " + lastOffset + "]");
        }
    }
}
