package io.krabka.kernel.restore.bound;

import static io.krabka.kernel.restore.bound.Bounds.flags;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.EndTransactionMarker;
import io.krabka.kernel.record.Header;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bound over batches as the log engine encodes and decodes them, compressed, with binary keys and headers. */
class EncodedBatchTest {

    private static final long MAX_DECOMPRESSED = 1 << 20;

    @Test
    void headerIsReadFromTheBatch() {
        RecordBatch batch = batch(new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 40)
                .producer(9, (short) 0, 0)
                .append(1_000, new byte[] {1}, null)
                .append(3_000, new byte[] {2}, null)
                .append(2_000, new byte[] {3}, null));
        BatchHeader header = BatchHeader.of(Bounds.T0, batch);
        assertEquals(new BatchHeader(Bounds.T0, 40, 42, 3_000, TimestampType.CREATE_TIME, 9, false), header);
    }

    @Test
    void markerHeaderIsAControlBatch() {
        RecordBatch marker = batch(new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 7)
                .producer(9, (short) 0, RecordBatch.NO_SEQUENCE)
                .appendEndTxnMarker(5_000, new EndTransactionMarker(ControlRecordType.COMMIT, 0)));
        assertTrue(BatchHeader.of(Bounds.T0, marker).control());
    }

    @Test
    void decodedRecordsOfACompressedBatchAreFilteredOnTheirRawBytes() throws Exception {
        RecordBatch batch =
                batch(new RecordBatchBuilder(Compression.of(CompressionType.ZSTD), TimestampType.CREATE_TIME, 100)
                        .append(1_000, ByteBuffer.wrap(new byte[] {(byte) 0xC3, 0x28}), null, List.of())
                        .append(
                                1_001,
                                ByteBuffer.wrap("plain".getBytes(StandardCharsets.US_ASCII)),
                                null,
                                List.of(Header.of("origin", new byte[] {(byte) 0x80, 0x01})))
                        .append(1_002, null, null, List.of())
                        .append(2_000, null, null, List.of())
                        .append(1_003, null, null, List.of()));
        RestoreBounds bounds = flags().toTimestamp("2000")
                .excludeKey("^\\xC3\\x28\\z")
                .excludeHeader("origin=^\\x80")
                .build();
        BatchHeader header = BatchHeader.of(Bounds.T0, batch);
        assertEquals(BatchDecision.FILTER, bounds.decide(header));
        List<Record> records = batch.records(MAX_DECOMPRESSED);
        List<RecordDecision> decisions =
                records.stream().map(record -> bounds.decide(header, record)).toList();
        assertEquals(
                List.of(
                        RecordDecision.EXCLUDED,
                        RecordDecision.EXCLUDED,
                        RecordDecision.KEEP,
                        RecordDecision.BEYOND_CUT,
                        RecordDecision.KEEP),
                decisions,
                "each record is decided alone; the driver ends the partition at the first beyond the cut");
        assertFalse(bounds.isComplete(Bounds.T0, 105));
    }

    private static RecordBatch batch(RecordBatchBuilder builder) {
        ByteBuffer bytes = builder.build();
        return RecordBatch.at(bytes, 0, "test", 0);
    }
}
