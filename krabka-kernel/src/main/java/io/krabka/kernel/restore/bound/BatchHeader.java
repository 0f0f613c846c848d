package io.krabka.kernel.restore.bound;

import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.TimestampType;
import io.krabka.spi.common.TopicPartition;
import java.util.Objects;

/**
 * What a batch's header says, which is all {@link RestoreBounds#decide(BatchHeader)} reads.
 *
 * @param partition     the partition the batch belongs to
 * @param baseOffset    the offset of its first record
 * @param lastOffset    the offset of its last record, at least {@code baseOffset}
 * @param maxTimestamp  its largest record timestamp, or -1 for none
 * @param timestampType CreateTime or LogAppendTime; under LogAppendTime every record has {@code maxTimestamp}
 * @param producerId    its producer id, or -1 for none
 * @param control       whether it holds a control record (a transaction marker) rather than data
 */
public record BatchHeader(
        TopicPartition partition,
        long baseOffset,
        long lastOffset,
        long maxTimestamp,
        TimestampType timestampType,
        long producerId,
        boolean control) {

    /** Checks the parts. */
    public BatchHeader {
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(timestampType, "timestampType");
        if (baseOffset < 0 || lastOffset < baseOffset) {
            throw new IllegalArgumentException("not a batch's offsets: " + baseOffset + " to " + lastOffset);
        }
    }

    /** The header of a magic 2 {@code batch} of {@code partition}. */
    public static BatchHeader of(TopicPartition partition, RecordBatch batch) {
        return new BatchHeader(
                partition,
                batch.baseOffset(),
                batch.lastOffset(),
                batch.maxTimestamp(),
                batch.timestampType(),
                batch.producerId(),
                batch.isControlBatch());
    }
}
