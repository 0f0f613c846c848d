package io.krabka.kernel.tiered;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.metrics.MetricsRegistry;
import io.krabka.kernel.tiered.FaultyRemoteStorageManager.Fault;
import io.krabka.kernel.tiered.RemoteLogManagerMetrics.Counter;
import io.krabka.kernel.tiered.RemoteLogManagerMetrics.Gauge;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What leaves the remote tier, on a single-node broker with the real {@code local} and {@code inmemory} plugins:
 * remote retention by time and size, the deletion of a tiered topic, and KIP-950's copy disablement and deletion on
 * disablement.
 */
class RemoteLogManagerRetentionTest {

    private static final int FILES_PER_SEGMENT = RemoteLogManagerTest.FILES_PER_SEGMENT;
    private static final Map<String, String> TIERED = Map.of("remote.storage.enable", "true");

    @TempDir
    Path dir;

    private TieredBroker broker;

    @AfterEach
    void close() throws IOException {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void remoteRetentionByTimeDeletesExactlyTheExpiredSegmentsAndMovesTheLogStart() throws Exception {
        broker = new TieredBroker(dir);
        TopicIdPartition tp = broker.topic("orders", Map.of("remote.storage.enable", "true", "retention.ms", "10000"));
        long start = broker.time.millis();
        for (int i = 0; i < 3; i++) {
            broker.appendSegments(tp, 1, 2);
            broker.time.sleep(2_000);
        }
        broker.runTasks();
        List<RemoteLogSegmentMetadata> copied = broker.remoteSegments(tp);
        assertEquals(3, copied.size());

        // 11 s after the first segment's records, 9 s after the second's: only the first is past retention.
        broker.time.sleep(start + 10_000 - broker.time.millis());
        broker.runTasks();

        assertEquals(List.of(20L, 40L), finishedStarts(tp));
        assertEquals(20, broker.log(tp).logStartOffset());
        assertEquals(20, broker.log(tp).localLogStartOffset(), "the local segment below the log start is unreadable");
        assertThrows(RemoteResourceNotFoundException.class, () -> broker.rsm.fetchLogSegment(copied.get(0), 0));
        assertEquals(2 * FILES_PER_SEGMENT, broker.remoteFiles().size());
        assertEquals(1, broker.metrics().count(Counter.REMOTE_DELETE_REQUESTS, "orders"));
        assertEquals(0, broker.metrics().value(Gauge.REMOTE_DELETE_LAG_SEGMENTS, "orders"));
        assertEquals(
                List.of(copied.get(0).remoteLogSegmentId().id()),
                broker.deletedSegments,
                "the index cache is told of the deleted segment");
    }

    @Test
    void remoteRetentionBySizeCountsRemoteAndNotYetCopiedBytes() throws Exception {
        broker = new TieredBroker(dir);
        TopicIdPartition tp = broker.topic("orders", TIERED);
        broker.appendSegments(tp, 3, 2);
        broker.runTasks();
        List<LogSegment> local = broker.log(tp).logSegments();
        long keptBySize = (long) local.get(1).size() + local.get(2).size();

        broker.topic(
                "orders", Map.of("remote.storage.enable", "true", "retention.bytes", String.valueOf(keptBySize + 1)));
        broker.runTasks();
        assertEquals(List.of(0L, 20L, 40L), finishedStarts(tp), "deleting the first segment would go below");

        broker.topic("orders", Map.of("remote.storage.enable", "true", "retention.bytes", String.valueOf(keptBySize)));
        broker.runTasks();
        assertEquals(List.of(20L, 40L), finishedStarts(tp));
        assertEquals(20, broker.log(tp).logStartOffset());

        // Bytes not yet copied count too: one more local segment pushes the second remote segment out.
        broker.appendSegments(tp, 1, 2);
        broker.topic(
                "orders",
                Map.of(
                        "remote.storage.enable",
                        "true",
                        "remote.log.copy.disable",
                        "true",
                        "retention.bytes",
                        String.valueOf(keptBySize)));
        broker.runTasks();
        assertEquals(List.of(40L), finishedStarts(tp));
        assertEquals(40, broker.log(tp).logStartOffset());
    }

    @Test
    void deletingATieredTopicEmptiesTheRemoteTier() throws Exception {
        broker = new TieredBroker(dir);
        TopicIdPartition tp = broker.topic("orders", TIERED);
        TopicIdPartition kept = broker.topic("payments", TIERED);
        broker.appendSegments(tp, 3, 1);
        broker.appendSegments(kept, 1, 1);
        broker.runTasks();
        assertEquals(4 * FILES_PER_SEGMENT, broker.remoteFiles().size());

        broker.deleteTopic("orders");

        assertThrows(
                RemoteResourceNotFoundException.class,
                () -> broker.remoteSegments(tp),
                "DELETE_PARTITION_FINISHED: the metadata manager forgot the partition");
        assertEquals(FILES_PER_SEGMENT, broker.remoteFiles().size(), "only the other topic's segment is left");
        assertEquals(3, broker.metrics().totalCount(Counter.REMOTE_DELETE_REQUESTS));
        assertEquals(Set.of(kept), broker.remoteLogManager.tieredPartitions());
        assertEquals(Set.of(), broker.remoteLogManager.pendingDeletions());
        assertEquals(List.of("orders"), broker.deletedTopics);
        String metrics = broker.registry.prometheusText();
        assertFalse(metrics.contains("topic=\"orders\""), "a deleted topic's metrics go, as Kafka's:\n" + metrics);
        assertTrue(metrics.contains("topic=\"payments\""), metrics);
    }

    @Test
    void aFailedPartitionDeletionIsRetriedUntilTheRemoteTierIsEmpty() throws Exception {
        broker = new TieredBroker(dir, Map.of(), rsm -> new FaultyRemoteStorageManager(rsm, attempt -> Fault.NONE, 1));
        TopicIdPartition tp = broker.topic("orders", TIERED);
        broker.appendSegments(tp, 2, 1);
        broker.runTasks();

        broker.deleteTopic("orders");
        assertEquals(Set.of(tp), broker.remoteLogManager.pendingDeletions());
        assertEquals(1, broker.metrics().count(Counter.REMOTE_DELETE_ERRORS, "orders"));
        assertEquals(
                RemoteLogSegmentState.DELETE_SEGMENT_STARTED,
                broker.remoteSegments(tp).getFirst().state(),
                "the segment whose delete failed stays marked for deletion");

        broker.runTasks();

        assertEquals(Set.of(), broker.remoteLogManager.pendingDeletions());
        assertEquals(List.of(), broker.remoteFiles());
        assertThrows(RemoteResourceNotFoundException.class, () -> broker.remoteSegments(tp));
    }

    @Test
    void copyDisableStopsCopiesAndLocalRetentionFallsBackToRetentionSettings() throws Exception {
        broker = new TieredBroker(dir);
        TopicIdPartition tp = broker.topic("orders", TIERED);
        broker.appendSegments(tp, 2, 2);
        broker.runTasks();
        broker.topic(
                "orders",
                Map.of(
                        "remote.storage.enable",
                        "true",
                        "remote.log.copy.disable",
                        "true",
                        "local.retention.bytes",
                        "0"));
        broker.appendSegments(tp, 2, 2);
        UnifiedLog log = broker.log(tp);
        long lastTwo = (long) log.logSegments().get(2).size()
                + log.logSegments().get(3).size();

        broker.runTasks();
        assertEquals(List.of(0L, 20L), finishedStarts(tp), "no copy while copies are disabled");

        // local.retention.bytes is ignored: retention.bytes governs the local log, copied or not (KIP-950).
        broker.logManager.cleanupLogs();
        assertEquals(5, log.numberOfSegments());
        broker.topic(
                "orders",
                Map.of(
                        "remote.storage.enable",
                        "true",
                        "remote.log.copy.disable",
                        "true",
                        "local.retention.bytes",
                        "0",
                        "retention.bytes",
                        String.valueOf(lastTwo)));
        broker.logManager.cleanupLogs();
        assertEquals(
                List.of(40L, 60L, 80L),
                log.logSegments().stream().map(LogSegment::baseOffset).toList());
        assertEquals(0, log.logStartOffset());
    }

    @Test
    void turningRemoteStorageOffWithDeleteOnDisableDeletesTheRemoteData() throws Exception {
        broker = new TieredBroker(dir);
        TopicIdPartition tp =
                broker.topic("orders", Map.of("remote.storage.enable", "true", "local.retention.bytes", "0"));
        broker.appendSegments(tp, 2, 2);
        broker.runTasks();
        broker.logManager.cleanupLogs();
        assertEquals(0, broker.log(tp).logStartOffset());
        assertEquals(40, broker.log(tp).localLogStartOffset());

        broker.topic(
                "orders",
                Map.of(
                        "remote.storage.enable",
                        "false",
                        "remote.log.copy.disable",
                        "true",
                        "remote.log.delete.on.disable",
                        "true"));

        assertEquals(List.of(), broker.remoteFiles());
        assertThrows(RemoteResourceNotFoundException.class, () -> broker.remoteSegments(tp));
        assertEquals(40, broker.log(tp).logStartOffset(), "the log now starts where its local segments do");
        assertEquals(Set.of(), broker.remoteLogManager.tieredPartitions());
    }

    @Test
    void retentionBySizeAfterARestartDoesNotCountCopiedLocalBytesTwice() throws Exception {
        SlowStartRemoteLogMetadataManager[] slow = new SlowStartRemoteLogMetadataManager[1];
        broker = new TieredBroker(
                dir, Map.of(), rsm -> rsm, rlmm -> slow[0] = new SlowStartRemoteLogMetadataManager(rlmm));
        slow[0].becomeReady();
        TopicIdPartition tp = broker.topic("orders", TIERED);
        broker.appendSegments(tp, 3, 2);
        broker.runTasks();
        List<LogSegment> local = broker.log(tp).logSegments();
        long keptBySize = (long) local.get(1).size() + local.get(2).size();
        broker.topic("orders", Map.of("remote.storage.enable", "true", "retention.bytes", String.valueOf(keptBySize)));
        broker.restart();
        assertEquals(-1, broker.log(tp).highestOffsetInRemoteStorage(), "no copy task has run since the restart");

        // Expiration runs before the copy task recovered the highest copied offset: the segments still local
        // are in the remote tier, and count once.
        slow[0].becomeReady();
        RemoteLogManagerMetrics metrics = new RemoteLogManagerMetrics(MetricsRegistry.unpublished());
        new RLMExpirationTask(
                        tp,
                        broker.logManager::getLog,
                        broker.rlmm,
                        new RemoteLogSegmentDeleter(
                                broker.rsm, broker.rlmm, metrics, TieredBroker.NODE, broker.time, id -> {}),
                        metrics,
                        broker.time,
                        new ExponentialBackoff(1, 1, 0))
                .run();

        assertEquals(List.of(20L, 40L), finishedStarts(tp));
    }

    private List<Long> finishedStarts(TopicIdPartition tp) throws RemoteStorageException {
        return broker.remoteSegments(tp).stream()
                .filter(s -> s.state() == RemoteLogSegmentState.COPY_SEGMENT_FINISHED)
                .map(RemoteLogSegmentMetadata::startOffset)
                .toList();
    }
}
