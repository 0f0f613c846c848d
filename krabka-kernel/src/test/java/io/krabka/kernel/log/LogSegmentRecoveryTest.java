package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recovery after a crash: whatever the damage after the last whole batch (a write torn at any byte, garbage, the
 * zeros of a preallocated file) or inside a batch (a broken CRC, a wrong size), the segment recovers to exactly the
 * valid prefix, with the indexes, transaction index, producer state and epochs that appending that prefix gives.
 */
class LogSegmentRecoveryTest {

    private static final int BATCHES = 60;
    private static final SegmentConfig CONFIG = new SegmentConfig(64 * 1024, 512, 0);

    @TempDir
    Path dir;

    final TestTime time = new TestTime();
    final SegmentWorkload workload = new SegmentWorkload(0, BATCHES);
    int recoveries;

    /** What a segment and the state recovered with it look like. */
    record State(
            byte[] log,
            List<OffsetPosition> offsetIndex,
            List<TimestampOffset> timeIndex,
            List<AbortedTxn> aborted,
            String producers,
            long mapEndOffset,
            OptionalLong firstUnstableOffset,
            long nextOffset,
            List<TestEpochs.Assignment> epochs) {

        @Override
        public boolean equals(Object o) {
            return o instanceof State s
                    && Arrays.equals(log, s.log)
                    && offsetIndex.equals(s.offsetIndex)
                    && timeIndex.equals(s.timeIndex)
                    && aborted.equals(s.aborted)
                    && producers.equals(s.producers)
                    && mapEndOffset == s.mapEndOffset
                    && firstUnstableOffset.equals(s.firstUnstableOffset)
                    && nextOffset == s.nextOffset
                    && epochs.equals(s.epochs);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(log);
        }

        @Override
        public String toString() {
            return "State(" + log.length + " bytes, offsetIndex=" + offsetIndex + ", timeIndex=" + timeIndex
                    + ", aborted=" + aborted + ", producers=" + producers + ", mapEnd=" + mapEndOffset
                    + ", firstUnstable=" + firstUnstableOffset + ", next=" + nextOffset + ", epochs=" + epochs + ")";
        }
    }

    @BeforeEach
    void checkTheWorkload() {
        assertTrue(
                workload.steps.stream()
                        .anyMatch(s -> s.producer().orElse(null) instanceof ProducerBatch.EndTxnMarker m
                                && m.result() == TransactionResult.ABORT),
                "the workload aborts a transaction");
        assertTrue(
                workload.steps.stream()
                        .anyMatch(s -> s.producer().orElse(null) instanceof ProducerBatch.EndTxnMarker m
                                && m.result() == TransactionResult.COMMIT),
                "the workload commits a transaction");
    }

    /** The state of a segment holding the first {@code n} batches, appended as the leader's log appends them. */
    private State appended(int n) throws IOException {
        Path refDir = Files.createDirectories(dir.resolve("appended-" + n));
        ProducerStateManager producers = new ProducerStateFixture(refDir).stateManager;
        LogSegment segment = LogSegment.open(refDir, 0, CONFIG, time, 0, false);
        try {
            workload.appendTo(segment, producers, n);
            segment.onBecomeInactiveSegment();
            return state(segment, producers, workload.epochs(n));
        } finally {
            segment.close();
        }
    }

    /** Recovers a segment whose records file holds {@code log}; returns the bytes cut and the state. */
    private Map.Entry<Integer, State> recovered(byte[] log) throws IOException {
        Path work = Files.createDirectories(dir.resolve("recovered-" + recoveries++));
        Files.write(LogFileUtils.logFile(work, 0, ""), log);
        ProducerStateManager producers = new ProducerStateFixture(work).stateManager;
        TestEpochs epochs = new TestEpochs();
        LogSegment segment = LogSegment.open(work, 0, CONFIG, time, true, 0, false, "");
        try {
            int truncated = segment.recover(producers, epochs);
            return Map.entry(truncated, state(segment, producers, epochs.assignments));
        } finally {
            segment.deleteIfExists();
            segment.close();
            Files.delete(work);
        }
    }

