package io.krabka.kernel.restore;

import io.krabka.kernel.record.RecordBatch;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What the verify stage derived from a segment's bytes rather than from its metadata.
 *
 * @param key          the object key
 * @param batchCount   the batches it holds
 * @param recordCount  the records its batches hold
 * @param firstOffset  the base offset of its first batch; empty for an empty segment
 * @param lastOffset   the last offset of its last batch, the segment's true end offset; empty for an empty segment
 * @param maxTimestamp the largest batch max timestamp, or {@link RecordBatch#NO_TIMESTAMP} when no batch has one
 * @param sizeInBytes  the bytes read, every one of them inside a verified batch
 */
public record VerifiedSegment(
        String key,
        int batchCount,
        long recordCount,
        OptionalLong firstOffset,
        OptionalLong lastOffset,
        long maxTimestamp,
        long sizeInBytes) {

    /** Validates the summary's consistency. */
    public VerifiedSegment {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(firstOffset, "firstOffset");
        Objects.requireNonNull(lastOffset, "lastOffset");
        if (batchCount < 0 || recordCount < 0 || sizeInBytes < 0) {
            throw new IllegalArgumentException(key + ": negative counts");
        }
        boolean empty = batchCount == 0;
        if (firstOffset.isEmpty() != empty || lastOffset.isEmpty() != empty || (sizeInBytes == 0) != empty) {
            throw new IllegalArgumentException(key + ": offsets and size must be present exactly when batches are");
        }
        if (!empty && firstOffset.getAsLong() > lastOffset.getAsLong()) {
            throw new IllegalArgumentException(
                    key + ": first offset " + firstOffset.getAsLong() + " above last offset " + lastOffset.getAsLong());
        }
        if (empty && (recordCount != 0 || maxTimestamp != RecordBatch.NO_TIMESTAMP)) {
            throw new IllegalArgumentException(key + ": an empty segment has no records and no timestamp");
        }
    }
}
