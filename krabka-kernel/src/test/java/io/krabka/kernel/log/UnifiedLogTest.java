package io.krabka.kernel.log;

import static io.krabka.kernel.log.LogFixture.appendMarker;
import static io.krabka.kernel.log.LogFixture.batches;
import static io.krabka.kernel.log.LogFixture.config;
import static io.krabka.kernel.log.LogFixture.readAll;
import static io.krabka.kernel.log.LogFixture.values;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.checkpoint.EpochEntry;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.RecordTooLargeException;
import io.krabka.kernel.record.RecordValidationException;
import io.krabka.kernel.record.TimestampType;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Kafka's UnifiedLogTest scenarios for appends, reads, rolls, producers, transactions and offsets. */
class UnifiedLogTest {

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

    private LogAppendInfo append(MemoryRecords records) throws IOException {
        return log.appendAsLeader(records, 0);
    }

    /** Appends and acknowledges, as a single-node leader does. */
    private LogAppendInfo appendAcked(MemoryRecords records) throws IOException {
        LogAppendInfo info = append(records);
        log.updateHighWatermark(log.logEndOffset());
        return info;
    }

    private List<Long> batchesPerSegment() {
        return log.logSegments().stream()
                .map(s -> (long) LogFixture.batchCount(s))
                .toList();
    }

    @Test
    void appendsAcrossRollsReadBackRecordForRecord() throws IOException {
        log = fixture.create(config("internal.segment.bytes", 1024, "index.interval.bytes", 100));
        List<String> expected = new ArrayList<>();
        for (int n = 0; n < 100; n++) {
            String[] values = {"a" + n, "b" + n, "c" + n};
            LogAppendInfo info = appendAcked(fixture.records(values));
            assertEquals(3L * n, info.firstOffset());
            assertEquals(3L * n + 2, info.lastOffset());
            assertEquals(0, info.logStartOffset());
            expected.addAll(List.of(values));
        }
        assertTrue(log.numberOfSegments() > 5, "segments: " + log.numberOfSegments());
        assertEquals(expected, values(readAll(log, FetchIsolation.HIGH_WATERMARK)));
        for (long offset = 0; offset < 300; offset++) {
            List<LogBatch> batches = batches(log.read(offset, 1, FetchIsolation.LOG_END, true));
            assertEquals(offset / 3 * 3, ((RecordBatch) batches.getFirst()).baseOffset(), "read at " + offset);
        }
        // Every batch went where the log end was when it was appended, and segments start at batch boundaries.
        for (LogSegment segment : log.logSegments()) {
            assertEquals(0, segment.baseOffset() % 3);
        }
    }

    @Test
    void theSegmentRollsWhenTheNextBatchWouldPassSegmentBytes() throws IOException {
        MemoryRecords sample = fixture.records("value-000");
        int batchSize = sample.sizeInBytes();
        log = fixture.create(config("internal.segment.bytes", batchSize * 5));
        for (int n = 0; n < 12; n++) {
            append(fixture.records("value-" + String.format("%03d", n)));
        }
        assertEquals(List.of(5L, 5L, 2L), batchesPerSegment());
    }

    @Test
    void theSegmentRollsWhenItsFirstBatchIsOlderThanSegmentMs() throws IOException {
        log = fixture.create(config("segment.ms", 3_600_000L));
        append(fixture.records("a"));
        fixture.time.sleep(3_600_000L);
        append(fixture.records("b"));
        assertEquals(1, log.numberOfSegments(), "exactly segment.ms is not past it");
        fixture.time.sleep(1);
        append(fixture.records("c"));
        assertEquals(2, log.numberOfSegments());
        // The next roll counts from the new segment's first batch.
        fixture.time.sleep(10);
        append(fixture.records("d"));
        assertEquals(
                List.of(0L, 2L),
                log.logSegments().stream().map(LogSegment::baseOffset).toList());
    }

    @Test
    void aSegmentsJitterRollsItEarlier() throws IOException {
        log = fixture.create(config("segment.ms", 10_000L, "segment.jitter.ms", 10_000L));
        append(fixture.records("a"));
        long jitter = log.activeSegment().rollJitterMs();
        assertTrue(jitter >= 0 && jitter < 10_000, "jitter " + jitter);
        fixture.time.sleep(10_000 - jitter);
        append(fixture.records("b"));
        assertEquals(1, log.numberOfSegments());
        fixture.time.sleep(1);
        append(fixture.records("c"));
        assertEquals(2, log.numberOfSegments());
    }