    private static State state(LogSegment segment, ProducerStateManager producers, List<TestEpochs.Assignment> epochs)
            throws IOException {
        byte[] log = Files.readAllBytes(segment.log().file());
        String entries = producers.activeProducers().values().stream()
                .sorted(Comparator.comparingLong(ProducerStateEntry::producerId))
                .map(ProducerStateEntry::toString)
                .collect(Collectors.joining(", "));
        OptionalLong firstUnstable = producers
                .firstUnstableOffset()
                .map(m -> OptionalLong.of(m.messageOffset()))
                .orElseGet(OptionalLong::empty);
        return new State(
                log,
                LogSegmentTest.entries(segment.offsetIndex()),
                LogSegmentTest.timeEntries(segment.timeIndex()),
                segment.txnIndex().allAbortedTxns(),
                entries,
                producers.mapEndOffset(),
                firstUnstable,
                segment.readNextOffset(),
                List.copyOf(epochs));
    }

    @Test
    void anIntactSegmentRecoversToTheIndexesProducerStateAndEpochsItsAppendsMade() throws IOException {
        State appended = appended(BATCHES);
        assertFalse(appended.offsetIndex().size() < 10, "the workload spans many index intervals");
        assertFalse(appended.aborted().isEmpty());
        assertEquals(
                List.of(0, 1, 3),
                appended.epochs().stream().map(TestEpochs.Assignment::epoch).toList());
        Map.Entry<Integer, State> recovered = recovered(workload.bytes(BATCHES));
        assertEquals(0, recovered.getKey());
        assertEquals(appended, recovered.getValue());
    }

    @Test
    void theProducerSnapshotsOfRecoveryAndOfAppendsAreTheSameBytes() throws IOException {
        Path appendedDir = Files.createDirectories(dir.resolve("appended"));
        Path recoveredDir = Files.createDirectories(dir.resolve("recovered"));
        ProducerStateManager byAppends = new ProducerStateFixture(appendedDir).stateManager;
        ProducerStateManager byRecovery = new ProducerStateFixture(recoveredDir).stateManager;
        try (LogSegment segment = LogSegment.open(appendedDir, 0, CONFIG, time, 0, false)) {
            workload.appendTo(segment, byAppends, BATCHES);
        }
        Files.write(LogFileUtils.logFile(recoveredDir, 0, ""), workload.bytes(BATCHES));
        try (LogSegment segment = LogSegment.open(recoveredDir, 0, CONFIG, time, true, 0, false, "")) {
            segment.recover(byRecovery, new TestEpochs());
        }
        Path a = byAppends.takeSnapshot().orElseThrow();
        Path b = byRecovery.takeSnapshot().orElseThrow();
        assertEquals(a.getFileName(), b.getFileName());
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
    }

    @Test
    void aWriteTornAtEveryBytePositionOfTheLastBatchRecoversToTheBatchesBeforeIt() throws IOException {
        State before = appended(BATCHES - 1);
        byte[] all = workload.bytes(BATCHES);
        int start = workload.position(BATCHES - 1);
        assertTrue(all.length - start > 500, "the last batch is large");
        for (int cut = start; cut < all.length; cut++) {
            Map.Entry<Integer, State> recovered = recovered(Arrays.copyOf(all, cut));
            assertEquals(cut - start, recovered.getKey(), "cut at " + cut);
            assertEquals(before, recovered.getValue(), "cut at " + cut);
        }
    }

    @Test
    void garbageOrPreallocatedZerosAfterTheLastBatchAreCut() throws IOException {
        State whole = appended(BATCHES);
        byte[] all = workload.bytes(BATCHES);
        Random random = new Random(11);
        for (int length : new int[] {1, 11, 12, 16, 17, 60, 61, 62, 1000, 70_000}) {
            for (boolean zeros : new boolean[] {true, false}) {
                byte[] damaged = Arrays.copyOf(all, all.length + length);
                if (!zeros) {
                    byte[] garbage = new byte[length];
                    random.nextBytes(garbage);
                    System.arraycopy(garbage, 0, damaged, all.length, length);
                }
                Map.Entry<Integer, State> recovered = recovered(damaged);
                assertEquals(length, recovered.getKey(), length + (zeros ? " zeros" : " random bytes"));
                assertEquals(whole, recovered.getValue(), length + (zeros ? " zeros" : " random bytes"));
            }
        }
    }

