package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Readers without a lock while one writer appends: every read is whole, valid batches with contiguous offsets. */
class LogSegmentConcurrencyTest {

    private static final int BATCHES = 3_000;
    private static final int READERS = 3;

    @Test
    void readersNeverSeeAPartialBatchWhileTheWriterAppends(@TempDir Path dir) throws Exception {
        List<ByteBuffer> batches = new ArrayList<>();
        Random random = new Random(3);
        long offset = 0;
        for (int n = 0; n < BATCHES; n++) {
            int count = 1 + random.nextInt(20);
            Compression codec = n % 4 == 0 ? Compression.of(CompressionType.LZ4) : Compression.NONE;
            batches.add(TestBatches.batch(codec, offset, count, TestBatches.T0 + n, 0));
            offset += count;
        }
        long endOffset = offset;
        try (LogSegment segment =
                        LogSegment.open(dir, 0, new SegmentConfig(1 << 20, 1024, 0), new TestTime(), 0, false);
                ExecutorService readers = Executors.newFixedThreadPool(READERS)) {
            AtomicBoolean writing = new AtomicBoolean(true);
            List<Future<Integer>> checks = new ArrayList<>();
            for (int r = 0; r < READERS; r++) {
                long seed = r;
                checks.add(readers.submit(() -> read(segment, writing, endOffset, seed)));
            }
            int n = 0;
            while (n < BATCHES) {
                // Single batches, as a leader appends, and runs of batches, as a follower does.
                int run = n % 50 == 0 ? Math.min(10, BATCHES - n) : 1;
                ByteBuffer[] appended = batches.subList(n, n + run).toArray(ByteBuffer[]::new);
                MemoryRecords records = TestBatches.records(appended);
                long last = -1;
                for (LogBatch b : records) {
                    last = b.lastOffset();
                }
                segment.append(last, records);
                n += run;
            }
            writing.set(false);
            for (Future<Integer> check : checks) {
                assertTrue(check.get() > 0);
            }
            assertEquals(endOffset, segment.readNextOffset());
        }
    }

    /** Reads at random offsets until the writer is done; returns the number of non-empty reads checked. */
    private static int read(LogSegment segment, AtomicBoolean writing, long endOffset, long seed) throws Exception {
        Random random = new Random(seed);
        int checked = 0;
        long lastNextOffset = 0;
        while (writing.get() || checked == 0) {
            long target = (long) (random.nextDouble() * endOffset);
            var read = segment.read(target, Integer.MAX_VALUE);
            if (read.isPresent()) {
                FetchDataInfo info = read.get();
                ByteBuffer bytes = checked % 2 == 0 ? readInto(info.records()) : transfer(info.records());
                MemoryRecords records = MemoryRecords.readableRecords(bytes, "read at " + target, 0);
                assertEquals(bytes.limit(), records.validBytes(), "a read ended inside a batch");
                long expectedBase = -1;
                for (LogBatch batch : records) {
                    batch.ensureValid();
                    if (expectedBase < 0) {
                        assertEquals(
                                info.fetchOffsetMetadata().messageOffset(),
                                ((io.krabka.kernel.record.RecordBatch) batch).baseOffset());
                        assertTrue(batch.lastOffset() >= target);
                    } else {
                        assertEquals(expectedBase, ((io.krabka.kernel.record.RecordBatch) batch).baseOffset());
                    }
                    expectedBase = batch.lastOffset() + 1;
                }
                checked++;
            }
            long nextOffset = segment.readNextOffset();
            assertTrue(nextOffset >= lastNextOffset, "the next offset went back");
            lastNextOffset = nextOffset;
        }
        return checked;
    }

    private static ByteBuffer readInto(FetchRecords records) throws Exception {
        ByteBuffer buffer = ByteBuffer.allocate(records.sizeInBytes());
        records.readInto(buffer, 0);
        return buffer.flip();
    }

    private static ByteBuffer transfer(FetchRecords records) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (WritableByteChannel channel = Channels.newChannel(out)) {
            long sent = 0;
            while (sent < records.sizeInBytes()) {
                sent += records.transferTo(channel, sent, records.sizeInBytes() - sent);
            }
        }
        return ByteBuffer.wrap(out.toByteArray());
    }
}
