package io.krabka.kernel.restore.materialize;

import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Re-encodes a batch without some of its records, as Kafka's log cleaner does: the same base offset, producer,
 * sequence, epoch, flags, timestamp type and codec; the surviving records keep their offsets and timestamps; the
 * batch keeps the last offset it is given, so no offset moves and the producer's sequences stay whole. A batch left
 * without records is a bare header claiming its range.
 */
public final class BatchRewriter {

    private BatchRewriter() {
    }

    /**
     * The batch holding only {@code kept} of {@code original}'s records, ending at {@code lastOffset}.
     *
     * @param lastOffset the offset the batch claims up to: the original's, or the last before the cut
     */
    public static ByteBuffer rewrite(RecordBatch original, List<Record> kept, long lastOffset) {
        RecordBatchBuilder builder = new RecordBatchBuilder(Compression.of(original.compressionType()),
                original.timestampType(), original.baseOffset())
                .producer(original.producerId(), original.producerEpoch(), original.baseSequence())
                .transactional(original.isTransactional())
                .control(original.isControlBatch())
                .partitionLeaderEpoch(original.partitionLeaderEpoch())
                .overrideLastOffset(lastOffset);
        if (original.timestampType() == TimestampType.LOG_APPEND_TIME) {
            builder.logAppendTime(original.maxTimestamp());
        }
        original.deleteHorizonMs().ifPresent(builder::deleteHorizonMs);
        if (kept.isEmpty()) {
            // Kafka's empty batch header carries the original's max timestamp as both timestamps.
            builder.emptyBatchTimestamp(original.maxTimestamp());
        }
        for (Record record : kept) {
            builder.appendWithOffset(record.offset(), record.timestamp(), record.key(), record.value(), record.headers());
        }
        return builder.build();
    }
}
