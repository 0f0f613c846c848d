package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.config.LogConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiered log (Kafka's UnifiedLog with remote storage): which logs are tiered, local retention waiting for the
 * copies, the log start offset kept below the local log, and reads below the local log start.
 */
class UnifiedLogTieredTest {

    private static final LogConfig TIERED =
            LogFixture.config("remote.storage.enable", true, "local.retention.bytes", 0L);

    @TempDir
    Path logDir;

    private LogFixture fixture;
    private final List<UnifiedLog> logs = new ArrayList<>();

    @BeforeEach
    void fixture() {
        fixture = new LogFixture(logDir);
    }

    @AfterEach
    void close() throws IOException {
        for (UnifiedLog log : logs) {
            log.closeHandlers();
        }
    }

    private UnifiedLog open(String partition, LogConfig config, long logStartOffset, boolean systemEnable)
            throws IOException {
        UnifiedLog log = fixture.create(logDir.resolve(partition), config, logStartOffset, systemEnable);
        logs.add(log);
        return log;
    }

    /** Three segments of one record each, then an empty active one at 3; all acknowledged. */
    private static void appendSegments(UnifiedLog log) throws IOException {
        for (String value : new String[] {"a", "b", "c"}) {
            log.appendAsLeader(LogFixture.records(TestBatches.T0, value), 0);
            log.roll();
        }
        log.updateHighWatermark(log.logEndOffset());
    }

    private static List<Long> baseOffsets(UnifiedLog log) {
        return log.logSegments().stream().map(LogSegment::baseOffset).toList();
    }

    @Test
    void aLogIsTieredOnlyWithTheBrokerAndTopicSettingsAndNeverForAnInternalTopic() throws IOException {
        assertTrue(open("orders-0", TIERED, 0, true).remoteLogEnabled());
        assertFalse(open("orders-1", TIERED, 0, false).remoteLogEnabled());
        assertFalse(open("orders-2", LogConfig.defaults(), 0, true).remoteLogEnabled());
        assertFalse(open("__consumer_offsets-0", TIERED, 0, true).remoteLogEnabled());
        assertTrue(open(
                        "orders-3",
                        LogFixture.config("remote.storage.enable", true, "remote.log.copy.disable", true),
                        0,
                        true)
                .remoteLogEnabled());
        assertFalse(logs.getLast().remoteLogEnabledAndRemoteCopyEnabled());
    }

    @Test
    void onABrokerWithTieringEveryUncopiedSegmentKeepsTheSnapshotAtItsEndForALaterCopy() throws IOException {
        UnifiedLog notYetTiered = open("orders-0", LogFixture.config(), 0, true);
        UnifiedLog tiered = open("tiered-0", TIERED, 0, true);
        UnifiedLog withoutTiering = open("plain-0", LogFixture.config(), 0, false);
        for (UnifiedLog log : List.of(notYetTiered, tiered, withoutTiering)) {
            appendSegments(log);
            log.flush(false);
        }
        tiered.updateHighestOffsetInRemoteStorage(0);

        for (UnifiedLog log : List.of(notYetTiered, tiered, withoutTiering)) {
            log.deleteSnapshotsAfterRecoveryPointCheckpoint();
        }
        assertEquals(
                OptionalLong.of(1),
                notYetTiered.producerStateManager().oldestSnapshotOffset(),
                "remote.storage.enable may be turned on later: the first segment's snapshot stays");
        assertEquals(
                OptionalLong.of(1),
                tiered.producerStateManager().oldestSnapshotOffset(),
                "segment 0 is copied; the snapshot at 1 goes with segment 1");
        assertEquals(
                OptionalLong.of(2),
                withoutTiering.producerStateManager().oldestSnapshotOffset(),
                "without tiering, Kafka's rule: from the segment before the active one");
    }

    @Test
    void localRetentionDeletesOnlyCopiedSegmentsAndMovesOnlyTheLocalLogStart() throws IOException {
        UnifiedLog log = open("orders-0", TIERED, 0, true);
        appendSegments(log);

        assertEquals(0, log.deleteOldSegments(), "nothing is copied yet");
        log.updateHighestOffsetInRemoteStorage(1);
        assertEquals(2, log.deleteOldSegments());

        assertEquals(List.of(2L, 3L), baseOffsets(log));
        assertEquals(0, log.logStartOffset());
        assertEquals(2, log.localLogStartOffset());
        assertThrows(OffsetOutOfRangeException.class, () -> log.read(1, 100, FetchIsolation.HIGH_WATERMARK, false));
        assertEquals(
                2,
                log.read(2, 100, FetchIsolation.HIGH_WATERMARK, false)
                        .fetchOffsetMetadata()
                        .messageOffset());
    }

    @Test
    void withCopiesDisabledLocalRetentionFollowsTheRetentionSettingsWhetherCopiedOrNot() throws IOException {
        UnifiedLog log = open(
                "orders-0",
                LogFixture.config(
                        "remote.storage.enable",
                        true,
                        "remote.log.copy.disable",
                        true,
                        "local.retention.bytes",
                        0L,
                        "retention.bytes",
                        0L),
                0,
                true);
        appendSegments(log);

        assertEquals(3, log.deleteOldSegments());

        assertEquals(List.of(3L), baseOffsets(log));
        assertEquals(0, log.logStartOffset(), "the remote tier may still hold the offsets below");
    }

    @Test
    void reopeningATieredLogKeepsItsStartBelowTheFirstLocalSegment() throws IOException {
        UnifiedLog log = open("orders-0", TIERED, 0, true);
        appendSegments(log);
        log.updateHighestOffsetInRemoteStorage(1);
        log.deleteOldSegments();
        log.close();
        logs.remove(log);

        UnifiedLog tiered = open("orders-0", TIERED, 0, true);
        assertEquals(0, tiered.logStartOffset());
        assertEquals(2, tiered.localLogStartOffset());
        tiered.close();
        logs.remove(tiered);

        UnifiedLog untiered = open("orders-0", TIERED, 0, false);
        assertEquals(2, untiered.logStartOffset(), "without tiering, the log starts at its first segment");
    }

    @Test
    void remoteRetentionMovesTheLogStartOfATieredLogOnly() throws IOException {
        UnifiedLog tiered = open("orders-0", TIERED, 0, true);
        appendSegments(tiered);
        assertTrue(tiered.updateLogStartOffsetFromRemoteTier(2));
        assertEquals(2, tiered.logStartOffset());
        assertEquals(2, tiered.deleteOldSegments(), "the local segments below the log start go, copied or not");
        assertEquals(List.of(2L, 3L), baseOffsets(tiered));

        UnifiedLog local = open("orders-1", LogConfig.defaults(), 0, true);
        appendSegments(local);
        assertFalse(local.updateLogStartOffsetFromRemoteTier(2));
        assertEquals(0, local.logStartOffset());
    }
}
