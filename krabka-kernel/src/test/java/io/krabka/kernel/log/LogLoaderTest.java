package io.krabka.kernel.log;

import static io.krabka.kernel.log.LogFixture.config;
import static io.krabka.kernel.log.LogFixture.values;
import static io.krabka.kernel.log.LogLoaderCrashTest.assertIndexesEqualARebuild;
import static io.krabka.kernel.log.LogLoaderCrashTest.batchesOnDisk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka's LogLoaderTest scenarios: clean and unclean opens, damaged indexes, leftovers, odd logs. */
class LogLoaderTest {

    private static final LogConfig CONFIG = config(
            "internal.segment.bytes",
            2000,
            "index.interval.bytes",
            200,
            "segment.index.bytes",
            1200,
            "file.delete.delay.ms",
            0L);

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

    /** A log of several segments, closed cleanly; returns its records. */
    private List<String> writeAndClose(int appends) throws IOException {
        log = fixture.create(CONFIG);
        new LogWorkload(fixture, 3).run(log, appends);
        List<String> written = values(log);
        log.close();
        log = null;
        return written;
    }

    private Path file(long baseOffset, String suffix) {
        return fixture.dir.resolve(LogFileUtils.filenamePrefixFromOffset(baseOffset) + suffix);
    }

    private List<Long> segmentBases() throws IOException {
        try (Stream<Path> files = Files.list(fixture.dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".log"))
                    .map(LogFileUtils::offsetFromFileName)
                    .sorted()
                    .toList();
        }
    }

    @Test
    void aCleanShutdownIsTrustedAndTheAppendPathsIndexesEqualARebuild() throws IOException {
        List<String> written = writeAndClose(80);
        log = fixture.create(CONFIG, 0, 0, true, Optional.empty());
        assertEquals(List.of(), log.segmentsRecoveredAtLoad());
        assertTrue(log.numberOfSegments() > 3);
        assertEquals(written, values(log));
        for (LogSegment segment : log.logSegments()) {
            assertIndexesEqualARebuild(segment, CONFIG, "clean");
        }
    }

    @Test
    void withoutTheMarkerRecoveryStartsAtTheSegmentHoldingTheRecoveryPoint() throws IOException {
        List<String> written = writeAndClose(80);
        List<Long> bases = segmentBases();
        long recoveryPoint = bases.get(2) + 1;
        log = fixture.create(CONFIG, 0, recoveryPoint, false, Optional.empty());
        assertEquals(bases.subList(2, bases.size()), log.segmentsRecoveredAtLoad());
        assertEquals(recoveryPoint, log.recoveryPoint(), "the recovery point moves only with a flush");
        assertEquals(written, values(log));
    }

    @Test
    void missingAndDamagedIndexesAreRebuiltEvenAfterACleanShutdown() throws IOException {
        List<String> written = writeAndClose(80);
        List<Long> bases = segmentBases();
        Files.delete(file(bases.get(0), ".index"));
        Files.delete(file(bases.get(1), ".timeindex"));
        cut(file(bases.get(2), ".index"), Files.size(file(bases.get(2), ".index")) - 3);
        // An offset index entry that points past the end of the records.
        try (FileChannel index = FileChannel.open(file(bases.get(3), ".index"), StandardOpenOption.WRITE)) {
            index.write(ByteBuffer.allocate(8).putInt(1).putInt(1 << 20).flip(), index.size() - 8);
        }
        log = fixture.create(CONFIG, 0, 0, true, Optional.empty());
        assertEquals(bases.subList(0, 4), log.segmentsRecoveredAtLoad());
        assertEquals(written, values(log));
        for (LogSegment segment : log.logSegments()) {
            assertIndexesEqualARebuild(segment, CONFIG, "rebuilt");
        }
    }

    @Test
    void anIndexCutToWholeEntriesIsSparserButStillFindsEveryOffset() throws IOException {
        List<String> written = writeAndClose(80);
        long first = segmentBases().getFirst();
        cut(file(first, ".index"), 8);
        log = fixture.create(CONFIG, 0, 0, true, Optional.empty());
        assertEquals(List.of(), log.segmentsRecoveredAtLoad());
        assertEquals(1, log.logSegments().getFirst().offsetIndex().entries());
        List<Record> all = LogFixture.readAll(log, FetchIsolation.LOG_END);
        assertEquals(written.size(), all.size());
        for (Record record : all) {
            RecordBatch found =
                    (RecordBatch) LogFixture.batches(log.read(record.offset(), 1, FetchIsolation.LOG_END, true))
                            .getFirst();
            assertTrue(
                    found.baseOffset() <= record.offset() && record.offset() <= found.lastOffset(),
                    "offset " + record.offset());
        }
    }

    @Test
    void leftoversOfInterruptedOperationsAreCleanedUp() throws IOException {
        writeAndClose(80);
        List<Long> bases = segmentBases();
        long first = bases.getFirst();
        Files.copy(file(first, ".log"), file(first, ".log.deleted"));
        Files.writeString(fixture.dir.resolve("leader-epoch-checkpoint.tmp"), "half a file");
        Files.writeString(fixture.dir.resolve(LogFileUtils.filenamePrefixFromOffset(9) + ".snapshot.tmp"), "x");
        Files.copy(file(bases.get(1), ".log"), file(bases.get(1), ".log.cleaned"));
        Files.write(file(999_999, ".index"), new byte[16]);
        log = fixture.create(CONFIG, 0, 0, true, Optional.empty());
        try (Stream<Path> files = Files.list(fixture.dir)) {
            List<String> names = files.map(f -> f.getFileName().toString()).toList();
            assertTrue(
                    names.stream()
                            .noneMatch(n -> n.endsWith(".deleted")
                                    || n.endsWith(".tmp")
                                    || n.endsWith(".cleaned")
                                    || n.startsWith("00000000000000999999")),
                    names.toString());
        }
    }

    @Test
    void anInterruptedSwapIsCompletedReplacingTheSegmentsItCovers() throws IOException {
        List<String> written = writeAndClose(80);
        List<Long> bases = segmentBases();
        // A cleaner's result for the first two segments, as one segment: their batches, renamed to .swap.
        Path merged = Files.createTempDirectory(logDir, "merged");
        try (LogSegment swap =
                LogSegment.open(merged, bases.get(0), SegmentConfig.from(CONFIG), fixture.time, 0, false)) {
            for (long base : bases.subList(0, 2)) {
                byte[] bytes = Files.readAllBytes(file(base, ".log"));
                swap.log().append(ByteBuffer.wrap(bytes));
            }
        }
        Files.copy(LogFileUtils.logFile(merged, bases.get(0), ""), file(bases.get(0), ".log.swap"));
        log = fixture.create(CONFIG, 0, 0, true, Optional.empty());
        assertEquals(bases.size() - 1, log.numberOfSegments(), "the two segments became one");
        assertEquals(bases.getFirst(), log.logSegments().getFirst().baseOffset());
        assertEquals(bases.get(2), log.logSegments().get(1).baseOffset());
        assertEquals(written, values(log));
        assertTrue(log.segmentsRecoveredAtLoad().contains(bases.getFirst()), "its indexes were rebuilt");
    }

    @Test
    void aCheckpointedLogStartAboveTheLogEndStartsAnEmptyLogThere() throws IOException {
        writeAndClose(30);
        log = fixture.create(CONFIG, 10_000, 0, false, Optional.empty());
        assertEquals(10_000, log.logStartOffset());
        assertEquals(10_000, log.logEndOffset());
        assertEquals(1, log.numberOfSegments());
        assertEquals(List.of(), log.leaderEpochCache().epochEntries());
        fixture.scheduler.tick();
        assertEquals(List.of(10_000L), segmentBases());
    }

    @Test
    void aCheckpointedLogStartInsideTheLogHidesWhatIsBelow() throws IOException {
        List<String> written = writeAndClose(30);
        log = fixture.create(CONFIG, 5, 0, true, Optional.empty());
        assertEquals(5, log.logStartOffset());
        List<Record> records = LogFixture.readAll(log, FetchIsolation.LOG_END);
        assertEquals(5, records.getFirst().offset());
        assertEquals(written.size() - 5, records.size());
    }

    @Test
    void aLogOfLegacyMessagesOpensAndTakesV2BatchesAfterThem() throws IOException {
        Files.createDirectories(fixture.dir);
        long t = TestBatches.T0;
        ByteBuffer legacy = TestBatches.concat(
                LegacySegmentTest.entry(0, t, "zero"),
                LegacySegmentTest.entry(1, t + 5, "one"),
                LegacySegmentTest.gzipWrapper(2, t + 10, t + 12, t + 11),
                LegacySegmentTest.entry(5, 0, 0, -1, "five".getBytes(StandardCharsets.UTF_8)));
        Files.write(file(0, ".log"), TestBatches.bytes(legacy));
        for (boolean clean : new boolean[] {false, true}) {
            log = fixture.create(CONFIG, 0, 0, clean, Optional.empty());
            assertEquals(6, log.logEndOffset());
            assertEquals(List.of("zero", "one", "inner-2", "inner-3", "inner-4", "five"), values(log));
            assertEquals(3, log.fetchOffsetByTimestamp(t + 11).orElseThrow().offset());
            log.close();
        }
        log = fixture.create(CONFIG, 0, 0, true, Optional.empty());
        assertEquals(6, log.appendAsLeader(fixture.records("six"), 0).firstOffset());
        assertEquals("six", values(log).getLast());
    }

    @Test
    void aLogRenamedForDeletionOpensWithoutRecovery() throws IOException {
        writeAndClose(30);
        Path renamed = logDir.resolve("test-0.0123456789abcdef-delete");
        Files.move(fixture.dir, renamed);
        log = UnifiedLog.create(
                renamed,
                CONFIG,
                0,
                0,
                fixture.scheduler,
                fixture.time,
                1000,
                ProducerStateManagerConfig.defaults(),
                1000,
                false,
                Optional.empty());
        assertEquals(List.of(), log.segmentsRecoveredAtLoad());
        log.delete();
        assertFalse(Files.exists(renamed));
        log = null;
    }

    @Test
    void theTailAfterAnInvalidBatchInTheMiddleGoesWithEveryLaterSegment() throws IOException {
        writeAndClose(80);
        List<Long> bases = segmentBases();
        List<LogLoaderCrashTest.DiskBatch> batches = batchesOnDisk(fixture.dir);
        LogLoaderCrashTest.DiskBatch victim = batches.stream()
                .filter(b -> b.segment() == bases.get(1))
                .toList()
                .get(2);
        // A flipped byte in the records: the CRC no longer holds.
        try (FileChannel channel =
                FileChannel.open(file(bases.get(1), ".log"), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, victim.end() - 1);
            channel.write(ByteBuffer.wrap(new byte[] {(byte) ~one.get(0)}), victim.end() - 1);
        }
        log = fixture.create(CONFIG, 0, bases.get(1), false, Optional.empty());
        assertEquals(victim.baseOffset(), log.logEndOffset());
        assertEquals(
                List.of(bases.get(0), bases.get(1)),
                log.logSegments().stream().map(LogSegment::baseOffset).toList());
    }

    private static void cut(Path file, long size) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(size);
        }
    }
}
