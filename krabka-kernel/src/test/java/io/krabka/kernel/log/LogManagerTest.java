package io.krabka.kernel.log;

import static io.krabka.kernel.log.LogFixture.config;
import static io.krabka.kernel.log.LogFixture.values;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.checkpoint.CleanShutdownFile;
import io.krabka.kernel.log.checkpoint.MetaProperties;
import io.krabka.kernel.log.checkpoint.OffsetCheckpointFile;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.scheduler.MockScheduler;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.plugin.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka's LogManagerTest scenarios: directories, creation and deletion, checkpoints, shutdowns, periodic tasks. */
class LogManagerTest {

    private static final String CLUSTER = "cluster-0123456789";
    private static final TopicPartition T0 = new TopicPartition("orders", 0);
    private static final TopicPartition T1 = new TopicPartition("orders", 1);
    private static final TopicPartition SHORT = new TopicPartition("short-lived", 0);

    @TempDir
    Path root;

    List<Path> dirs;
    final TestTime time = new TestTime();
    final MockScheduler scheduler = new MockScheduler(time);
    final Map<String, LogConfig> topicConfigs = new HashMap<>();
    LogManager manager;

    @BeforeEach
    void format() throws IOException {
        dirs = List.of(root.resolve("data-1"), root.resolve("data-2"));
        MetaPropertiesEnsemble.format(dirs, CLUSTER, 1);
        topicConfigs.put("orders", config("internal.segment.bytes", 1000, "file.delete.delay.ms", 5_000L));
        topicConfigs.put(
                "short-lived",
                config(
                        "retention.ms",
                        10_000L,
                        "internal.segment.bytes",
                        300,
                        "flush.ms",
                        2_000L,
                        "file.delete.delay.ms",
                        0L));
    }

    @AfterEach
    void shutdown() throws IOException {
        if (manager != null) {
            manager.close();
        }
    }

    private LogManagerConfig managerConfig(List<Path> logDirs) {
        return LogManagerConfig.fromProps(Map.of(
                "log.dirs",
                String.join(",", logDirs.stream().map(Path::toString).toList()),
                "node.id",
                "1",
                "log.initial.task.delay.ms",
                "1000",
                "log.retention.check.interval.ms",
                "1000",
                "log.flush.scheduler.interval.ms",
                "1000",
                "log.flush.offset.checkpoint.interval.ms",
                "3000",
                "log.flush.start.offset.checkpoint.interval.ms",
                "3000",
                "replica.high.watermark.checkpoint.interval.ms",
                "3000",
                "log.segment.delete.delay.ms",
                "5000"));
    }

    private LogManager start(List<Path> logDirs) throws IOException {
        LogManager started = new LogManager(managerConfig(logDirs), topicConfigs::get, scheduler, time);
        started.startup();
        return started;
    }

    private UnifiedLog create(TopicPartition partition) throws IOException {
        return manager.getOrCreateLog(partition, Optional.of(Uuid.randomUuid()), topicConfigs.get(partition.topic()));
    }

    private static void appendAcked(UnifiedLog log, int batches) throws IOException {
        for (int n = 0; n < batches; n++) {
            log.appendAsLeader(LogFixture.records(TestBatches.T0 + n, "value-" + log.logEndOffset()), 0);
            log.updateHighWatermark(log.logEndOffset());
        }
    }

    private static Map<TopicPartition, Long> checkpoint(Path dir, String name) throws IOException {
        return new OffsetCheckpointFile(dir.resolve(name)).read();
    }

