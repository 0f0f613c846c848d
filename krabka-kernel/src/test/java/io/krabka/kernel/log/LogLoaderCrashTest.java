package io.krabka.kernel.log;

import static io.krabka.kernel.log.LogFixture.config;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.checkpoint.EpochEntry;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.CorruptRecordException;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A log killed mid-write (files closed without a flush, a trim or a snapshot, as after kill -9), its unflushed
 * segments then cut at every kind of byte position — batch boundaries, inside headers and bodies, in the zeros of a
 * preallocated file — and opened again without the clean shutdown marker. Each time: every flushed batch is there
 * byte for byte, the batches after the cut and every later segment are gone, the indexes equal a fresh rebuild, the
 * producer state, transactions and epochs equal a rebuild from nothing, and appends go on at the right offset.
 */
class LogLoaderCrashTest {

    @TempDir
    Path root;

    /** A batch on disk: its segment, position and bytes. */
    record DiskBatch(long segment, int position, long baseOffset, long lastOffset, int epoch, byte[] bytes) {

        int end() {
            return position + bytes.length;
        }
    }

    /** The batches of every segment file in {@code dir}, in offset order; a file's torn tail is not read. */
    static List<DiskBatch> batchesOnDisk(Path dir) throws IOException {
        List<DiskBatch> batches = new ArrayList<>();
        for (Path file : logFiles(dir)) {
            long segment = LogFileUtils.offsetFromFileName(file.getFileName().toString());
            int position = 0;
            try {
                for (LogBatch batch :
                        MemoryRecords.readableRecords(ByteBuffer.wrap(Files.readAllBytes(file)), "t", 0)) {
                    if (!batch.isValid()) {
                        break;
                    }
                    RecordBatch v2 = (RecordBatch) batch;
                    batches.add(new DiskBatch(
                            segment,
                            position,
                            v2.baseOffset(),
                            v2.lastOffset(),
                            v2.partitionLeaderEpoch(),
                            TestBatches.bytes(batch.buffer())));
                    position += batch.sizeInBytes();
                }
            } catch (CorruptRecordException e) {
                // The zeros after the batches of a preallocated file.
            }
        }
        return batches;
    }