    @Test
    void aBatchWithABrokenCrcInTheMiddleCutsTheSegmentAtIt() throws IOException {
        int broken = BATCHES / 2;
        State before = appended(broken);
        byte[] all = workload.bytes(BATCHES);
        int at = workload.position(broken);
        int size = workload.steps.get(broken).batch().remaining();
        // Any byte the CRC covers: the attributes, the header fields after them, the records.
        for (int offsetInBatch : new int[] {
            RecordBatch.CRC_OFFSET,
            RecordBatch.ATTRIBUTES_OFFSET + 1,
            RecordBatch.MAX_TIMESTAMP_OFFSET,
            RecordBatch.RECORDS_COUNT_OFFSET + 3,
            size / 2,
            size - 1
        }) {
            byte[] damaged = all.clone();
            damaged[at + offsetInBatch] ^= 0x10;
            Map.Entry<Integer, State> recovered = recovered(damaged);
            assertEquals(all.length - at, recovered.getKey(), "byte " + offsetInBatch + " flipped");
            assertEquals(before, recovered.getValue(), "byte " + offsetInBatch + " flipped");
        }
    }

    @Test
    void aBatchWhoseSizeOrMagicCannotBeRightCutsTheSegmentAtIt() throws IOException {
        int broken = BATCHES / 3;
        State before = appended(broken);
        byte[] all = workload.bytes(BATCHES);
        int at = workload.position(broken);
        for (int badSize : new int[] {0, 13, 48, 1 << 30, -5}) {
            byte[] damaged = all.clone();
            ByteBuffer.wrap(damaged).putInt(at + RecordBatch.LENGTH_OFFSET, badSize);
            Map.Entry<Integer, State> recovered = recovered(damaged);
            assertEquals(all.length - at, recovered.getKey(), "size " + badSize);
            assertEquals(before, recovered.getValue(), "size " + badSize);
        }
        byte[] badMagic = all.clone();
        badMagic[at + RecordBatch.MAGIC_OFFSET] = 3;
        assertEquals(before, recovered(badMagic).getValue());
    }

    @Test
    void recoveryStartsOverFromTheFileWhateverTheIndexesHeld() throws IOException {
        State whole = appended(BATCHES);
        Path work = Files.createDirectories(dir.resolve("stale"));
        // Indexes of a longer, different segment: recovery must replace them, not trust them.
        try (LogSegment other = LogSegment.open(work, 0, new SegmentConfig(64 * 1024, 1, 0), time, 0, false)) {
            for (int n = 0; n < 200; n++) {
                other.append(n, TestBatches.records(TestBatches.simple(n, TestBatches.T0 + n, "x")));
            }
        }
        Files.write(LogFileUtils.logFile(work, 0, ""), workload.bytes(BATCHES));
        ProducerStateManager producers = new ProducerStateFixture(work).stateManager;
        TestEpochs epochs = new TestEpochs();
        try (LogSegment segment = LogSegment.open(work, 0, CONFIG, time, true, 0, false, "")) {
            segment.resizeIndexes(CONFIG.maxIndexSize());
            assertEquals(0, segment.recover(producers, epochs));
            assertEquals(whole, state(segment, producers, epochs.assignments));
        }
    }

    @Test
    void recoveryAssignsOnlyEpochsAboveTheLatestKnown() throws IOException {
        TestEpochs epochs = new TestEpochs();
        epochs.assign(1, 0);
        Path work = Files.createDirectories(dir.resolve("epochs"));
        Files.write(LogFileUtils.logFile(work, 0, ""), workload.bytes(BATCHES));
        try (LogSegment segment = LogSegment.open(work, 0, CONFIG, time, true, 0, false, "")) {
            segment.recover(new ProducerStateFixture(work).stateManager, epochs);
        }
        assertEquals(
                List.of(
                        new TestEpochs.Assignment(1, 0),
                        workload.epochs(BATCHES).getLast()),
                epochs.assignments);
    }
}
