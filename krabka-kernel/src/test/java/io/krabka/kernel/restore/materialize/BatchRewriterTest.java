package io.krabka.kernel.restore.materialize;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.Header;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A filtered batch keeps everything but the records left out; an emptied one keeps its range and nothing else. */
class BatchRewriterTest {
    private static final long MAX = 1 << 20;

    private static RecordBatch original(TimestampType type) {
        RecordBatchBuilder builder = new RecordBatchBuilder(Compression.of(CompressionType.ZSTD), type, 100)
                .producer(4711, (short) 3, 40)
                .transactional(true)
                .partitionLeaderEpoch(7);
        if (type == TimestampType.LOG_APPEND_TIME) {
            builder.logAppendTime(9_000);
        }
        for (int i = 0; i < 5; i++) {
            builder.append(
                    1_000 + i, ("k" + i).getBytes(StandardCharsets.UTF_8), ("v" + i).getBytes(StandardCharsets.UTF_8));
        }
        return RecordBatch.at(builder.build(), 0, "original", 0);
    }

    private static RecordBatch read(ByteBuffer bytes) {
        RecordBatch batch = RecordBatch.at(bytes, 0, "rewritten", 0);
        batch.ensureValid();
        return batch;
    }

    @Test
    void filteredBatchKeepsItsOffsetsProducerCodecAndTheSurvivorsAsTheyWere() {
        RecordBatch original = original(TimestampType.CREATE_TIME);
        List<Record> records = original.records(MAX);

        RecordBatch rewritten = read(BatchRewriter.rewrite(original, List.of(records.get(1), records.get(3)), 104));

        assertEquals(
                List.of(100L, 104L, 2),
                List.of(rewritten.baseOffset(), rewritten.lastOffset(), rewritten.recordsCount()),
                "base, last offset and count");
        assertEquals(
                List.of(4711L, 3L, 40L, 44L),
                List.of(
                        rewritten.producerId(),
                        (long) rewritten.producerEpoch(),
                        (long) rewritten.baseSequence(),
                        (long) rewritten.lastSequence()));
        assertEquals(CompressionType.ZSTD, rewritten.compressionType());
        assertEquals(7, rewritten.partitionLeaderEpoch());
        assertEquals(true, rewritten.isTransactional());
        assertEquals(1_003, rewritten.maxTimestamp(), "the max of the records kept");
        List<Record> kept = rewritten.records(MAX);
        assertEquals(List.of(101L, 103L), kept.stream().map(Record::offset).toList());
        assertEquals(
                List.of(1_001L, 1_003L), kept.stream().map(Record::timestamp).toList());
        assertEquals(
                StandardCharsets.UTF_8.decode(records.get(3).value()).toString(),
                StandardCharsets.UTF_8.decode(kept.get(1).value()).toString());
    }

    @Test
    void batchCutBeforeItsEndClaimsOnlyTheOffsetsBeforeTheCut() {
        RecordBatch original = original(TimestampType.CREATE_TIME);
        List<Record> records = original.records(MAX);

        RecordBatch rewritten = read(BatchRewriter.rewrite(original, records.subList(0, 2), 102));

        assertEquals(102, rewritten.lastOffset(), "offset 102 was excluded, 103 on are past the cut");
        assertEquals(42, rewritten.lastSequence());
    }

    @Test
    void emptiedBatchIsABareHeaderWithoutATime() {
        for (TimestampType type : List.of(TimestampType.CREATE_TIME, TimestampType.LOG_APPEND_TIME)) {
            RecordBatch emptied = read(BatchRewriter.rewrite(original(type), List.of(), 104));

            assertEquals(
                    List.of(100L, 104L, 0),
                    List.of(emptied.baseOffset(), emptied.lastOffset(), emptied.recordsCount()));
            assertEquals(RecordBatch.NO_TIMESTAMP, emptied.maxTimestamp(), type.toString());
            assertEquals(type, emptied.timestampType());
            assertEquals(4711, emptied.producerId());
        }
    }

    @Test
    void headersSurvive() {
        RecordBatch original = RecordBatch.at(
                new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0)
                        .append(5, ByteBuffer.wrap(new byte[] {1}), null, List.of(Header.of("origin", new byte[] {
                            (byte) 0xFF
                        })))
                        .append(6, null, null, List.of())
                        .build(),
                0,
                "original",
                0);

        RecordBatch rewritten =
                read(BatchRewriter.rewrite(original, original.records(MAX).subList(0, 1), 1));

        assertEquals(
                original.records(MAX).getFirst().headers(),
                rewritten.records(MAX).getFirst().headers());
    }
}
