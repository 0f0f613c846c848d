package io.krabka.kernel.log.cleaner;

import static io.krabka.kernel.log.cleaner.CleanerLogs.append;
import static io.krabka.kernel.log.cleaner.CleanerLogs.compacted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.LogDirFailureChannel;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.checkpoint.OffsetCheckpointFile;
import io.krabka.kernel.log.cleaner.CleanableOffsets.OffsetsToClean;
import io.krabka.kernel.log.cleaner.LogCleaningState.LogCleaningAborted;
import io.krabka.kernel.log.cleaner.LogCleaningState.LogCleaningPaused;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.Compression;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which log is cleaned, from where to where, and the states that keep a cleaning and other work apart, on real logs
 * without cleaner threads.
 */
class LogCleanerManagerTest {

    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);

    @TempDir
    Path dir;

    private CleanerLogs logs;
    private final ConcurrentHashMap<TopicPartition, UnifiedLog> all = new ConcurrentHashMap<>();
    private LogCleanerManager manager;

    @BeforeEach
    void start() {
        logs = new CleanerLogs(dir);
        manager = new LogCleanerManager(List.of(dir), all, new LogDirFailureChannel(), logs.time.millis());
    }

    private UnifiedLog log(String name, LogConfig config) throws IOException {
        UnifiedLog log = logs.open(name, config);
        all.put(log.topicPartition(), log);
        return log;
    }

    /** Four segments of one batch each, then the active one. */
    private void fill(UnifiedLog log, int segments) throws IOException {
        for (int i = 0; i < segments; i++) {
            append(log, logs.keyed("k" + i, "v".repeat(100)));
            log.roll();
        }
        append(log, logs.keyed("active", "v"));
    }

    private LogToClean grab() {
        return manager.grabFilthiestCompactedLog(logs.time.millis(), new PreCleanStats())
                .orElseThrow();
    }

    @Test
    void theDirtiestLogPastItsRatioIsChosenAndCheckpointedWhenDone() throws IOException {
        UnifiedLog orders = log("orders-0", compacted("min.cleanable.dirty.ratio", 0.5));
        UnifiedLog plain = log("plain-0", compacted("cleanup.policy", "delete"));
        fill(orders, 4);
        fill(plain, 4);

        LogToClean chosen = grab();
        assertEquals(ORDERS, chosen.topicPartition());
        assertEquals(1.0, chosen.cleanableRatio(), "never cleaned: all dirty");
        assertEquals(4, chosen.firstUncleanableOffset(), "the active segment is not cleaned");
        assertTrue(
                manager.grabFilthiestCompactedLog(logs.time.millis(), new PreCleanStats())
                        .isEmpty(),
                "a log in progress is not chosen twice, and only compacted logs are chosen");
        manager.doneCleaning(orders, 4);
        assertEquals(Map.of(ORDERS, 4L), new OffsetCheckpointFile(dir.resolve("cleaner-offset-checkpoint")).read());

        // One new segment of five, a quarter of the bytes: below 0.5.
        append(orders, logs.keyed("k9", "v".repeat(100)));
        orders.roll();
        assertTrue(manager.grabFilthiestCompactedLog(logs.time.millis(), new PreCleanStats())
                .isEmpty());
        double ratio = manager.dirtiestLogCleanableRatio();
        assertTrue(ratio > 0.1 && ratio < 0.5, "max-dirty-percent: " + ratio);
        orders.updateConfig(compacted("min.cleanable.dirty.ratio", 0.1));
        assertEquals(4, grab().firstDirtyOffset(), "from the checkpoint on");
    }

    @Test
    void aLogLateForItsMaxCompactionLagIsCleanedWhateverItsRatio() throws IOException {
        UnifiedLog orders = log("orders-0", compacted("max.compaction.lag.ms", 60_000L));
        fill(orders, 4);
        manager.grabFilthiestCompactedLog(logs.time.millis(), new PreCleanStats());
        manager.doneCleaning(orders, 4);
        append(orders, logs.keyed("k9", "v"));
        orders.roll();
        PreCleanStats early = new PreCleanStats();
        assertTrue(manager.grabFilthiestCompactedLog(logs.time.millis(), early).isEmpty());

        logs.time.sleep(61_000);
        PreCleanStats late = new PreCleanStats();
        LogToClean chosen =
                manager.grabFilthiestCompactedLog(logs.time.millis(), late).orElseThrow();
        assertTrue(chosen.needCompactionNow());
        assertTrue(chosen.cleanableRatio() < 0.5);
        assertEquals(1_000, late.maxCompactionDelayMs, "a second past the lag");
        assertEquals(1, late.delayedPartitions);
    }

    @Test
    void theCleanableRangeEndsAtTheActiveSegmentTheLastStableOffsetAndTheMinimumLag() throws IOException {
        UnifiedLog orders = log("orders-0", compacted("min.compaction.lag.ms", 10_000L));
        append(orders, logs.keyed("k1", "a"));
        orders.roll();
        logs.time.sleep(20_000);
        append(orders, logs.keyed("k1", "b"));
        orders.roll();
        // An open transaction from offset 2 holds the last stable offset there.
        append(orders, logs.producerBatch(Compression.NONE, 5, (short) 0, 0, true, "k2", "open"));
        orders.roll();
        append(orders, logs.keyed("k3", "c"));
        long now = logs.time.millis();

        OffsetsToClean offsets = CleanableOffsets.cleanableOffsets(orders, Optional.empty(), now);
        assertEquals(0, offsets.firstDirtyOffset());
        assertEquals(1, offsets.firstUncleanableDirtyOffset(), "the segment newer than the minimum lag");

        logs.time.sleep(20_000);
        offsets = CleanableOffsets.cleanableOffsets(orders, Optional.empty(), logs.time.millis());
        assertEquals(2, offsets.firstUncleanableDirtyOffset(), "the last stable offset");
        logs.appendMarker(orders, 5, (short) 0, io.krabka.kernel.record.ControlRecordType.COMMIT);
        offsets = CleanableOffsets.cleanableOffsets(orders, Optional.empty(), logs.time.millis());
        assertEquals(3, offsets.firstUncleanableDirtyOffset(), "the active segment");
        orders.updateHighWatermark(1);
        offsets = CleanableOffsets.cleanableOffsets(orders, Optional.empty(), logs.time.millis());
        assertEquals(1, offsets.firstUncleanableDirtyOffset(), "the high watermark");
    }

    @Test
    void aCheckpointOutsideTheLogStartsTheCleaningAtTheLogStart() throws IOException {
        UnifiedLog orders = log("orders-0", compacted());
        fill(orders, 3);
        OffsetsToClean past = CleanableOffsets.cleanableOffsets(orders, Optional.of(99L), logs.time.millis());
        assertEquals(new OffsetsToClean(0, 3, true), past);
        OffsetsToClean within = CleanableOffsets.cleanableOffsets(orders, Optional.of(2L), logs.time.millis());
        assertEquals(new OffsetsToClean(2, 3, false), within);
    }

    @Test
    void aPausedLogIsNotCleanedUntilEveryPauseIsResumed() throws IOException {
        UnifiedLog orders = log("orders-0", compacted());
        fill(orders, 2);
        manager.abortAndPauseCleaning(ORDERS);
        manager.abortAndPauseCleaning(ORDERS);
        assertEquals(Optional.of(new LogCleaningPaused(2)), manager.cleaningState(ORDERS));
        assertTrue(manager.grabFilthiestCompactedLog(logs.time.millis(), new PreCleanStats())
                .isEmpty());
        manager.resumeCleaning(List.of(ORDERS));
        assertTrue(manager.grabFilthiestCompactedLog(logs.time.millis(), new PreCleanStats())
                .isEmpty());
        manager.resumeCleaning(List.of(ORDERS));
        assertEquals(ORDERS, grab().topicPartition());
        assertThrows(IllegalStateException.class, () -> manager.resumeCleaning(List.of(ORDERS)));
    }

    @Test
    void anAbortWaitsForTheCleaningToStopAndLeavesThePartitionPaused() throws Exception {
        UnifiedLog orders = log("orders-0", compacted());
        fill(orders, 2);
        grab();
        CountDownLatch aborted = new CountDownLatch(1);
        Thread aborting = Thread.ofPlatform().start(() -> {
            manager.abortAndPauseCleaning(ORDERS);
            aborted.countDown();
        });
        // The cleaning sees the abort at its next check, then ends.
        while (!(manager.cleaningState(ORDERS).orElseThrow() instanceof LogCleaningAborted)) {
            Thread.onSpinWait();
        }
        assertThrows(LogCleaningAbortedException.class, () -> manager.checkCleaningAborted(ORDERS));
        assertEquals(1, aborted.getCount(), "still waiting for the cleaning to end");
        manager.doneCleaning(orders, 2);
        assertTrue(aborted.await(60, TimeUnit.SECONDS));
        aborting.join();
        assertEquals(Optional.of(new LogCleaningPaused(1)), manager.cleaningState(ORDERS));
        assertEquals(Map.of(), manager.allCleanerCheckpoints(), "an aborted cleaning checkpoints nothing");
    }

    @Test
    void retentionPausesTheLogsThatAreNotCompactedAndTheCleanerHoldsTheOthers() throws IOException {
        UnifiedLog orders = log("orders-0", compacted());
        UnifiedLog plain = log("plain-0", compacted("cleanup.policy", "delete"));
        UnifiedLog both = log("both-0", compacted("cleanup.policy", "compact,delete"));
        assertEquals(List.of(plain), manager.pauseCleaningForNonCompactedPartitions());
        List<UnifiedLog> deletable = manager.deletableLogs();
        assertEquals(2, deletable.size());
        assertTrue(deletable.containsAll(List.of(orders, both)));
        assertTrue(manager.deletableLogs().isEmpty(), "each is held once");
        manager.doneDeleting(deletable);
        manager.resumeCleaning(List.of(plain.topicPartition()));
        assertEquals(Optional.empty(), manager.cleaningState(plain.topicPartition()));
        assertEquals(Optional.empty(), manager.cleaningState(ORDERS));
    }

    @Test
    void theCheckpointDropsPartitionsTheBrokerNoLongerHas() throws IOException {
        UnifiedLog orders = log("orders-0", compacted());
        UnifiedLog other = log("other-0", compacted());
        fill(orders, 1);
        fill(other, 1);
        grab();
        grab();
        manager.doneCleaning(orders, 1);
        manager.doneCleaning(other, 1);
        Path file = dir.resolve("cleaner-offset-checkpoint");
        assertEquals(Map.of(ORDERS, 1L, other.topicPartition(), 1L), new OffsetCheckpointFile(file).read());

        manager.updateCheckpoints(dir, Optional.of(other.topicPartition()));
        assertEquals(Map.of(ORDERS, 1L), new OffsetCheckpointFile(file).read());
        all.remove(ORDERS);
        manager.updateCheckpoints(dir, Optional.empty());
        assertEquals(Map.of(), new OffsetCheckpointFile(file).read());
        assertEquals(List.of("0", "0"), Files.readAllLines(file), "Kafka's version 0 and no entry");
    }

    @Test
    void theCheckpointIsReadAtStart() throws IOException {
        UnifiedLog orders = log("orders-0", compacted("min.cleanable.dirty.ratio", 0.01));
        fill(orders, 3);
        new OffsetCheckpointFile(dir.resolve("cleaner-offset-checkpoint")).write(Map.of(ORDERS, 2L));
        manager = new LogCleanerManager(List.of(dir), all, new LogDirFailureChannel(), logs.time.millis());
        assertEquals(2, grab().firstDirtyOffset());
    }

    @Test
    void anUncleanablePartitionIsLeftAloneUntilItGoes() throws IOException {
        UnifiedLog orders = log("orders-0", compacted());
        fill(orders, 2);
        manager.markPartitionUncleanable(dir, ORDERS);
        assertTrue(manager.grabFilthiestCompactedLog(logs.time.millis(), new PreCleanStats())
                .isEmpty());
        assertTrue(manager.deletableLogs().isEmpty());
        assertTrue(manager.uncleanableBytes(dir, logs.time.millis()) > 0);
        manager.maintainUncleanablePartitions();
        assertEquals(List.of(ORDERS), List.copyOf(manager.uncleanablePartitions(dir)));
        all.remove(ORDERS);
        manager.maintainUncleanablePartitions();
        assertFalse(manager.uncleanablePartitions(dir).contains(ORDERS));
    }
}