    private static List<String> children(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aFailedLogDirectoryHasItsLogsClosedUnwrittenAndTakesNoLogUntilTheNextStart() throws IOException {
        manager = start(dirs);
        UnifiedLog kept = create(T0);
        UnifiedLog lost = create(T1);
        assertNotEquals(kept.parentDir(), lost.parentDir(), "one log in each directory");
        appendAcked(kept, 3);
        appendAcked(lost, 3);
        Path failed = lost.parentDir();

        manager.handleLogDirFailure(failed);
        assertEquals(List.of(kept.parentDir()), manager.liveLogDirs());
        assertFalse(manager.isLogDirOnline(failed));
        assertTrue(manager.isOffline(T1));
        assertEquals(Optional.empty(), manager.getLog(T1));
        assertThrows(KafkaStorageException.class, () -> appendAcked(lost, 1), "its files are closed");
        assertThrows(KafkaStorageException.class, () -> create(T1), "never made again in the live directory");
        assertEquals(kept.parentDir(), create(SHORT).parentDir(), "a new log goes to the live directory");
        appendAcked(kept, 1);

        manager.close();
        manager = null;
        assertTrue(new CleanShutdownFile(kept.parentDir()).exists());
        assertFalse(new CleanShutdownFile(failed).exists(), "the failed directory is not written to");
        manager = start(dirs);
        assertEquals(3, manager.getLog(T1).orElseThrow().logEndOffset(), "recovered at the next start");
        assertEquals(4, manager.getLog(T0).orElseThrow().logEndOffset());
    }

    @Test
    void aLogWhoseCreationFailsIsOfflineAndNotMadeAgainInAnotherDirectory() throws IOException {
        manager = start(dirs);
        // Where the log's directory would go, a file: creating it fails with an I/O error, in either directory.
        for (Path dir : dirs) {
            Files.writeString(dir.resolve(T1.toString()), "in the way");
        }

        assertThrows(IOException.class, () -> create(T1));

        assertTrue(manager.isOffline(T1));
        assertThrows(KafkaStorageException.class, () -> create(T1), "not made again in the other directory");
        for (Path dir : dirs) {
            assertTrue(Files.isRegularFile(dir.resolve(T1.toString())), "nothing made in " + dir);
        }
    }

    @Test
    void theDirectoriesMustBeFormattedForOneClusterAndThisNode() throws IOException {
        Path unformatted = root.resolve("unformatted");
        Files.createDirectories(unformatted);
        assertThrows(
                MetaPropertiesException.class,
                () -> new LogManager(managerConfig(List.of(unformatted)), topicConfigs::get, scheduler, time));
        Path other = root.resolve("other-cluster");
        MetaPropertiesEnsemble.format(List.of(other), "another-cluster", 1);
        assertThrows(
                MetaPropertiesException.class,
                () -> new LogManager(managerConfig(List.of(dirs.get(0), other)), topicConfigs::get, scheduler, time));
        assertThrows(MetaPropertiesException.class, () -> MetaPropertiesEnsemble.verify(dirs, 2));
        assertThrows(MetaPropertiesException.class, () -> MetaPropertiesEnsemble.format(dirs, "another-cluster", 1));
        MetaProperties first = MetaProperties.read(dirs.get(0).resolve(MetaProperties.META_PROPERTIES_FILE_NAME));
        MetaProperties second = MetaProperties.read(dirs.get(1).resolve(MetaProperties.META_PROPERTIES_FILE_NAME));
        assertEquals(CLUSTER, first.clusterId());
        assertNotEquals(first.directoryId(), second.directoryId());
        manager = start(dirs);
        assertEquals(CLUSTER, manager.clusterId());
    }

    @Test
    void aDirectoryServesOneBrokerAtATime() throws IOException {
        manager = start(dirs);
        assertThrows(IOException.class, () -> new LogManager(managerConfig(dirs), topicConfigs::get, scheduler, time));
    }

    @Test
    void logsAreCreatedOnceInTheDirectoryWithTheFewest() throws IOException {
        manager = start(dirs);
        Uuid topicId = Uuid.randomUuid();
        UnifiedLog first = manager.getOrCreateLog(T0, Optional.of(topicId), topicConfigs.get("orders"));
        UnifiedLog second = manager.getOrCreateLog(T1, Optional.of(topicId), topicConfigs.get("orders"));
        assertNotEquals(first.dir().getParent(), second.dir().getParent());
        assertEquals("orders-0", first.dir().getFileName().toString());
        assertTrue(first == manager.getOrCreateLog(T0, Optional.of(topicId), topicConfigs.get("orders")));
        assertTrue(first == manager.getLog(T0).orElseThrow());
        assertEquals(topicId, first.partitionMetadataFile().read().topicId());
        assertThrows(
                InconsistentTopicIdException.class,
                () -> manager.getOrCreateLog(T0, Optional.of(Uuid.randomUuid()), topicConfigs.get("orders")));
        assertEquals(2, manager.allLogs().size());
        assertEquals(Optional.empty(), manager.getLog(SHORT));
    }

    @Test
    void aCleanShutdownWritesCheckpointsAndTheMarkerAndTheNextStartRecoversNothing() throws IOException {
        manager = start(dirs);
        UnifiedLog orders = create(T0);
        appendAcked(orders, 30);
        orders.maybeIncrementLogStartOffset(5, LogStartOffsetIncrementReason.CLIENT_RECORD_DELETION);
        List<String> written = values(orders);
        long end = orders.logEndOffset();
        Path dir = orders.dir().getParent();
        manager.close();
        manager = null;
        assertTrue(new CleanShutdownFile(dir).exists());
        assertEquals(Map.of(T0, end), checkpoint(dir, OffsetCheckpointFile.RECOVERY_POINT_CHECKPOINT_FILE));
        assertEquals(Map.of(T0, end), checkpoint(dir, OffsetCheckpointFile.REPLICATION_OFFSET_CHECKPOINT_FILE));
        assertEquals(Map.of(T0, 5L), checkpoint(dir, OffsetCheckpointFile.LOG_START_OFFSET_CHECKPOINT_FILE));

        manager = start(dirs);
        assertFalse(new CleanShutdownFile(dir).exists(), "the marker goes once the logs are loaded");
        UnifiedLog reopened = manager.getLog(T0).orElseThrow();
        assertEquals(List.of(), reopened.segmentsRecoveredAtLoad());
        assertEquals(end, reopened.highWatermark());
        assertEquals(5, reopened.logStartOffset());
        assertEquals(written, values(reopened));
    }

    @Test
    void aLogDirectoryMayHoldTheRemoteIndexCacheAndNothingElseButPartitionsAsInKafka() throws IOException {
        manager = start(dirs);
        UnifiedLog orders = create(T0);
        appendAcked(orders, 3);
        Path dir = orders.dir().getParent();
        manager.close();
        manager = null;
        Files.writeString(
                Files.createDirectories(dir.resolve("remote-log-index-cache")).resolve("kept"), "kept");
        manager = start(dirs);
        assertEquals(
                List.of(T0),
                manager.allLogs().stream().map(UnifiedLog::topicPartition).toList());
        assertEquals("kept", Files.readString(dir.resolve("remote-log-index-cache/kept")));
        manager.close();
        manager = null;
        // What an earlier Krabka kept here on its defaults: Kafka refuses it, and so does Krabka's log manager.
        Files.createDirectories(dir.resolve("kafka-tiered-storage"));
        Exception refused = assertThrows(Exception.class, () -> start(dirs));
        assertTrue(
                String.valueOf(refused.getMessage())
                        .contains("'kafka-tiered-storage' is not in the form of " + "topic-partition"),
                refused::toString);
    }

    @Test
    void afterACrashTheLogsRecoverFromTheCheckpointedRecoveryPoint() throws IOException {
        manager = start(dirs);
        UnifiedLog orders = create(T0);
        appendAcked(orders, 20);
        orders.flush(false);
        long flushed = orders.logEndOffset();
        scheduler.advance(3_000);
        assertEquals(
                Map.of(T0, flushed),
                checkpoint(orders.dir().getParent(), OffsetCheckpointFile.RECOVERY_POINT_CHECKPOINT_FILE));
        appendAcked(orders, 20);
        List<String> written = values(orders);
        // The files as a kill -9 leaves them: a copy while the broker runs.
        List<Path> copies = List.of(root.resolve("copy-1"), root.resolve("copy-2"));
        for (int n = 0; n < dirs.size(); n++) {
            LogLoaderCrashTest.copyDir(dirs.get(n), copies.get(n));
            Files.delete(copies.get(n).resolve(LogDirLocks.LOCK_FILE_NAME));
        }
        try (LogManager recovered = start(copies)) {
            UnifiedLog log = recovered.getLog(T0).orElseThrow();
            LogSegment holdingFlushed = log.logSegments().stream()
                    .filter(s -> s.baseOffset() <= flushed)
                    .reduce((a, b) -> b)
                    .orElseThrow();
            assertEquals(
                    holdingFlushed.baseOffset(), log.segmentsRecoveredAtLoad().getFirst());
            assertEquals(written, values(log));
            assertEquals(flushed, log.recoveryPoint());
        }
    }

    @Test
    void aDeletedLogsDirectoryIsRenamedAtOnceAndRemovedAfterTheDelay() throws IOException {
        manager = start(dirs);
        UnifiedLog orders = create(T0);
        appendAcked(orders, 5);
        create(T1);
        Path dir = orders.dir().getParent();
        assertEquals(Optional.of(orders), manager.deleteLog(T0));
        assertEquals(Optional.empty(), manager.getLog(T0));
        assertTrue(LogDirNames.isDeleteDir(orders.dir()));
        assertTrue(Files.exists(orders.dir()));
        assertFalse(checkpoint(dir, OffsetCheckpointFile.RECOVERY_POINT_CHECKPOINT_FILE)
                .containsKey(T0));
        scheduler.advance(1_000);
        assertTrue(Files.exists(orders.dir()), "not before log.segment.delete.delay.ms");
        scheduler.advance(4_000);
        assertFalse(Files.exists(orders.dir()));
        assertFalse(manager.hasLogsToBeDeleted());
        assertEquals(Optional.empty(), manager.deleteLog(T0));
    }

    @Test
    void aLogRenamedForDeletionBeforeAShutdownIsRemovedAfterTheRestart() throws IOException {
        manager = start(dirs);
        appendAcked(create(T0), 5);
        Path deleted = manager.deleteLog(T0).orElseThrow().dir();
        manager.close();
        manager = start(dirs);
        assertEquals(Optional.empty(), manager.getLog(T0));
        assertTrue(manager.hasLogsToBeDeleted());
        scheduler.advance(5_000);
        assertFalse(Files.exists(deleted));
    }

    @Test
    void periodicTasksApplyRetentionFlushMsAndCheckpoints() throws IOException {
        manager = start(dirs);
        UnifiedLog log = create(SHORT);
        for (int n = 0; n < 10; n++) {
            log.appendAsLeader(LogFixture.records(time.millis(), "record-" + n), 0);
            log.updateHighWatermark(log.logEndOffset());
        }
        assertTrue(log.numberOfSegments() > 2);
        scheduler.advance(1_000);
        assertEquals(
                log.activeSegment().baseOffset(),
                log.recoveryPoint(),
                "the rolls flushed the old segments; flush.ms has not passed yet");
        scheduler.advance(1_000);
        assertEquals(log.activeSegment().baseOffset(), log.recoveryPoint(), "flush.ms counts from the last flush");
        scheduler.advance(1_000);
        assertEquals(log.logEndOffset(), log.recoveryPoint(), "the flusher flushed the log after flush.ms");
        time.sleep(10_001);
        scheduler.tick();
        assertEquals(1, log.numberOfSegments(), "retention deleted every segment but the new active one");
        assertEquals(log.logEndOffset(), log.logStartOffset());
        scheduler.advance(3_000);
        Path dir = log.dir().getParent();
        assertEquals(
                Map.of(),
                checkpoint(dir, OffsetCheckpointFile.LOG_START_OFFSET_CHECKPOINT_FILE),
                "the log starts at its first segment");
        assertEquals(
                Map.of(SHORT, log.recoveryPoint()),
                checkpoint(dir, OffsetCheckpointFile.RECOVERY_POINT_CHECKPOINT_FILE));
        assertEquals(
                Map.of(SHORT, log.highWatermark()),
                checkpoint(dir, OffsetCheckpointFile.REPLICATION_OFFSET_CHECKPOINT_FILE));
    }

    @Test
    void topicSettingsChangeOnEveryPartition() throws IOException {
        manager = start(dirs);
        UnifiedLog first = create(T0);
        UnifiedLog second = create(T1);
        LogConfig changed = config("retention.ms", 1L);
        manager.updateTopicConfig("orders", changed);
        assertTrue(first.config() == changed && second.config() == changed);
    }

    @Test
    void theMetadataLogAndMovedReplicasAreLeftAlone() throws IOException {
        Files.createDirectories(dirs.get(0).resolve("__cluster_metadata-0"));
        Files.writeString(dirs.get(0).resolve("__cluster_metadata-0").resolve("quorum-state"), "{}");
        Files.createDirectories(dirs.get(1).resolve("orders-0.0123abc-future"));
        manager = start(dirs);
        assertEquals(List.of(), manager.allLogs());
        assertTrue(children(dirs.get(0)).contains("__cluster_metadata-0"));
        assertEquals(List.of("quorum-state"), children(dirs.get(0).resolve("__cluster_metadata-0")));
    }

    @Test
    void brokerSettingsHaveKafkasNamesAndDefaults() {
        LogManagerConfig defaults = LogManagerConfig.fromProps(Map.of("node.id", 3));
        assertEquals(List.of(Path.of("/tmp/kafka-logs")), defaults.logDirs());
        assertEquals(Long.MAX_VALUE, defaults.flushCheckMs());
        assertEquals(60_000, defaults.flushRecoveryOffsetCheckpointMs());
        assertEquals(60_000, defaults.flushStartOffsetCheckpointMs());
        assertEquals(300_000, defaults.retentionCheckMs());
        assertEquals(30_000, defaults.initialTaskDelayMs());
        assertEquals(60_000, defaults.fileDeleteDelayMs());
        assertEquals(900_000, defaults.maxTransactionTimeoutMs());
        assertEquals(86_400_000, defaults.producerIdExpirationMs());
        assertEquals(600_000, defaults.producerIdExpirationCheckIntervalMs());
        assertEquals(2, defaults.numRecoveryThreadsPerDataDir());
        assertEquals(
                List.of(Path.of("/a"), Path.of("/b")),
                LogManagerConfig.fromProps(Map.of("node.id", 3, "log.dir", "/a,/b"))
                        .logDirs());
        assertEquals(
                List.of(Path.of("/c")),
                LogManagerConfig.fromProps(Map.of("node.id", 3, "log.dir", "/a", "log.dirs", "/c"))
                        .logDirs());
        assertThrows(ConfigException.class, () -> LogManagerConfig.fromProps(Map.of()));
        assertThrows(
                ConfigException.class,
                () -> LogManagerConfig.fromProps(Map.of("node.id", 1, "log.retention.check.interval.ms", "soon")));
        assertThrows(
                ConfigException.class,
                () -> LogManagerConfig.fromProps(Map.of("node.id", 1, "log.retention.check.interval.ms", "0")));
    }
}
