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
 * without records is a bare header claiming its range, without a timestamp.
 */
public final class BatchRewriter {

    private BatchRewriter() {}

    /**
     * The batch holding only {@code kept} of {@code original}'s records, ending at {@code lastOffset}.
     *
     * @param lastOffset the offset the batch claims up to: the original's, or the last before the cut
     */
    public static ByteBuffer rewrite(RecordBatch original, List<Record> kept, long lastOffset) {
        RecordBatchBuilder builder = new RecordBatchBuilder(
                        Compression.of(original.compressionType()), original.timestampType(), original.baseOffset())
                .producer(original.producerId(), original.producerEpoch(), original.baseSequence())
                .transactional(original.isTransactional())
                .control(original.isControlBatch())
                .partitionLeaderEpoch(original.partitionLeaderEpoch())
                .overrideLastOffset(lastOffset);
        // A batch without records carries no time: Kafka's tools take a batch's time from its records, and the time
        // index must not point at a batch whose records cannot be found at that time.
        if (original.timestampType() == TimestampType.LOG_APPEND_TIME) {
            builder.logAppendTime(kept.isEmpty() ? RecordBatch.NO_TIMESTAMP : original.maxTimestamp());
        }
        original.deleteHorizonMs().ifPresent(builder::deleteHorizonMs);
        for (Record record : kept) {
            builder.appendWithOffset(
                    record.offset(), record.timestamp(), record.key(), record.value(), record.headers());
        }
        return builder.build();
    }
}