    private static List<Path> logFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log"))
                    .sorted()
                    .toList();
        }
    }

    static void copyDir(Path source, Path target) throws IOException {
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : files.sorted().toList()) {
                Files.copy(file, target.resolve(source.relativize(file).toString()));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void recoveryKeepsFlushedBatchesAndCutsTheTornTail(boolean preallocate) throws IOException {
        LogConfig config = config(
                "internal.segment.bytes",
                3000,
                "index.interval.bytes",
                250,
                "segment.index.bytes",
                1200,
                "preallocate",
                preallocate,
                "file.delete.delay.ms",
                0L);
        LogFixture template = new LogFixture(root.resolve("template"));
        LogWorkload workload = new LogWorkload(template, 11);
        UnifiedLog log = template.create(config);
        workload.run(log, 70);
        log.flush(false);
        long recoveryPoint = log.recoveryPoint();
        workload.run(log, 70);
        // Killed: no flush, trim, snapshot or marker; the rolls' background flushes never ran.
        log.closeHandlers();
        List<DiskBatch> written = batchesOnDisk(template.dir);
        long recoverySegment = log.localLog()
                .segments()
                .floorSegment(recoveryPoint)
                .orElseThrow()
                .baseOffset();
        int flushedBytes = written.stream()
                .filter(b -> b.segment() == recoverySegment && b.lastOffset() < recoveryPoint)
                .mapToInt(DiskBatch::end)
                .max()
                .orElse(0);
        assertTrue(
                written.stream()
                                .map(DiskBatch::segment)
                                .distinct()
                                .filter(s -> s >= recoverySegment)
                                .count()
                        >= 3,
                "the unflushed part spans several segments");

        Random random = new Random(5);
        int cases = 0;
        for (Path file : logFiles(template.dir)) {
            long segment = LogFileUtils.offsetFromFileName(file.getFileName().toString());
            if (segment < recoverySegment) {
                continue;
            }
            int size = (int) Files.size(file);
            int dataEnd = written.stream()
                    .filter(b -> b.segment() == segment)
                    .mapToInt(DiskBatch::end)
                    .max()
                    .orElse(0);
            TreeSet<Integer> cuts = new TreeSet<>();
            // Batch boundaries; inside the offset and size fields; at the magic byte; just past the header.
            int[][] deltas = {{0}, {0, 1}, {0, 11}, {0, 16, 61}};
            int n = 0;
            for (DiskBatch batch : written) {
                if (batch.segment() == segment) {
                    for (int delta : deltas[n++ % deltas.length]) {
                        cuts.add(batch.position() + delta);
                    }
                }
            }
            for (n = 0; n < 4; n++) {
                cuts.add(random.nextInt(Math.max(1, dataEnd)));
            }
            cuts.add(dataEnd);
            cuts.add(size);
            if (size > dataEnd) {
                cuts.add(dataEnd + 1 + random.nextInt(size - dataEnd));
            }
            int minimum = segment == recoverySegment ? flushedBytes : 0;
            for (int cut : cuts.subSet(minimum, true, size, true)) {
                Path dir = root.resolve("case-" + cases++);
                Files.createDirectories(dir);
                copyDir(template.dir, dir.resolve("test-0"));
                try (FileChannel channel =
                        FileChannel.open(dir.resolve("test-0").resolve(file.getFileName()), StandardOpenOption.WRITE)) {
                    channel.truncate(cut);
                }
                checkRecovery(dir, config, recoveryPoint, written, segment, cut, cases % 4 == 0);
            }
        }
        assertTrue(cases > 100, "cases: " + cases);
    }

    private void checkRecovery(
            Path logDir,
            LogConfig config,
            long recoveryPoint,
            List<DiskBatch> written,
            long cutSegment,
            int cut,
            boolean compareWithARebuild)
            throws IOException {
        String what = "cut of segment " + cutSegment + " at byte " + cut;
        int survivingEnd = written.stream()
                .filter(b -> b.segment() == cutSegment && b.end() <= cut)
                .mapToInt(DiskBatch::end)
                .max()
                .orElse(0);
        // Bytes after the last whole batch (a torn batch, or preallocated zeros) are a torn tail: recovery cuts them
        // and deletes every later segment. A cut at a batch boundary looks like a valid segment end, as in Kafka.
        boolean torn = cut > survivingEnd;
        List<DiskBatch> expected = written.stream()
                .filter(b -> b.segment() < cutSegment
                        || (b.segment() == cutSegment && b.end() <= cut)
                        || (b.segment() > cutSegment && !torn))
                .toList();
        LogFixture fixture = new LogFixture(logDir);
        UnifiedLog recovered = fixture.create(config, 0, recoveryPoint, false, Optional.empty());
        try {
            List<DiskBatch> found = batchesOnDisk(fixture.dir);
            assertEquals(expected.size(), found.size(), what);
            for (int n = 0; n < expected.size(); n++) {
                assertArrayEquals(expected.get(n).bytes(), found.get(n).bytes(), what + ", batch " + n);
            }
            assertTrue(expected.stream().anyMatch(b -> b.lastOffset() == recoveryPoint - 1), what);
            long lastSegment = torn ? cutSegment : written.getLast().segment();
            long logEndOffset = expected.stream()
                    .filter(b -> b.segment() == lastSegment)
                    .mapToLong(b -> b.lastOffset() + 1)
                    .max()
                    .orElse(lastSegment);
            assertEquals(logEndOffset, recovered.logEndOffset(), what);
            assertEquals(lastSegment, recovered.activeSegment().baseOffset(), what);
            assertTrue(recovered.segmentsRecoveredAtLoad().contains(cutSegment), what);
            for (LogSegment segment : recovered.logSegments()) {
                if (recovered.segmentsRecoveredAtLoad().contains(segment.baseOffset())) {
                    assertIndexesEqualARebuild(segment, config, what);
                }
            }
            // A cut at a batch boundary of a middle segment leaves a gap recovery cannot tell from a compacted log's:
            // the epochs stay as checkpointed, as in Kafka.
            List<DiskBatch> epochSource =
                    !torn && cutSegment != written.getLast().segment() ? written : expected;
            assertEquals(
                    expectedEpochs(epochSource), recovered.leaderEpochCache().epochEntries(), what);
            if (compareWithARebuild) {
                assertSameProducerState(recovered, fixture, config, what);
            }
            LogAppendInfo next = recovered.appendAsLeader(fixture.records("after"), 99);
            assertEquals(logEndOffset, next.firstOffset(), what);
            // The idempotent producer goes on at the sequence after its last surviving batch.
            int nextSequence = recovered
                    .producerStateManager()
                    .lastEntry(LogWorkload.IDEMPOTENT_PRODUCER)
                    .map(entry -> entry.lastSeq() + 1)
                    .orElse(0);
            assertEquals(
                    logEndOffset + 1,
                    recovered
                            .appendAsLeader(
                                    fixture.producerRecords(
                                            LogWorkload.IDEMPOTENT_PRODUCER, (short) 0, nextSequence, false, "again"),
                                    99)
                            .firstOffset(),
                    what);
        } finally {
            recovered.closeHandlers();
        }
    }

    private static List<EpochEntry> expectedEpochs(List<DiskBatch> batches) {
        List<EpochEntry> epochs = new ArrayList<>();
        for (DiskBatch batch : batches) {
            if (batch.epoch() >= 0
                    && (epochs.isEmpty() || batch.epoch() > epochs.getLast().epoch())) {
                epochs.add(new EpochEntry(batch.epoch(), batch.baseOffset()));
            }
        }
        return epochs;
    }

    /** The segment's index entries equal those a recovery of a copy of its records builds from nothing. */
    static void assertIndexesEqualARebuild(LogSegment segment, LogConfig config, String what) throws IOException {
        Path scratch =
                Files.createTempDirectory(segment.log().file().getParent().getParent(), "rebuild");
        Files.copy(segment.log().file(), LogFileUtils.logFile(scratch, segment.baseOffset(), ""));
        try (LogSegment rebuilt = LogSegment.open(
                scratch,
                segment.baseOffset(),
                new SegmentConfig(config.segmentIndexBytes(), config.indexIntervalBytes(), 0),
                new TestTime(),
                true,
                0,
                false,
                "")) {
            rebuilt.recover(
                    new ProducerStateManager(
                            ProducerStateFixture.PARTITION, scratch, 1000, ProducerStateManagerConfig.defaults()),
                    new TestEpochs());
            assertEquals(offsetEntries(rebuilt), offsetEntries(segment), what + ": offset index of " + segment);
            assertEquals(timeEntries(rebuilt), timeEntries(segment), what + ": time index of " + segment);
        }
    }

    private static List<OffsetPosition> offsetEntries(LogSegment segment) {
        List<OffsetPosition> entries = new ArrayList<>();
        for (int n = 0; n < segment.offsetIndex().entries(); n++) {
            entries.add(segment.offsetIndex().entry(n));
        }
        return entries;
    }

    private static List<TimestampOffset> timeEntries(LogSegment segment) {
        List<TimestampOffset> entries = new ArrayList<>();
        for (int n = 0; n < segment.timeIndex().entries(); n++) {
            entries.add(segment.timeIndex().entry(n));
        }
        return entries;
    }

    /**
     * The producers, transactions and aborted-transaction index entries equal those of the same files opened with
     * every producer snapshot deleted and recovered from offset 0.
     */
    private void assertSameProducerState(UnifiedLog recovered, LogFixture fixture, LogConfig config, String what)
            throws IOException {
        Path referenceDir = fixture.logDir.resolve("reference");
        Files.createDirectories(referenceDir);
        copyDir(fixture.dir, referenceDir.resolve("test-0"));
        try (Stream<Path> files = Files.list(referenceDir.resolve("test-0"))) {
            for (Path snapshot :
                    files.filter(f -> f.toString().endsWith(".snapshot")).toList()) {
                Files.delete(snapshot);
            }
        }
        UnifiedLog reference = new LogFixture(referenceDir).create(config, 0, 0, false, Optional.empty());
        try {
            assertEquals(producers(reference), producers(recovered), what);
            recovered.updateHighWatermark(recovered.logEndOffset());
            reference.updateHighWatermark(reference.logEndOffset());
            assertEquals(reference.firstUnstableOffset(), recovered.firstUnstableOffset(), what);
            assertEquals(reference.lastStableOffset(), recovered.lastStableOffset(), what);
            assertEquals(abortedTxns(reference), abortedTxns(recovered), what);
        } finally {
            reference.closeHandlers();
        }
    }

    private static Map<Long, String> producers(UnifiedLog log) {
        Map<Long, String> producers = new TreeMap<>();
        log.producerStateManager()
                .activeProducers()
                .forEach((id, entry) -> producers.put(
                        id,
                        entry.producerEpoch()
                                + "/" + entry.lastSeq() + "/" + entry.lastDataOffset() + "/"
                                + entry.currentTxnFirstOffset() + "/"
                                + entry.coordinatorEpoch() + "/" + entry.batchMetadata()));
        return producers;
    }

    private static List<AbortedTxn> abortedTxns(UnifiedLog log) {
        return log.logSegments().stream()
                .flatMap(s -> s.txnIndex().allAbortedTxns().stream())
                .toList();
    }
}
