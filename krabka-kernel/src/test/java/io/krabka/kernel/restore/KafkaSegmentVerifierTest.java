package io.krabka.kernel.restore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.apache.kafka.storage.internals.log.LogSegment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Kafka 4.4 judges the scan: its own record builder makes the batches (every codec, an idempotent and a
 * transactional producer, markers) and its own {@code LogSegment} writes the {@code .log}; the verifier must give
 * the answers Kafka gives for the same file.
 */
class KafkaSegmentVerifierTest {

    private static final long BASE = 5_000;
    private static final long T0 = TestSegment.T0;
    private static final long PID = 31;
    private static final long TXN_PID = 32;
    private static final short EPOCH = 6;

    @TempDir
    Path dir;

    private static List<MemoryRecords> kafkaBatches() {
        Compression[] codecs = {
            Compression.NONE,
            Compression.gzip().build(),
            Compression.snappy().build(),
            Compression.lz4().build(),
            Compression.zstd().build()
        };
        Random random = new Random(11);
        List<MemoryRecords> batches = new ArrayList<>();
        long offset = BASE;
        int sequence = 0;
        int txnSequence = 0;
        for (int n = 0; n < 30; n++) {
            long timestamp = T0 + 100L * n - random.nextInt(300);
            if (n % 7 == 6) {
                ControlRecordType type = n % 14 == 6 ? ControlRecordType.COMMIT : ControlRecordType.ABORT;
                batches.add(MemoryRecords.withEndTransactionMarker(
                        offset, timestamp, n / 10, TXN_PID, EPOCH, new EndTransactionMarker(type, 2)));
                offset++;
                continue;
            }
            boolean transactional = n % 7 >= 4;
            long producerId = transactional ? TXN_PID : n % 2 == 0 ? PID : RecordBatch.NO_PRODUCER_ID;
            int baseSequence =
                    producerId == PID ? sequence : producerId == TXN_PID ? txnSequence : RecordBatch.NO_SEQUENCE;
            int count = 1 + random.nextInt(15);
            MemoryRecordsBuilder builder = MemoryRecords.builder(
                    ByteBuffer.allocate(64),
                    RecordBatch.MAGIC_VALUE_V2,
                    codecs[n % codecs.length],
                    TimestampType.CREATE_TIME,
                    offset,
                    RecordBatch.NO_TIMESTAMP,
                    producerId,
                    producerId < 0 ? RecordBatch.NO_PRODUCER_EPOCH : EPOCH,
                    baseSequence,
                    transactional,
                    n / 10);
            for (int i = 0; i < count; i++) {
                byte[] value = new byte[20 + random.nextInt(300)];
                random.nextBytes(value);
                builder.appendWithOffset(
                        offset + i, timestamp + random.nextInt(50), ("k" + i).getBytes(StandardCharsets.UTF_8), value);
            }
            batches.add(builder.build());
            if (producerId == PID) {
                sequence += count;
            } else if (producerId == TXN_PID) {
                txnSequence += count;
            }
            // A gap now and then, as compaction leaves.
            offset += count + (n % 5 == 4 ? 3 : 0);
        }
        return batches;
    }

    @Test
    void aSegmentWrittenByKafkaVerifiesWithKafkasAnswers() throws IOException, RestoreIntegrityException {
        LogSegment kafka =
                LogSegment.open(dir.toFile(), BASE, new LogConfig(Map.of()), Time.SYSTEM, false, 0, false, "");
        List<VerifiedBatch> expected = new ArrayList<>();
        long nextOffset;
        long maxTimestamp;
        try {
            for (MemoryRecords batch : kafkaBatches()) {
                RecordBatch header = batch.batches().iterator().next();
                kafka.append(header.lastOffset(), batch);
            }
            kafka.onBecomeInactiveSegment();
            nextOffset = kafka.readNextOffset();
            maxTimestamp = kafka.maxTimestampSoFar();
            kafka.log()
                    .batches()
                    .forEach(b -> expected.add(new VerifiedBatch(
                            b.position(),
                            b.sizeInBytes(),
                            b.baseOffset(),
                            b.lastOffset(),
                            b.countOrNull(),
                            b.maxTimestamp(),
                            b.partitionLeaderEpoch(),
                            b.producerId(),
                            b.producerEpoch(),
                            b.baseSequence(),
                            b.lastSequence(),
                            b.isTransactional(),
                            b.isControlBatch())));
        } finally {
            kafka.close();
        }

        Path log = dir.resolve("00000000000000005000.log");
        List<VerifiedBatch> visited = new ArrayList<>();
        VerifiedSegment result;
        try (InputStream in = Files.newInputStream(log)) {
            result = new SegmentVerifier()
                    .verify(
                            new SegmentObject("t-0/" + log.getFileName(), OptionalLong.of(Files.size(log)), BASE),
                            in,
                            (batch, bytes) -> visited.add(batch));
        }

        assertEquals(expected, visited);
        assertEquals(
                new VerifiedSegment(
                        "t-0/" + log.getFileName(),
                        30,
                        expected.stream().mapToLong(VerifiedBatch::recordCount).sum(),
                        OptionalLong.of(BASE),
                        OptionalLong.of(nextOffset - 1),
                        maxTimestamp,
                        Files.size(log)),
                result);
    }

    @Test
    void aLegacyMessageSetKafkaWroteIsRefusedForItsMagic() {
        // One small uncompressed magic 1 message: shorter than a magic 2 header, refused for its magic, not its length.
        MemoryRecordsBuilder builder = MemoryRecords.builder(
                ByteBuffer.allocate(64), RecordBatch.MAGIC_VALUE_V1, Compression.NONE, TimestampType.CREATE_TIME, BASE);
        builder.append(T0, "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
        ByteBuffer legacy = builder.build().buffer();
        byte[] bytes = new byte[legacy.remaining()];
        legacy.get(bytes);
        assertTrue(bytes.length < io.krabka.kernel.record.RecordBatch.RECORD_BATCH_OVERHEAD);
        CorruptBatchException e = assertThrows(
                CorruptBatchException.class,
                () -> new SegmentVerifier()
                        .verify(
                                new SegmentObject("t-0/legacy.log", OptionalLong.of(bytes.length), BASE),
                                new ByteArrayInputStream(bytes),
                                (batch, view) -> {}));
        assertEquals(CorruptBatchException.Reason.LEGACY_MAGIC, e.reason());
        assertEquals(0, e.position());
    }
}
