package io.krabka.kernel.log;

import static io.krabka.kernel.log.LogFixture.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import io.krabka.kernel.scheduler.KafkaScheduler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers without a lock while one writer appends and rolls and retention deletes segments whose files are removed
 * at once: every read gives whole, valid batches holding the records appended at those offsets, or fails cleanly
 * (the offset is gone, or the file of a deleted segment was closed under the slice); never partial or wrong bytes.
 */
class UnifiedLogConcurrencyTest {

    private static final int BATCHES = 4_000;
    private static final int READERS = 3;

    @Test
    void readersSeeWholeBatchesOrFailCleanlyDuringAppendsRollsAndRetention(@TempDir Path logDir) throws Exception {
        LogConfig config = config(
                "internal.segment.bytes",
                4096,
                "retention.bytes",
                16_384L,
                "file.delete.delay.ms",
                0L,
                "index.interval.bytes",
                512);
        KafkaScheduler scheduler = new KafkaScheduler(2, "concurrency-test-");
        Map<Long, String> expected = new ConcurrentHashMap<>();
        UnifiedLog log = UnifiedLog.create(
                logDir.resolve("test-0"),
                config,
                0,
                0,
                scheduler,
                InstantSource.system(),
                60_000,
                ProducerStateManagerConfig.defaults(),
                600_000,
                true,
                Optional.empty());
        try (ExecutorService threads = Executors.newFixedThreadPool(READERS + 1)) {
            AtomicBoolean writing = new AtomicBoolean(true);
            List<Future<int[]>> readers = new ArrayList<>();
            for (int r = 0; r < READERS; r++) {
                long seed = r;
                readers.add(threads.submit(() -> read(log, expected, writing, seed)));
            }
            Future<Integer> retention = threads.submit(() -> {
                int deleted = 0;
                while (writing.get()) {
                    deleted += log.deleteOldSegments();
                }
                return deleted;
            });
            Random random = new Random(1);
            try {
                for (int n = 0; n < BATCHES; n++) {
                    int count = 1 + random.nextInt(8);
                    Compression codec = n % 5 == 0 ? Compression.of(CompressionType.LZ4) : Compression.NONE;
                    RecordBatchBuilder builder = new RecordBatchBuilder(codec, TimestampType.CREATE_TIME, 0);
                    List<String> values = new ArrayList<>();
                    for (int i = 0; i < count; i++) {
                        values.add("batch-" + n + "-record-" + i + "-" + "x".repeat(random.nextInt(60)));
                        builder.append(
                                System.currentTimeMillis(),
                                null,
                                values.getLast().getBytes(StandardCharsets.UTF_8));
                    }
                    LogAppendInfo info = log.appendAsLeader(MemoryRecords.readableRecords(builder.build(), "t", 0), 0);
                    for (int i = 0; i < count; i++) {
                        expected.put(info.firstOffset() + i, values.get(i));
                    }
                    log.updateHighWatermark(log.logEndOffset());
                }
            } finally {
                // A failed append must stop the readers and retention too: closing the pool waits for them.
                writing.set(false);
            }
            int deleted = retention.get();
            int reads = 0;
            int cleanFailures = 0;
            for (Future<int[]> reader : readers) {
                reads += reader.get()[0];
                cleanFailures += reader.get()[1];
            }
            assertTrue(deleted > 10, "segments deleted by retention: " + deleted);
            assertTrue(reads > 1000, "whole reads: " + reads + ", clean failures: " + cleanFailures);
        } finally {
            log.closeHandlers();
            scheduler.shutdown();
        }
    }

    /** Reads at random offsets until the writer is done; returns the reads checked and the clean failures. */
    private static int[] read(UnifiedLog log, Map<Long, String> expected, AtomicBoolean writing, long seed)
            throws IOException {
        Random random = new Random(seed);
        int reads = 0;
        int failures = 0;
        while (writing.get()) {
            long start = log.logStartOffset();
            long end = log.highWatermark();
            if (end <= start) {
                continue;
            }
            long offset = start + (long) (random.nextDouble() * (end - start));
            ByteBuffer bytes;
            int maxLength = 1 + random.nextInt(3000);
            try {
                FetchDataInfo info = log.read(offset, maxLength, FetchIsolation.HIGH_WATERMARK, random.nextBoolean());
                bytes = reads % 2 == 0 ? readInto(info) : transfer(info);
            } catch (OffsetOutOfRangeException | IOException e) {
                // The offset's segment was deleted while it was read: gone, never garbage.
                assertTrue(offset < log.logStartOffset() || e instanceof IOException, e.toString());
                failures++;
                continue;
            }
            check(bytes, offset, maxLength, expected);
            reads++;
        }
        return new int[] {reads, failures};
    }

    private static ByteBuffer readInto(FetchDataInfo info) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(info.records().sizeInBytes());
        info.records().readInto(bytes, 0);
        return bytes.flip();
    }

    private static ByteBuffer transfer(FetchDataInfo info) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (WritableByteChannel channel = Channels.newChannel(out)) {
            long position = 0;
            while (position < info.records().sizeInBytes()) {
                position += info.records()
                        .transferTo(channel, position, info.records().sizeInBytes() - position);
            }
        }
        return ByteBuffer.wrap(out.toByteArray());
    }

    // Whole batches, then, only where maxLength cut the read as Kafka does, the start of the next batch.
    private static void check(ByteBuffer bytes, long offset, int maxLength, Map<Long, String> expected) {
        MemoryRecords records = MemoryRecords.readableRecords(bytes, "read at " + offset, 0);
        int whole = records.validBytes();
        if (whole < bytes.limit()) {
            assertEquals(maxLength, bytes.limit(), "a read ended inside a batch short of its maximum length");
        }
        long next = -1;
        for (LogBatch batch : records) {
            batch.ensureValid();
            RecordBatch v2 = (RecordBatch) batch;
            if (next < 0) {
                assertTrue(v2.baseOffset() <= offset && offset <= v2.lastOffset(), "batch of offset " + offset);
            } else {
                assertEquals(next, v2.baseOffset(), "batches follow each other");
            }
            for (Record record : batch.records(1 << 20)) {
                assertEquals(
                        expected.get(record.offset()),
                        StandardCharsets.UTF_8.decode(record.value()).toString());
            }
            next = batch.nextOffset();
        }
        if (whole + Long.BYTES <= bytes.limit()) {
            long partial = bytes.getLong(whole);
            assertEquals(next < 0 ? partial : next, partial, "the cut batch follows the whole ones");
            assertTrue((expected.containsKey(partial) && partial <= offset) || next >= 0, "the cut batch's offset");
        }
    }
}