    @Test
    void theSegmentRollsWhenItsOffsetIndexIsFull() throws IOException {
        // 15 offset index slots, an entry per batch after the first; one timestamp, so one time index entry.
        log = fixture.create(config("segment.index.bytes", 120, "index.interval.bytes", 1));
        for (int n = 0; n < 20; n++) {
            append(LogFixture.records(TestBatches.T0, "v" + n));
        }
        assertEquals(List.of(16L, 4L), batchesPerSegment());
        assertEquals(15, log.logSegments().getFirst().offsetIndex().entries());
    }

    @Test
    void theSegmentRollsWhenItsTimeIndexIsFull() throws IOException {
        // 10 time index slots, full one early, with a rising timestamp per batch.
        log = fixture.create(config("segment.index.bytes", 120, "index.interval.bytes", 1));
        for (int n = 0; n < 20; n++) {
            fixture.time.sleep(1);
            append(fixture.records("v" + n));
        }
        LogSegment first = log.logSegments().getFirst();
        assertEquals(9, first.timeIndex().entries(), "full one slot early; the last entry holds the largest timestamp");
        assertEquals(10L, batchesPerSegment().getFirst());
    }

    @Test
    void aBatchLargerThanMaxMessageBytesOrTheSegmentIsRefused() throws IOException {
        log = fixture.create(config("max.message.bytes", 100));
        MemoryRecords large = fixture.records("x".repeat(100));
        assertThrows(RecordTooLargeException.class, () -> append(large));
        log.closeHandlers();
        fixture = new LogFixture(logDir.resolve("other"));
        log = fixture.create(config("internal.segment.bytes", 100, "max.message.bytes", 1000));
        assertThrows(RecordBatchTooLargeException.class, () -> append(fixture.records("x".repeat(100))));
        assertEquals(0, log.logEndOffset());
        assertEquals(0, log.size());
    }

    @Test
    void aRecompressedBatchAboveMaxMessageBytesIsRefused() throws IOException {
        // Gzip's framing makes a one-record batch larger than the uncompressed one the producer sent.
        MemoryRecords plain = fixture.records("a");
        log = fixture.create(config("compression.type", "gzip", "max.message.bytes", plain.sizeInBytes()));
        assertThrows(RecordTooLargeException.class, () -> append(fixture.records("a")));
        assertEquals(0, log.logEndOffset());
    }

    @Test
    void invalidRecordsAreListedWithTheirIndexesAndNothingIsAppended() throws IOException {
        log = fixture.create(config("message.timestamp.after.max.ms", 1000L));
        MemoryRecords future = LogFixture.records(fixture.time.millis() + 5000, "late", "later");
        RecordValidationException e = assertThrows(RecordValidationException.class, () -> append(future));
        assertEquals(
                List.of(0, 1),
                e.recordErrors().stream().map(r -> r.batchIndex()).toList());
        LogAppendInfo failed = LogAppendInfo.unknown(log.logStartOffset(), e.recordErrors());
        assertEquals(-1, failed.firstOffset());
        assertEquals(2, failed.recordErrors().size());
        assertEquals(0, log.logEndOffset());
    }

