package io.krabka.kernel.restore.report;

import io.krabka.spi.common.Uuid;
import java.util.Objects;

/**
 * What became of one archived segment in the restored partition.
 *
 * @param segmentId        the segment's id in the archive
 * @param baseOffset       the restored segment's base offset (the archived segment's start offset)
 * @param endOffset        the last offset it holds as restored
 * @param batchesKept      batches copied byte for byte
 * @param batchesRewritten batches re-encoded from their surviving records
 * @param batchesEmptied   batches written as a bare header, every record excluded
 * @param recordsKept      records restored
 * @param recordsDropped   records excluded, or past the cut in a batch that straddles it
 * @param bytesWritten     the size of the restored {@code .log}
 */
public record SegmentOutcome(
        Uuid segmentId,
        long baseOffset,
        long endOffset,
        long batchesKept,
        long batchesRewritten,
        long batchesEmptied,
        long recordsKept,
        long recordsDropped,
        long bytesWritten) {

    /** Checks the values. */
    public SegmentOutcome {
        Objects.requireNonNull(segmentId, "segmentId");
        if (endOffset < baseOffset) {
            throw new IllegalArgumentException("end offset " + endOffset + " below base offset " + baseOffset);
        }
        if (batchesKept < 0
                || batchesRewritten < 0
                || batchesEmptied < 0
                || recordsKept < 0
                || recordsDropped < 0
                || bytesWritten < 0) {
            throw new IllegalArgumentException("negative counts");
        }
    }
}
