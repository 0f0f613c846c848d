package io.krabka.kernel.tiered;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.LogStartOffsetIncrementReason;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What holds copies back or lets them go: the metadata manager's readiness, the copy quota, the copy lag, the
 * producer snapshots kept for them; and remote retention by the log start offset (DeleteRecords).
 */
class RemoteLogManagerPacingTest {

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
    void aPartitionIsSkippedWhileTheMetadataManagerIsNotReadyForIt() throws Exception {
        SlowStartRemoteLogMetadataManager[] slow = new SlowStartRemoteLogMetadataManager[1];
        broker = new TieredBroker(
                dir, Map.of(), rsm -> rsm, rlmm -> slow[0] = new SlowStartRemoteLogMetadataManager(rlmm));
        TopicIdPartition tp = broker.topic("orders", TIERED);
        broker.appendSegments(tp, 2, 1);

        broker.runTasks();
        broker.runTasks();
        assertEquals(List.of(), broker.remoteSegments(tp));
        assertEquals(-1, broker.log(tp).highestOffsetInRemoteStorage());

        slow[0].becomeReady();
        broker.runTasks();
        assertEquals(List.of(0L, 10L), finishedStarts(tp));
    }

    @Test
    void aFailedCopyWaitsOutTheRetryBackoffBeforeTryingAgain() throws Exception {
        FaultyRemoteStorageManager[] faulty = new FaultyRemoteStorageManager[1];
        broker = new TieredBroker(
                dir,
                Map.of(
                        "remote.log.manager.task.retry.backoff.ms",
                        "3000",
                        "remote.log.manager.task.retry.backoff.max.ms",
                        "3000"),
                rsm -> faulty[0] = new FaultyRemoteStorageManager(
                        rsm,
                        attempt -> attempt == 1
                                ? FaultyRemoteStorageManager.Fault.FAIL_BEFORE_DATA
                                : FaultyRemoteStorageManager.Fault.NONE));
        TopicIdPartition tp = broker.topic("orders", TIERED);
        broker.appendSegments(tp, 1, 1);

        broker.runTasks();
        assertEquals(1, faulty[0].attempts());
        broker.runTasks();
        broker.runTasks();
        assertEquals(1, faulty[0].attempts(), "two runs within the 3 s backoff do not try");

        broker.runTasks();
        assertEquals(2, faulty[0].attempts());
        assertEquals(List.of(0L), finishedStarts(tp));
    }

    @Test
    void theCopyQuotaHoldsCopiesBackUntilTheRateFallsBelowIt() throws Exception {
        broker = new TieredBroker(dir, Map.of("remote.log.manager.copy.max.bytes.per.second", "1"), rsm -> rsm);
        TopicIdPartition tp = broker.topic("orders", TIERED);
        broker.appendSegments(tp, 3, 1);

        broker.runTasks();
        assertEquals(List.of(0L), finishedStarts(tp), "the first segment's bytes put the rate over 1 byte/s");
        broker.runTasks();
        assertEquals(List.of(0L), finishedStarts(tp));

        // The 11 one-second windows no longer hold the first copy.
        broker.time.sleep(11_000);
        broker.runTasks();
        assertEquals(List.of(0L, 10L), finishedStarts(tp));
    }

    @Test
    void theCopyLagByTimeKeepsNewSegmentsLocalUntilTheyAreOldEnough() throws Exception {
        broker = new TieredBroker(dir);
        TopicIdPartition tp =
                broker.topic("orders", Map.of("remote.storage.enable", "true", "remote.copy.lag.ms", "5000"));
        broker.appendSegments(tp, 2, 1);

        broker.runTasks();
        assertEquals(List.of(), finishedStarts(tp));

        broker.time.sleep(4_000);
        broker.runTasks();
        assertEquals(List.of(0L, 10L), finishedStarts(tp));
    }

    @Test
    void theCopyLagByBytesKeepsTheNewestBytesLocal() throws Exception {
        broker = new TieredBroker(dir);
        TopicIdPartition tp = broker.topic("orders", TIERED);
        broker.appendSegments(tp, 3, 1);
        UnifiedLog log = broker.log(tp);
        long lastTwo = (long) log.logSegments().get(1).size()
                + log.logSegments().get(2).size();
        // No time lag (-1 resolves to local.retention.ms, unlimited here): only the size lag applies.
        broker.topic(
                "orders",
                Map.of(
                        "remote.storage.enable",
                        "true",
                        "retention.ms",
                        "-1",
                        "remote.copy.lag.ms",
                        "-1",
                        "remote.copy.lag.bytes",
                        String.valueOf(lastTwo)));

        broker.runTasks();

        assertEquals(List.of(0L), finishedStarts(tp), "the second segment has fewer newer bytes than the lag");
    }

    @Test
    void producerSnapshotsNotYetCopiedSurviveTheRecoveryPointCheckpoint() throws Exception {
        broker = new TieredBroker(dir);
        TopicIdPartition tp = broker.topic("orders", TIERED);
        broker.appendSegments(tp, 4, 1);
        // The rolls' background flushes move the recovery point; the checkpoint then prunes the snapshots.
        broker.scheduler.tick();
        broker.logManager.checkpointLogRecoveryOffsets();
        UnifiedLog log = broker.log(tp);
        for (long offset : new long[] {10, 20, 30, 40}) {
            assertTrue(log.producerStateManager().fetchSnapshot(offset).isPresent(), "snapshot at " + offset);
        }

        broker.runTasks();

        assertEquals(List.of(0L, 10L, 20L, 30L), finishedStarts(tp));
        assertEquals(0, broker.metrics().totalCount(RemoteLogManagerMetrics.Counter.REMOTE_COPY_ERRORS));
    }

    @Test
    void remoteSegmentsBelowTheLogStartOffsetAreDeleted() throws Exception {
        broker = new TieredBroker(dir);
        TopicIdPartition tp = broker.topic("orders", TIERED);
        broker.appendSegments(tp, 3, 2);
        broker.runTasks();

        broker.log(tp).maybeIncrementLogStartOffset(30, LogStartOffsetIncrementReason.CLIENT_RECORD_DELETION);
        broker.runTasks();

        assertEquals(List.of(20L, 40L), finishedStarts(tp), "[20, 39] still holds offsets from 30 on");
        assertEquals(30, broker.log(tp).logStartOffset());
        assertEquals(1, broker.metrics().count(RemoteLogManagerMetrics.Counter.REMOTE_DELETE_REQUESTS, "orders"));
    }

    private List<Long> finishedStarts(TopicIdPartition tp) throws RemoteStorageException {
        return broker.remoteSegments(tp).stream()
                .filter(s -> s.state() == RemoteLogSegmentState.COPY_SEGMENT_FINISHED)
                .map(RemoteLogSegmentMetadata::startOffset)
                .toList();
    }
}
