package io.krabka.kernel.log;

import static io.krabka.kernel.log.LogFixture.config;
import static io.krabka.kernel.log.LogFixture.values;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.checkpoint.EpochEntry;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.MemoryRecords;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka's UnifiedLogTest scenarios for retention, DeleteRecords, truncation and dynamic settings. */
class UnifiedLogRetentionTest {

    @TempDir
    Path logDir;

    LogFixture fixture;
    UnifiedLog log;

    @BeforeEach
    void fixture() {
        fixture = new LogFixture(logDir);
    }

    @AfterEach
    void close() throws IOException {
        if (log != null) {
            log.closeHandlers();
        }
    }

    /** A batch per value, each in a segment of its own, acknowledged. */
    private void appendSegments(long timestamp, String... values) throws IOException {
        for (String value : values) {
            log.appendAsLeader(LogFixture.records(timestamp, value), 0);
            log.roll();
        }
        log.updateHighWatermark(log.logEndOffset());
    }

    private List<Long> baseOffsets() {
        return log.logSegments().stream().map(LogSegment::baseOffset).toList();
    }

    private List<String> files() throws IOException {
        try (Stream<Path> files = Files.list(log.dir())) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void segmentsWhoseLargestTimestampIsPastRetentionMsGo() throws IOException {
        log = fixture.create(config("retention.ms", 10_000L, "file.delete.delay.ms", 5_000L));
        long now = fixture.time.millis();
        appendSegments(now - 30_000, "old-1", "old-2");
        appendSegments(now - 5_000, "recent");
        assertEquals(List.of(0L, 1L, 2L, 3L), baseOffsets());
        assertEquals(2, log.deleteOldSegments());
        assertEquals(List.of(2L, 3L), baseOffsets());
        assertEquals(2, log.logStartOffset());
        assertEquals(List.of("recent"), values(log));
        // Renamed at once, removed after file.delete.delay.ms with their producer snapshots.
        assertTrue(files().contains("00000000000000000000.log.deleted"));
        fixture.scheduler.advance(5_000);
        assertTrue(files().stream().noneMatch(name -> name.endsWith(".deleted")), files().toString());
        assertFalse(files().contains("00000000000000000001.snapshot"));
        // Reads below the new start are out of range.
        assertThrows(OffsetOutOfRangeException.class, () -> log.read(1, 100, FetchIsolation.HIGH_WATERMARK, false));
    }

    @Test
    void nothingAtOrAboveTheHighWatermarkGoes() throws IOException {
        log = fixture.create(config("retention.ms", 10_000L));
        appendSegments(fixture.time.millis() - 30_000, "a", "b", "c");
        log.updateHighWatermark(1);
        assertEquals(1, log.deleteOldSegments());
        assertEquals(List.of(1L, 2L, 3L), baseOffsets());
    }

    @Test
    void anExpiredActiveSegmentGoesAfterARollAndAnEmptyOneStays() throws IOException {
        log = fixture.create(config("retention.ms", 10_000L, "file.delete.delay.ms", 0L));
        log.appendAsLeader(LogFixture.records(fixture.time.millis(), "a", "b"), 0);
        log.updateHighWatermark(log.logEndOffset());
        fixture.time.sleep(20_000);
        assertEquals(1, log.deleteOldSegments());
        assertEquals(List.of(2L), baseOffsets());
        assertEquals(2, log.logStartOffset());
        assertEquals(2, log.logEndOffset());
        assertTrue(log.isEmpty());
        assertEquals(0, log.deleteOldSegments(), "an empty active segment is never deleted");
        fixture.scheduler.tick();
        assertEquals(
                List.of(
                        "00000000000000000002.index",
                        "00000000000000000002.log",
                        "00000000000000000002.snapshot",
                        "00000000000000000002.timeindex",
                        "leader-epoch-checkpoint"),
                files());
        assertEquals(List.of(new EpochEntry(0, 2)), log.leaderEpochCache().epochEntries());
    }

    @Test
    void theOldestSegmentsGoWhileTheLogIsLargerThanRetentionBytes() throws IOException {
        MemoryRecords one = LogFixture.records(fixture.time.millis(), "x");
        int size = one.sizeInBytes();
        log = fixture.create(config("retention.bytes", (long) size * 2));
        appendSegments(fixture.time.millis(), "1", "2", "3", "4", "5");
        assertEquals(5L * size, log.size());
        assertEquals(3, log.deleteOldSegments());
        assertEquals(List.of("4", "5"), values(log));
        assertEquals(2L * size, log.size());
        assertEquals(0, log.deleteOldSegments());
    }

    @Test
    void deleteRecordsMovesTheStartAndRetentionDeletesBelowIt() throws IOException {
        log = fixture.create(config("cleanup.policy", "compact"));
        for (int n = 0; n < 3; n++) {
            log.appendAsLeader(fixture.records(Compression.NONE, "k" + n), n);
            log.roll();
        }
        log.appendAsLeader(fixture.records(Compression.NONE, "k3"), 3);
        log.updateHighWatermark(3);
        assertThrows(
                OffsetOutOfRangeException.class,
                () -> log.maybeIncrementLogStartOffset(4, LogStartOffsetIncrementReason.CLIENT_RECORD_DELETION));
        assertTrue(log.maybeIncrementLogStartOffset(2, LogStartOffsetIncrementReason.CLIENT_RECORD_DELETION));
        assertFalse(log.maybeIncrementLogStartOffset(1, LogStartOffsetIncrementReason.CLIENT_RECORD_DELETION));
        assertEquals(2, log.logStartOffset());
        assertEquals(
                List.of(new EpochEntry(2, 2), new EpochEntry(3, 3)),
                log.leaderEpochCache().epochEntries());
        assertThrows(OffsetOutOfRangeException.class, () -> log.read(1, 100, FetchIsolation.HIGH_WATERMARK, false));
        assertEquals(
                2,
                log.fetchOffsetByTimestamp(OffsetLookup.EARLIEST_TIMESTAMP)
                        .orElseThrow()
                        .offset());
        // A compacted log keeps its segments but those wholly below the start.
        assertEquals(2, log.deleteOldSegments());
        assertEquals(List.of(2L, 3L), baseOffsets());
    }

    @Test
    void deleteRecordsInsideABatchKeepsTheBatchButHidesItsStart() throws IOException {
        log = fixture.create(config());
        log.appendAsLeader(LogFixture.records(fixture.time.millis(), "a", "b", "c"), 0);
        log.updateHighWatermark(3);
        log.maybeIncrementLogStartOffset(1, LogStartOffsetIncrementReason.CLIENT_RECORD_DELETION);
        assertEquals(0, log.deleteOldSegments());
        assertEquals(List.of("b", "c"), values(log));
    }

    @Test
    void truncationCutsTheLogAndItsStateBackToTheOffset() throws IOException {
        log = fixture.create(config("internal.segment.bytes", 300));
        for (int n = 0; n < 10; n++) {
            log.appendAsLeader(fixture.producerRecords(5, (short) 0, n, false, "v" + n), n < 5 ? 1 : 2);
        }
        log.updateHighWatermark(log.logEndOffset());
        assertTrue(log.numberOfSegments() > 2);
        assertTrue(log.truncateTo(4));
        assertEquals(4, log.logEndOffset());
        assertEquals(4, log.highWatermark());
        assertEquals(List.of("v0", "v1", "v2", "v3"), values(log));
        assertEquals(List.of(new EpochEntry(1, 0)), log.leaderEpochCache().epochEntries());
        assertEquals(3, log.producerStateManager().lastEntry(5).orElseThrow().lastSeq());
        assertEquals(
                4,
                log.appendAsLeader(fixture.producerRecords(5, (short) 0, 4, false, "again"), 3)
                        .firstOffset());
        assertFalse(log.truncateTo(10));
        // Truncating below the first segment starts the log over there.
        log.maybeIncrementLogStartOffset(4, LogStartOffsetIncrementReason.CLIENT_RECORD_DELETION);
        log.deleteOldSegments();
        long first = log.logSegments().getFirst().baseOffset();
        assertTrue(first > 0);
        log.truncateTo(first - 1);
        assertEquals(first - 1, log.logEndOffset());
        assertEquals(first - 1, log.logStartOffset());
        assertEquals(List.of(first - 1), baseOffsets());
        assertEquals(List.of(), log.leaderEpochCache().epochEntries());
    }

    @Test
    void truncateFullyAndStartAtEmptiesTheLog() throws IOException {
        log = fixture.create(config());
        log.appendAsLeader(fixture.producerRecords(5, (short) 0, 0, true, "open"), 0);
        log.updateHighWatermark(1);
        log.truncateFullyAndStartAt(100, OptionalLong.of(90));
        assertEquals(100, log.logEndOffset());
        assertEquals(90, log.logStartOffset());
        assertEquals(100, log.highWatermark());
        assertEquals(OptionalLong.empty(), log.firstUnstableOffset());
        assertEquals(0, log.producerStateManager().producerIdCount());
    }

    @Test
    void settingsChangedAtRunTimeApplyToTheNextAppendAndRetentionCheck() throws IOException {
        LogConfig big = config();
        log = fixture.create(big);
        for (int n = 0; n < 10; n++) {
            log.appendAsLeader(LogFixture.records(fixture.time.millis() - 60_000, "v" + n), 0);
        }
        log.updateHighWatermark(log.logEndOffset());
        assertEquals(1, log.numberOfSegments());
        int batch = LogFixture.records(0, "v10").sizeInBytes();
        assertEquals(big, log.updateConfig(config("internal.segment.bytes", batch * 2, "retention.ms", 1_000L)));
        for (int n = 10; n < 14; n++) {
            log.appendAsLeader(LogFixture.records(fixture.time.millis(), "v" + n), 0);
        }
        log.updateHighWatermark(log.logEndOffset());
        assertEquals(3, log.numberOfSegments(), "the big segment rolls, then one per two batches");
        assertEquals(1, log.deleteOldSegments(), "the old segment is past the new retention");
        assertEquals(List.of("v10", "v11", "v12", "v13"), values(log));
    }
}
