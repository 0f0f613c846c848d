package io.krabka.kernel.log;

import java.io.IOException;
import java.util.OptionalLong;

/**
 * What time-based rolling measures a segment's age from, as Kafka's {@code LogSegment} keeps it: the first batch's
 * timestamp, read from the file when first needed, or, if that batch has none, the time the segment was made (or
 * last emptied by a truncation).
 */
final class SegmentAge {

    private volatile long created;
    private volatile OptionalLong firstBatchTimestamp = OptionalLong.empty();

    SegmentAge(long now) {
        this.created = now;
    }

    /** The segment is empty again as of {@code now}: it counts as created then, with no first batch. */
    void reset(long now) {
        created = now;
        firstBatchTimestamp = OptionalLong.empty();
    }

    /** From the first batch's timestamp to {@code messageTimestamp} if it has one, else from creation to {@code now}. */
    long timeWaitedForRoll(FileRecords log, long now, long messageTimestamp) throws IOException {
        long first = firstBatchTimestamp(log).orElse(-1L);
        return first >= 0 ? messageTimestamp - first : now - created;
    }

    /** The first batch's max timestamp, read once; empty while the segment has no batch. */
    OptionalLong firstBatchTimestamp(FileRecords log) throws IOException {
        if (firstBatchTimestamp.isEmpty()) {
            FileBatchCursor batches = log.cursor(0);
            if (batches.next()) {
                firstBatchTimestamp = OptionalLong.of(batches.maxTimestamp());
            }
        }
        return firstBatchTimestamp;
    }
}
