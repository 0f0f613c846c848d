package io.krabka.kernel.tiered;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.Record;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentState;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Copies racing appends, rolls and local retention on other threads: every record appended before the last roll
 * ends up in the remote tier once, in order, whole, and local retention never deletes a segment before its copy.
 */
class RemoteLogManagerConcurrencyTest {

    private static final int BATCHES = 300;
    private static final int RECORDS_PER_BATCH = 5;

    @TempDir
    Path dir;

    private TieredBroker broker;

    @AfterEach
    void close() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void copiesRaceAppendsRollsAndLocalRetentionWithoutLosingOrRepeatingARecord() throws Exception {
        broker = new TieredBroker(dir);
        TopicIdPartition tp =
                broker.topic("orders", Map.of("remote.storage.enable", "true", "local.retention.bytes", "0"));
        UnifiedLog log = broker.log(tp);
        CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> {
            try {
                for (int i = 1; i <= BATCHES; i++) {
                    broker.append(tp, RECORDS_PER_BATCH);
                    if (i % 3 == 0) {
                        log.roll();
                    }
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        CompletableFuture<Void> retention = CompletableFuture.runAsync(() -> {
            while (!producer.isDone()) {
                broker.logManager.cleanupLogs();
            }
        });

        long lastRolledOffset = (long) BATCHES * RECORDS_PER_BATCH - 1;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (log.highestOffsetInRemoteStorage() < lastRolledOffset && System.nanoTime() < deadline) {
            broker.runTasks();
        }
        producer.get(10, TimeUnit.SECONDS);
        retention.get(10, TimeUnit.SECONDS);
        broker.logManager.cleanupLogs();

        assertEquals(lastRolledOffset, log.highestOffsetInRemoteStorage());
        assertEquals(0, log.logStartOffset());
        assertEquals(lastRolledOffset + 1, log.localLogStartOffset(), "only the empty active segment is local");
        assertEquals(0, broker.metrics().totalCount(RemoteLogManagerMetrics.Counter.REMOTE_COPY_ERRORS));
        long next = 0;
        for (RemoteLogSegmentMetadata segment : broker.remoteSegments(tp)) {
            assertEquals(RemoteLogSegmentState.COPY_SEGMENT_FINISHED, segment.state());
            assertEquals(next, segment.startOffset());
            byte[] bytes;
            try (InputStream in = broker.rsm.fetchLogSegment(segment, 0)) {
                bytes = in.readAllBytes();
            }
            assertEquals(segment.segmentSizeInBytes(), bytes.length);
            for (LogBatch batch : MemoryRecords.readableRecords(ByteBuffer.wrap(bytes), "remote", 0)) {
                batch.ensureValid();
                for (Record record : batch.records(1 << 20)) {
                    assertEquals(next, record.offset());
                    String value = StandardCharsets.UTF_8.decode(record.value()).toString();
                    assertTrue(value.startsWith("value-" + (next - next % RECORDS_PER_BATCH) + "-"), value);
                    next++;
                }
            }
            assertEquals(segment.endOffset() + 1, next);
        }
        assertEquals(lastRolledOffset + 1, next, "every record, once, in order");
    }
}