    @Test
    void logAppendTimeTopicsStampTheBrokersClock() throws IOException {
        log = fixture.create(config("message.timestamp.type", "LogAppendTime"));
        MemoryRecords records = LogFixture.records(TestBatches.T0 - 1_000_000, "a", "b");
        LogAppendInfo info = append(records);
        assertEquals(fixture.time.millis(), info.logAppendTime());
        assertEquals(fixture.time.millis(), info.maxTimestamp());
        log.updateHighWatermark(log.logEndOffset());
        for (Record record : readAll(log, FetchIsolation.HIGH_WATERMARK)) {
            assertEquals(fixture.time.millis(), record.timestamp());
        }
        RecordBatch batch = (RecordBatch)
                batches(log.read(0, 1000, FetchIsolation.LOG_END, false)).getFirst();
        assertEquals(TimestampType.LOG_APPEND_TIME, batch.timestampType());
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void theTopicCodecRecompressesAndReadsBack(CompressionType codec) throws IOException {
        log = fixture.create(config(
                "compression.type",
                codec == CompressionType.NONE ? "uncompressed" : codec.name().toLowerCase(Locale.ROOT)));
        append(fixture.records(Compression.of(CompressionType.GZIP), "a", "b", "c"));
        append(fixture.records(Compression.NONE, "d"));
        log.updateHighWatermark(log.logEndOffset());
        assertEquals(List.of("a", "b", "c", "d"), values(readAll(log, FetchIsolation.HIGH_WATERMARK)));
        for (LogBatch batch : batches(log.read(0, 1 << 20, FetchIsolation.LOG_END, false))) {
            assertEquals(codec, batch.compressionType());
        }
    }

    // Producers.

    @Test
    void aRetriedBatchReturnsTheOriginalOffsetsAndAppendsNothing() throws IOException {
        log = fixture.create(config());
        long pid = 1;
        short epoch = 0;
        append(fixture.producerRecords(pid, epoch, 0, false, "a", "b", "c"));
        LogAppendInfo second = append(fixture.producerRecords(pid, epoch, 3, false, "d", "e"));
        append(fixture.records("plain"));
        long end = log.logEndOffset();
        LogAppendInfo retry = append(fixture.producerRecords(pid, epoch, 3, false, "d", "e"));
        assertEquals(3, retry.firstOffset());
        assertEquals(4, retry.lastOffset());
        assertEquals(second.maxTimestamp(), retry.logAppendTime(), "Kafka reports the retained batch's timestamp");
        LogAppendInfo firstRetry = append(fixture.producerRecords(pid, epoch, 0, false, "a", "b", "c"));
        assertEquals(0, firstRetry.firstOffset());
        assertEquals(end, log.logEndOffset());
        // Five batches are retained: the first falls out of the window after five more and is out of sequence.
        for (int n = 0; n < 5; n++) {
            append(fixture.producerRecords(pid, epoch, 5 + n, false, "x" + n));
        }
        assertThrows(
                OutOfOrderSequenceException.class,
                () -> append(fixture.producerRecords(pid, epoch, 0, false, "a", "b", "c")));
        assertEquals(end + 5, log.logEndOffset());
        // A clean reopen keeps the window: the producer state comes back from the snapshot at the end.
        log.close();
        log = fixture.create(config());
        assertTrue(log.segmentsRecoveredAtLoad().isEmpty());
        assertEquals(
                end + 4,
                append(fixture.producerRecords(pid, epoch, 9, false, "x4")).firstOffset());
        assertEquals(end + 5, log.logEndOffset());
    }

    @Test
    void sequenceGapsStaleEpochsAndANewEpochNotAtZeroAreRefused() throws IOException {
        log = fixture.create(config());
        append(fixture.producerRecords(7, (short) 1, 0, false, "a"));
        assertThrows(
                OutOfOrderSequenceException.class, () -> append(fixture.producerRecords(7, (short) 1, 2, false, "b")));
        assertThrows(
                InvalidProducerEpochException.class,
                () -> append(fixture.producerRecords(7, (short) 0, 1, false, "b")));
        assertThrows(
                OutOfOrderSequenceException.class, () -> append(fixture.producerRecords(7, (short) 2, 5, false, "b")));
        assertEquals(1, log.logEndOffset());
        append(fixture.producerRecords(7, (short) 2, 0, false, "b"));
        assertEquals(2, log.logEndOffset());
        assertEquals(
                (short) 2, log.producerStateManager().lastEntry(7).orElseThrow().producerEpoch());
    }

    @Test
    void producersSilentForTheExpirationTimeAreForgottenByThePeriodicCheck() throws IOException {
        log = fixture.create(config());
        append(fixture.producerRecords(7, (short) 0, 0, false, "a"));
        fixture.scheduler.advance(LogFixture.PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS);
        assertEquals(1, log.producerStateManager().producerIdCount());
        fixture.scheduler.advance(ProducerStateManagerConfig.DEFAULT_PRODUCER_ID_EXPIRATION_MS);
        assertEquals(0, log.producerStateManager().producerIdCount());
    }

    @Test
    void transactionsBoundReadCommittedAndAbortsAreIndexed() throws IOException {
        log = fixture.create(config());
        short epoch = 0;
        appendAcked(fixture.producerRecords(1, epoch, 0, true, "t1-a", "t1-b")); // 0-1, aborted below
        appendAcked(fixture.producerRecords(2, epoch, 0, false, "idem-a", "idem-b")); // 2-3
        appendAcked(fixture.producerRecords(3, epoch, 0, true, "t3-a", "t3-b")); // 4-5, committed below
        assertEquals(OptionalLong.of(0), log.firstUnstableOffset());
        assertEquals(0, log.lastStableOffset());
        assertEquals(List.of(), readAll(log, FetchIsolation.TXN_COMMITTED));

        appendMarker(log, fixture.marker(1, epoch, ControlRecordType.ABORT, 0), 0); // 6
        // The abort is not stable until acknowledged: the high watermark is still below it.
        assertEquals(0, log.lastStableOffset());
        log.updateHighWatermark(log.logEndOffset());
        assertEquals(4, log.lastStableOffset());
        FetchDataInfo committed = log.read(0, 1 << 20, FetchIsolation.TXN_COMMITTED, false);
        assertEquals(Optional.of(List.of(new AbortedTxn(1, 0, 6, 4))), committed.abortedTransactions());
        assertEquals(
                List.of(0L, 1L, 2L, 3L),
                batches(committed).stream()
                        .flatMap(b -> b.records(1 << 20).stream())
                        .map(Record::offset)
                        .toList());
        assertEquals(
                List.of(new AbortedTxn(1, 0, 6, 4)),
                log.activeSegment().txnIndex().allAbortedTxns());

        appendAcked(fixture.producerRecords(3, epoch, 2, true, "t3-c")); // 7
        appendMarker(log, fixture.marker(3, epoch, ControlRecordType.COMMIT, 0), 0); // 8
        log.updateHighWatermark(log.logEndOffset());
        assertEquals(OptionalLong.empty(), log.firstUnstableOffset());
        assertEquals(9, log.lastStableOffset());
        List<Record> all = readAll(log, FetchIsolation.TXN_COMMITTED);
        assertEquals(9, all.size());
        assertEquals(List.of(new AbortedTxn(1, 0, 6, 4)), log.collectAbortedTransactions(0, 9));
        assertEquals(
                Optional.of(List.of()),
                log.read(7, 1 << 20, FetchIsolation.TXN_COMMITTED, false).abortedTransactions());
        // A non-transactional write while a transaction is open is refused.
        appendAcked(fixture.producerRecords(4, epoch, 0, true, "t4"));
        assertThrows(InvalidTxnStateException.class, () -> append(fixture.producerRecords(4, epoch, 1, false, "x")));
    }

    @Test
    void theLastStableOffsetSurvivesRollsAndAReopen() throws IOException {
        log = fixture.create(config("internal.segment.bytes", 300));
        appendAcked(fixture.records("before"));
        appendAcked(fixture.producerRecords(1, (short) 0, 0, true, "open"));
        for (int n = 0; n < 10; n++) {
            appendAcked(fixture.records("after-" + n));
        }
        assertTrue(log.numberOfSegments() > 1);
        assertEquals(1, log.lastStableOffset());
        LogOffsetSnapshot snapshot = log.fetchOffsetSnapshot();
        assertEquals(
                new LogOffsetMetadata(
                        1,
                        0,
                        log.logSegments()
                                .getFirst()
                                .translateOffset(1)
                                .orElseThrow()
                                .position()),
                snapshot.lastStableOffset());
        log.close();
        log = fixture.create(config("internal.segment.bytes", 300));
        log.updateHighWatermark(log.logEndOffset());
        assertEquals(1, log.lastStableOffset());
        appendMarker(log, fixture.marker(1, (short) 0, ControlRecordType.COMMIT, 0), 0);
        log.updateHighWatermark(log.logEndOffset());
        assertEquals(log.logEndOffset(), log.lastStableOffset());
    }

    // Offsets.

    @Test
    void highWatermarkStaysBetweenTheLogStartAndEnd() throws IOException {
        log = fixture.create(config());
        append(fixture.records("a", "b", "c"));
        assertEquals(0, log.highWatermark());
        assertEquals(3, log.updateHighWatermark(10));
        assertEquals(log.logEndOffsetMetadata(), log.fetchOffsetSnapshot().highWatermark());
        assertEquals(0, log.updateHighWatermark(0));
        assertThrows(IllegalArgumentException.class, () -> log.maybeIncrementHighWatermark(new LogOffsetMetadata(4)));
        assertEquals(
                Optional.of(new LogOffsetMetadata(0, 0, 0)), log.maybeIncrementHighWatermark(new LogOffsetMetadata(2)));
        assertEquals(Optional.empty(), log.maybeIncrementHighWatermark(new LogOffsetMetadata(1)));
        assertEquals(2, log.highWatermark());
        // Reads under the high watermark end at its batch; the last record is not visible yet.
        assertEquals(List.of("a", "b", "c"), values(readAll(log, FetchIsolation.LOG_END)));
        assertEquals(List.of(), values(readAll(log, FetchIsolation.HIGH_WATERMARK)), "the one batch holds offset 2");
        assertThrows(OffsetOutOfRangeException.class, () -> log.read(4, 100, FetchIsolation.LOG_END, false));
    }

    @Test
    void offsetsByTimestampAsKafkasListOffsets() throws IOException {
        log = fixture.create(config("internal.segment.bytes", 200));
        long t = fixture.time.millis();
        long[] timestamps = {t - 50, t - 70, t - 10, t - 30, t - 40};
        for (int n = 0; n < timestamps.length; n++) {
            log.appendAsLeader(LogFixture.records(timestamps[n], "v" + n), n < 2 ? 3 : 5);
        }
        log.updateHighWatermark(log.logEndOffset());
        assertTrue(log.numberOfSegments() > 1);
        assertEquals(
                Optional.of(new TimestampAndOffset(-1, 0, OptionalInt.of(3))),
                log.fetchOffsetByTimestamp(OffsetLookup.EARLIEST_TIMESTAMP));
        assertEquals(
                log.fetchOffsetByTimestamp(OffsetLookup.EARLIEST_TIMESTAMP),
                log.fetchOffsetByTimestamp(OffsetLookup.EARLIEST_LOCAL_TIMESTAMP));
        assertEquals(
                Optional.of(new TimestampAndOffset(-1, 5, OptionalInt.of(5))),
                log.fetchOffsetByTimestamp(OffsetLookup.LATEST_TIMESTAMP));
        assertEquals(
                Optional.of(new TimestampAndOffset(t - 10, 2, OptionalInt.of(5))),
                log.fetchOffsetByTimestamp(OffsetLookup.MAX_TIMESTAMP));
        assertEquals(
                Optional.of(new TimestampAndOffset(-1, -1, OptionalInt.of(-1))),
                log.fetchOffsetByTimestamp(OffsetLookup.LATEST_TIERED_TIMESTAMP));
        // The first record at or after the timestamp, in offset order.
        assertEquals(0, log.fetchOffsetByTimestamp(t - 60).orElseThrow().offset());
        assertEquals(2, log.fetchOffsetByTimestamp(t - 45).orElseThrow().offset());
        assertEquals(2, log.fetchOffsetByTimestamp(t - 10).orElseThrow().offset());
        assertEquals(Optional.empty(), log.fetchOffsetByTimestamp(t - 9));
    }

    @Test
    void leaderEpochsStartWhereTheirFirstBatchIs() throws IOException {
        log = fixture.create(config());
        log.appendAsLeader(fixture.records("a", "b"), 0);
        log.appendAsLeader(fixture.records("c"), 0);
        log.appendAsLeader(fixture.records("d"), 2);
        assertEquals(
                List.of(new EpochEntry(0, 0), new EpochEntry(2, 3)),
                log.leaderEpochCache().epochEntries());
        assertEquals(OptionalInt.of(2), log.latestEpoch());
        assertEquals(Optional.of(new EpochEndOffset(0, 3)), log.endOffsetForEpoch(1));
        assertEquals(Optional.of(new EpochEndOffset(2, 4)), log.endOffsetForEpoch(2));
        assertEquals(Optional.empty(), log.endOffsetForEpoch(3));
    }

    @Test
    void flushMessagesFlushesEveryNOffsets() throws IOException {
        log = fixture.create(config("flush.messages", 3L));
        append(fixture.records("a", "b"));
        assertEquals(0, log.recoveryPoint());
        append(fixture.records("c"));
        assertEquals(3, log.recoveryPoint());
        append(fixture.records("d"));
        assertEquals(3, log.recoveryPoint());
    }

    @Test
    void aRollFlushesTheOldSegmentsInTheBackground() throws IOException {
        log = fixture.create(config());
        append(fixture.records("a", "b"));
        log.roll();
        // The snapshot is taken at the roll, its fsync left to the background flush with the segments'.
        assertTrue(Files.exists(LogFileUtils.producerSnapshotFile(log.dir(), 2)));
        assertEquals(0, log.recoveryPoint());
        assertEquals(
                List.of("flush-log"),
                fixture.scheduler.pending().stream()
                        .filter(n -> n.equals("flush-log"))
                        .toList());
        fixture.scheduler.tick();
        assertEquals(2, log.recoveryPoint());
        assertTrue(Files.exists(LogFileUtils.producerSnapshotFile(log.dir(), 2)));
    }

    // The topic id and the lifecycle.

    @Test
    void theTopicIdIsWrittenOnceAndCheckedOnEveryOpen() throws IOException {
        Uuid topicId = Uuid.randomUuid();
        log = fixture.create(config(), 0, 0, true, Optional.of(topicId));
        assertEquals(topicId, log.partitionMetadataFile().read().topicId());
        log.close();
        log = fixture.create(config(), 0, 0, true, Optional.empty());
        assertEquals(Optional.of(topicId), log.topicId());
        log.close();
        log = null;
        assertThrows(
                InconsistentTopicIdException.class,
                () -> fixture.create(config(), 0, 0, true, Optional.of(Uuid.randomUuid())));
    }

    @Test
    void aCleanCloseAndReopenRecoversNothingAndKeepsEverything() throws IOException {
        log = fixture.create(config("internal.segment.bytes", 400));
        for (int n = 0; n < 20; n++) {
            appendAcked(fixture.producerRecords(9, (short) 0, n, false, "v" + n));
        }
        List<String> before = values(log);
        long end = log.logEndOffset();
        int segments = log.numberOfSegments();
        log.close();
        assertThrows(KafkaStorageException.class, () -> append(fixture.records("closed")));
        log = fixture.create(config("internal.segment.bytes", 400), 0, end, true, Optional.empty());
        assertEquals(List.of(), log.segmentsRecoveredAtLoad());
        assertEquals(end, log.logEndOffset());
        assertEquals(end, log.recoveryPoint());
        assertEquals(segments, log.numberOfSegments());
        assertEquals(before, values(log));
        assertEquals(19, log.producerStateManager().lastEntry(9).orElseThrow().lastSeq());
        // The active segment's indexes have room again.
        assertFalse(log.activeSegment().offsetIndex().isFull());
        assertEquals(
                end,
                append(fixture.producerRecords(9, (short) 0, 20, false, "v20")).firstOffset());
    }

    @Test
    void aDeletedLogIsGone() throws IOException {
        log = fixture.create(config());
        append(fixture.records("a"));
        log.delete();
        assertFalse(Files.exists(fixture.dir));
        log = null;
    }

    @Test
    void aRenamedLogKeepsWorkingInItsNewDirectory() throws IOException {
        log = fixture.create(config());
        append(fixture.producerRecords(1, (short) 0, 0, false, "a"));
        log.assignEpochStartOffset(4, 1);
        log.renameDir("test-0.abcdef-delete");
        assertEquals(logDir.resolve("test-0.abcdef-delete"), log.dir());
        log.appendAsLeader(fixture.producerRecords(1, (short) 0, 1, false, "b"), 4);
        assertEquals(
                List.of(new EpochEntry(0, 0), new EpochEntry(4, 1)),
                log.leaderEpochCache().epochEntries());
        log.close();
        assertTrue(Files.exists(logDir.resolve("test-0.abcdef-delete").resolve("00000000000000000002.snapshot")));
        log = null;
    }
}
