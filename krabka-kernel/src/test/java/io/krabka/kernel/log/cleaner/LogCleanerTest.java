package io.krabka.kernel.log.cleaner;

import static io.krabka.kernel.log.cleaner.CleanerLogs.append;
import static io.krabka.kernel.log.cleaner.CleanerLogs.compacted;
import static io.krabka.kernel.log.cleaner.CleanerLogs.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.LogStartOffsetIncrementReason;
import io.krabka.kernel.log.MetaPropertiesEnsemble;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.checkpoint.OffsetCheckpointFile;
import io.krabka.kernel.log.cleaner.CleanerLogs.Entry;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.plugin.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cleaner threads at work under a log manager: what they clean, checkpoint and delete, and their failures. */
class LogCleanerTest {

    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);
    private static final Duration BOUND = Duration.ofSeconds(60);

    @TempDir
    Path root;

    private Path dir;
    private CleanerLogs logs;
    private LogManager manager;

    @BeforeEach
    void format() throws IOException {
        dir = root.resolve("data").toAbsolutePath();
        MetaPropertiesEnsemble.format(List.of(dir), "cluster-0123456789", 1);
        logs = new CleanerLogs(dir);
    }

    @AfterEach
    void shutdown() throws IOException {
        if (manager != null) {
            manager.close();
        }
    }

    private LogManager start(Map<String, String> cleanerProps) throws IOException {
        Map<String, String> props = new HashMap<>(Map.of(
                "log.dirs",
                dir.toString(),
                "node.id",
                "1",
                "log.cleaner.backoff.ms",
                "10",
                "log.cleaner.dedupe.buffer.size",
                String.valueOf(4 * 1024 * 1024)));
        props.putAll(cleanerProps);
        manager = new LogManager(LogManagerConfig.fromProps(props), topic -> compacted(), logs.scheduler, logs.time);
        manager.startup();
        return manager;
    }

    private UnifiedLog orders(LogConfig config) throws IOException {
        return manager.getOrCreateLog(ORDERS, Optional.empty(), config);
    }

    /** Rounds of overwritten keys, a segment each, then the active segment; returns what a cleaning keeps. */
    private List<Entry> fill(UnifiedLog log) throws IOException {
        Map<String, Entry> latest = new HashMap<>();
        for (int round = 0; round < 4; round++) {
            for (int key = 0; key < 10; key++) {
                long offset = log.logEndOffset();
                append(log, logs.keyed("k" + key, "v" + round));
                latest.put("k" + key, new Entry(offset, "k" + key, "v" + round));
            }
            log.roll();
        }
        append(log, logs.keyed("k0", "active"));
        List<Entry> kept = new ArrayList<>(latest.values());
        kept.add(new Entry(log.logEndOffset() - 1, "k0", "active"));
        kept.sort((a, b) -> Long.compare(a.offset(), b.offset()));
        return kept;
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + BOUND + ": " + what);
            }
            Thread.sleep(10);
        }
    }

    private long checkpointOf(TopicPartition topicPartition) {
        return manager.cleaner().orElseThrow().allCleanerCheckpoints().getOrDefault(topicPartition, -1L);
    }

    @Test
    void aThreadCleansACompactedTopicAndCheckpointsHowFar() throws Exception {
        start(Map.of());
        UnifiedLog log = orders(compacted("min.cleanable.dirty.ratio", 0.01));
        List<Entry> kept = fill(log);
        long activeBase = log.activeSegment().baseOffset();

        await("the log cleaned up to its active segment", () -> checkpointOf(ORDERS) == activeBase);

        assertEquals(kept, read(log));
        assertEquals(
                Map.of(ORDERS, activeBase), new OffsetCheckpointFile(dir.resolve("cleaner-offset-checkpoint")).read());
        LogCleaner cleaner = manager.cleaner().orElseThrow();
        assertEquals(0, cleaner.deadThreadCount());
        assertEquals(1, cleaner.cleanerCount());
        int recopy = cleaner.cleanerRecopyPercent();
        assertTrue(recopy > 0 && recopy < 100, "the last cleaning dropped records: " + recopy + "%");
    }

    @Test
    void deletingAPartitionDropsItsCheckpoint() throws Exception {
        start(Map.of());
        UnifiedLog log = orders(compacted("min.cleanable.dirty.ratio", 0.01));
        fill(log);
        long activeBase = log.activeSegment().baseOffset();
        await("the log cleaned", () -> checkpointOf(ORDERS) == activeBase);

        manager.deleteLog(ORDERS);

        assertEquals(Map.of(), new OffsetCheckpointFile(dir.resolve("cleaner-offset-checkpoint")).read());
        assertEquals(Map.of(), manager.cleaner().orElseThrow().allCleanerCheckpoints());
    }

    @Test
    void theThreadsDeleteTheOldSegmentsOfCompactedTopics() throws Exception {
        start(Map.of());
        UnifiedLog both = manager.getOrCreateLog(
                new TopicPartition("both", 0),
                Optional.empty(),
                compacted(
                        "cleanup.policy", "compact,delete", "retention.ms", 1_000L, "min.cleanable.dirty.ratio", 1.0));
        UnifiedLog compactOnly = orders(compacted("min.cleanable.dirty.ratio", 1.0));
        for (UnifiedLog log : List.of(both, compactOnly)) {
            append(log, logs.keyed("k1", "old"));
            log.roll();
        }
        logs.time.sleep(2_000);
        for (UnifiedLog log : List.of(both, compactOnly)) {
            append(log, logs.keyed("k2", "new"));
        }
        // DeleteRecords moves the compacted topic's start past its first segment.
        compactOnly.maybeIncrementLogStartOffset(1, LogStartOffsetIncrementReason.CLIENT_RECORD_DELETION);

        await("retention of compact,delete", () -> both.logStartOffset() == 1 && both.numberOfSegments() == 1);
        await("the segment below the start of a compacted topic", () -> compactOnly.numberOfSegments() == 1);
        assertEquals(List.of(new Entry(1, "k2", "new")), read(both));
    }

    @Test
    void aDiskFailureWhileCleaningTakesTheDirectoryOfflineAndTheThreadGoesOn() throws Exception {
        start(Map.of());
        UnifiedLog log = orders(compacted("min.cleanable.dirty.ratio", 1.0));
        fill(log);
        // The swap's first rename fails, as on a failing disk.
        Files.createDirectories(
                log.dir().resolve("00000000000000000000.log.swap").resolve("in-the-way"));
        manager.updateTopicConfig(ORDERS.topic(), compacted("min.cleanable.dirty.ratio", 0.01));

        await(
                "the directory reported offline",
                () -> manager.logDirFailureChannel().hasOfflineLogDir(dir));
        manager.handleLogDirFailure(dir);

        assertEquals(0, manager.cleaner().orElseThrow().deadThreadCount(), "the broker and the thread go on");
        assertTrue(manager.isOffline(ORDERS));
    }

    @Test
    void reconfigurationReplacesTheThreadsWithinKafkasBounds() throws Exception {
        start(Map.of("log.cleaner.threads", "2"));
        LogCleaner cleaner = manager.cleaner().orElseThrow();
        CleanerConfig four = CleanerConfig.fromProps(Map.of(
                "log.cleaner.threads",
                "4",
                "log.cleaner.dedupe.buffer.size",
                String.valueOf(8 * 1024 * 1024),
                "log.cleaner.backoff.ms",
                "10"));
        cleaner.reconfigure(four);
        assertEquals(4, cleaner.cleanerCount());
        assertEquals(four, cleaner.currentConfig());
        CleanerConfig nine = CleanerConfig.fromProps(
                Map.of("log.cleaner.threads", "9", "log.cleaner.dedupe.buffer.size", String.valueOf(64 * 1024 * 1024)));
        ConfigException tooMany = assertThrows(ConfigException.class, () -> cleaner.reconfigure(nine));
        assertTrue(tooMany.getMessage().contains("more than double the current value 4"), tooMany.getMessage());
        CleanerConfig one = CleanerConfig.fromProps(Map.of("log.cleaner.threads", "1"));
        assertThrows(ConfigException.class, () -> cleaner.validateReconfiguration(one));
        assertEquals(4, cleaner.cleanerCount(), "a refused change changes nothing");

        UnifiedLog log = orders(compacted("min.cleanable.dirty.ratio", 0.01));
        List<Entry> kept = fill(log);
        long activeBase = log.activeSegment().baseOffset();
        await("the new threads clean", () -> checkpointOf(ORDERS) == activeBase);
        assertEquals(kept, read(log));
    }

    @Test
    void withoutTheCleanerACompactedTopicKeepsEverySegment() throws Exception {
        start(Map.of("log.cleaner.enable", "false"));
        assertFalse(manager.cleaner().isPresent());
        UnifiedLog log = orders(compacted("cleanup.policy", "compact,delete", "retention.ms", 1_000L));
        append(log, logs.keyed("k1", "old"));
        log.roll();
        append(log, logs.keyed("k1", "new"));
        logs.time.sleep(2_000);

        manager.cleanupLogs();

        assertEquals(2, log.numberOfSegments(), "as in Kafka, retention leaves compacted topics to the cleaner");
        assertFalse(Files.exists(dir.resolve("cleaner-offset-checkpoint")));
    }

    @Test
    void theBrokerRefusesCleanerSettingsKafkaRefuses() {
        assertThrows(
                ConfigException.class,
                () -> CleanerConfig.fromProps(Map.of("log.cleaner.dedupe.buffer.size", String.valueOf(1024 * 1024))));
        assertThrows(
                ConfigException.class,
                () -> CleanerConfig.fromProps(Map.of(
                        "log.cleaner.threads",
                        "4",
                        "log.cleaner.dedupe.buffer.size",
                        String.valueOf(4 * 1024 * 1024))));
        assertThrows(ConfigException.class, () -> CleanerConfig.fromProps(Map.of("log.cleaner.threads", "0")));
        assertThrows(ConfigException.class, () -> CleanerConfig.fromProps(Map.of("log.cleaner.backoff.ms", "-1")));
        assertThrows(ConfigException.class, () -> CleanerConfig.fromProps(Map.of("log.cleaner.io.buffer.size", "-1")));
        assertThrows(ConfigException.class, () -> CleanerConfig.fromProps(Map.of("log.cleaner.enable", "sometimes")));
        CleanerConfig defaults = CleanerConfig.fromProps(Map.of());
        assertEquals(
                new CleanerConfig(
                        1, 128 * 1024 * 1024L, 0.9, 512 * 1024, 1024 * 1024 + 12, Double.MAX_VALUE, 15_000, true),
                defaults);
    }
}
