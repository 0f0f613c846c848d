package io.krabka.kernel.log;

import static io.krabka.kernel.log.TestBatches.T0;
import static io.krabka.kernel.log.TestBatches.batch;
import static io.krabka.kernel.log.TestBatches.bytes;
import static io.krabka.kernel.log.TestBatches.concat;
import static io.krabka.kernel.log.TestBatches.records;
import static io.krabka.kernel.log.TestBatches.simple;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Kafka's LogSegmentTest scenarios, and the index, read and roll rules they rest on. */
class LogSegmentTest {

    @TempDir
    Path dir;

    final TestTime time = new TestTime();
    final List<LogSegment> segments = new ArrayList<>();

    @AfterEach
    void closeAll() throws IOException {
        for (LogSegment segment : segments) {
            segment.close();
        }
    }

    private LogSegment createSegment(long offset) throws IOException {
        return createSegment(offset, 10);
    }

    private LogSegment createSegment(long offset, int indexIntervalBytes) throws IOException {
        return createSegment(offset, new SegmentConfig(1000, indexIntervalBytes, 0));
    }

    private LogSegment createSegment(long offset, SegmentConfig config) throws IOException {
        LogSegment segment = LogSegment.open(dir, offset, config, time, 0, false);
        segments.add(segment);
        return segment;
    }

    /** One batch of the values, each at its own offset from {@code offset}, stamped {@code offset * 10}. */
    private static ByteBuffer values(long offset, String... values) {
        return simple(offset, offset * 10, values);
    }

    private static void append(LogSegment segment, ByteBuffer... batches) throws IOException {
        long last = RecordBatch.at(batches[batches.length - 1], 0, "test", 0).lastOffset();
        segment.append(last, records(batches));
    }

    private static byte[] read(FetchDataInfo info) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(info.records().sizeInBytes());
        info.records().readInto(buffer, 0);
        return buffer.array();
    }

    @ParameterizedTest
    @CsvSource({"0, -2147483648", "0, 2147483648", "1, 0", "100, 10", "2147483648, 0", "2147483648, 4294967296"})
    void anOffsetTheIndexesCannotHoldIsRefused(long baseOffset, long largestOffset) throws IOException {
        LogSegment segment = createSegment(baseOffset);
        MemoryRecords records = records(values(0, "hello"));
        LogSegmentOffsetOverflowException e =
                assertThrows(LogSegmentOffsetOverflowException.class, () -> segment.append(largestOffset, records));
        assertEquals(largestOffset, e.offset());
        assertEquals(baseOffset, e.baseOffset());
        assertEquals(0, segment.size());
    }

    @Test
    void aReadOfAnEmptySegmentFindsNothing() throws IOException {
        assertEquals(Optional.empty(), createSegment(40).read(40, 300));
    }

    @Test
    void aReadBeforeTheFirstOffsetStartsAtTheFirstBatch() throws IOException {
        LogSegment segment = createSegment(40);
        ByteBuffer batch = values(50, "hello", "there", "little", "bee");
        append(segment, batch);
        FetchDataInfo read = segment.read(41, 300).orElseThrow();
        assertArrayEquals(bytes(batch), read(read));
        assertEquals(new LogOffsetMetadata(50, 40, 0), read.fetchOffsetMetadata());
        assertFalse(read.firstEntryIncomplete());
    }

    @Test
    void aReadAfterTheLastOffsetFindsNothing() throws IOException {
        LogSegment segment = createSegment(40);
        append(segment, values(50, "hello", "there"));
        assertEquals(Optional.empty(), segment.read(52, 200));
    }

    @Test
    void aReadFromAGapStartsAtTheNextBatch() throws IOException {
        LogSegment segment = createSegment(40);
        ByteBuffer first = values(50, "hello", "there");
        ByteBuffer second = values(60, "alpha", "beta");
        append(segment, first);
        append(segment, second);
        FetchDataInfo read = segment.read(55, 200).orElseThrow();
        assertArrayEquals(bytes(second), read(read));
        assertEquals(new LogOffsetMetadata(60, 40, first.remaining()), read.fetchOffsetMetadata());
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void withoutAMaxPositionAReadReturnsNoBytesButItsPlace(boolean minOneMessage) throws IOException {
        LogSegment segment = createSegment(40);
        ByteBuffer first = values(50, "hello");
        append(segment, first);
        append(segment, values(51, "there"));
        assertEmpty(segment.read(48, 1, OptionalLong.empty(), minOneMessage), new LogOffsetMetadata(50, 40, 0));
        assertEmpty(segment.read(50, 1, OptionalLong.empty(), minOneMessage), new LogOffsetMetadata(50, 40, 0));
        assertEmpty(
                segment.read(51, 1, OptionalLong.empty(), minOneMessage),
                new LogOffsetMetadata(51, 40, first.remaining()));
        assertEquals(Optional.empty(), segment.read(52, 1, OptionalLong.empty(), minOneMessage));
        assertEquals(Optional.empty(), segment.read(53, 1, OptionalLong.empty(), minOneMessage));
    }

    private static void assertEmpty(Optional<FetchDataInfo> read, LogOffsetMetadata expected) {
        assertEquals(expected, read.orElseThrow().fetchOffsetMetadata());
        assertEquals(0, read.orElseThrow().records().sizeInBytes());
    }

    @Test
    void maxSizeMaxPositionAndMinOneMessageBoundWhatIsRead() throws IOException {
        LogSegment segment = createSegment(40);
        ByteBuffer first = values(40, "a".repeat(100), "b".repeat(100));
        ByteBuffer second = values(42, "c");
        ByteBuffer third = values(43, "d");
        append(segment, first, second, third);
        int all = first.remaining() + second.remaining() + third.remaining();

        FetchDataInfo cut = segment.read(40, 50, segment.size()).orElseThrow();
        assertEquals(50, cut.records().sizeInBytes());
        assertTrue(cut.firstEntryIncomplete());

        FetchDataInfo whole =
                segment.read(41, 50, OptionalLong.of(segment.size()), true).orElseThrow();
        assertArrayEquals(bytes(first), read(whole));
        assertFalse(whole.firstEntryIncomplete());

        FetchDataInfo none = segment.read(40, 0, segment.size()).orElseThrow();
        assertEquals(0, none.records().sizeInBytes());
        assertEquals(new LogOffsetMetadata(40, 40, 0), none.fetchOffsetMetadata());

        FetchDataInfo bounded =
                segment.read(40, all, first.remaining() + second.remaining()).orElseThrow();
        assertArrayEquals(bytes(concat(first, second)), read(bounded));
        FetchDataInfo everything = segment.read(42, Integer.MAX_VALUE).orElseThrow();
        assertArrayEquals(bytes(concat(second, third)), read(everything));
        assertEquals(new LogOffsetMetadata(42, 40, first.remaining()), everything.fetchOffsetMetadata());

        assertThrows(IllegalArgumentException.class, () -> segment.read(40, -1));
    }

    @Test
    void truncatingOffTheLastBatchLeavesTheOneBefore() throws IOException {
        LogSegment segment = createSegment(40);
        long offset = 40;
        for (int i = 0; i < 30; i++) {
            ByteBuffer first = values(offset, "hello");
            ByteBuffer second = values(offset + 1, "hello");
            append(segment, first);
            append(segment, second);
            FetchDataInfo both = segment.read(offset, 10_000).orElseThrow();
            assertArrayEquals(bytes(concat(first, second)), read(both));
            segment.truncateTo(offset + 1);
            FetchDataInfo one = segment.read(offset, 10_000).orElseThrow();
            assertArrayEquals(bytes(first), read(one));
            offset++;
        }
        assertEquals(offset, segment.readNextOffset());
    }

    @Test
    void truncatingAReopenedEmptySegmentGivesItsIndexesRoomAndRestartsItsClock() throws IOException {
        long maxSegmentMs = 300_000;
        LogSegment segment = createSegment(0);
        segment.close();
        segments.remove(segment);
        LogSegment reopened = LogSegment.open(dir, 0, new SegmentConfig(1000, 10, 0), time, true, 0, false, "");
        segments.add(reopened);
        assertEquals(0, reopened.timeIndex().sizeInBytes());
        assertEquals(0, reopened.offsetIndex().sizeInBytes());
        assertTrue(reopened.offsetIndex().isFull(), "a trimmed index has no free slot until resized");

        time.sleep(500);
        reopened.truncateTo(57);
        assertEquals(0, reopened.timeWaitedForRoll(time.millis(), RecordBatch.NO_TIMESTAMP));
        assertFalse(reopened.timeIndex().isFull());
        assertFalse(reopened.offsetIndex().isFull());
        assertFalse(reopened.shouldRoll(
                new RollParams(maxSegmentMs, Integer.MAX_VALUE, RecordBatch.NO_TIMESTAMP, 100L, 1024, time.millis())));
        // An empty segment is not rolled for its age...
        time.sleep(maxSegmentMs + 1);
        assertEquals(maxSegmentMs + 1, reopened.timeWaitedForRoll(time.millis(), RecordBatch.NO_TIMESTAMP));
        assertFalse(reopened.shouldRoll(
                new RollParams(maxSegmentMs, Integer.MAX_VALUE, RecordBatch.NO_TIMESTAMP, 100L, 1024, time.millis())));
        // ...but it is when the next offset does not fit.
        assertTrue(reopened.shouldRoll(new RollParams(
                maxSegmentMs,
                Integer.MAX_VALUE,
                RecordBatch.NO_TIMESTAMP,
                Integer.MAX_VALUE + 200L,
                1024,
                time.millis())));
    }

    @Test
    void truncationReloadsTheLargestTimestampAndTheNextOffset() throws IOException {
        int batchSize = values(0, "hello").remaining();
        LogSegment segment = createSegment(40, 2 * batchSize - 1);
        for (long offset = 40; offset < 70; offset++) {
            append(segment, values(offset, "hello"));
        }
        assertEquals(70, segment.readNextOffset());
        assertEquals(30 / 2 - 1, segment.timeIndex().entries());
        assertEquals(690, segment.largestTimestamp());
        segment.truncateTo(41);
        assertEquals(0, segment.timeIndex().entries());
        assertEquals(400, segment.largestTimestamp());
        assertEquals(41, segment.readNextOffset());
    }

    @Test
    void truncatingEverythingAllowsAppendingTheSameOffsetsAgain() throws IOException {
        LogSegment segment = createSegment(40);
        ByteBuffer untimed = simple(40, RecordBatch.NO_TIMESTAMP, "hello", "there");
        append(segment, untimed);
        time.sleep(500);
        assertEquals(500, segment.timeWaitedForRoll(time.millis(), RecordBatch.NO_TIMESTAMP));
        assertEquals(untimed.remaining(), segment.truncateTo(0));
        assertEquals(0, segment.timeWaitedForRoll(time.millis(), RecordBatch.NO_TIMESTAMP));
        assertFalse(segment.timeIndex().isFull());
        assertFalse(segment.offsetIndex().isFull());
        assertEquals(Optional.empty(), segment.read(0, 1024));
        append(segment, untimed);
        assertEquals(42, segment.readNextOffset());
    }

    @Test
    void findOffsetByTimestampUsesTheIndexThenScans() throws IOException {
        int batchSize = values(0, "msg00").remaining();
        LogSegment segment = createSegment(40, 2 * batchSize - 1);
        for (long offset = 40; offset < 50; offset++) {
            append(segment, values(offset, "msg" + offset));
        }
        assertEquals(490, segment.largestTimestamp());
        assertEquals(42, offsetForTimestamp(segment, 420));
        assertEquals(43, offsetForTimestamp(segment, 421));
        assertEquals(43, offsetForTimestamp(segment, 430));
        assertEquals(44, offsetForTimestamp(segment, 431));
        assertEquals(Optional.empty(), segment.findOffsetByTimestamp(491, 0, Integer.MAX_VALUE));
        assertEquals(41, offsetForTimestamp(segment, 401));
        assertEquals(40, offsetForTimestamp(segment, 399));
        assertEquals(
                45,
                segment.findOffsetByTimestamp(420, 45, Integer.MAX_VALUE)
                        .orElseThrow()
                        .offset());
    }

    private static long offsetForTimestamp(LogSegment segment, long timestamp) throws IOException {
        return segment.findOffsetByTimestamp(timestamp, 0, Integer.MAX_VALUE)
                .orElseThrow()
                .offset();
    }

    @Test
    void theNextOffsetFollowsTheLastBatch() throws IOException {
        LogSegment segment = createSegment(40);
        assertEquals(40, segment.readNextOffset());
        append(segment, values(50, "hello", "there", "you"));
        assertEquals(53, segment.readNextOffset());
    }

    @Test
    void fileSuffixesChangeTogether() throws IOException {
        LogSegment segment = createSegment(40);
        append(segment, values(40, "hello"));
        Path log = segment.log().file();
        Path index = segment.offsetIndex().file();
        Path timeIndex = segment.timeIndex().file();
        Path txnIndex = segment.txnIndex().file();
        assertTrue(segment.hasSuffix(""));
        segment.changeFileSuffixes("", LogFileUtils.DELETED_FILE_SUFFIX);
        assertTrue(segment.hasSuffix(LogFileUtils.DELETED_FILE_SUFFIX));
        for (Path file : List.of(log, index, timeIndex)) {
            assertFalse(Files.exists(file));
            assertTrue(Files.exists(file.resolveSibling(file.getFileName() + LogFileUtils.DELETED_FILE_SUFFIX)));
        }
        assertFalse(
                Files.exists(txnIndex.resolveSibling(txnIndex.getFileName() + LogFileUtils.DELETED_FILE_SUFFIX)),
                "renaming does not make the transaction index");
        assertEquals(
                40, segment.read(40, 100).orElseThrow().fetchOffsetMetadata().messageOffset());
        segment.changeFileSuffixes(LogFileUtils.DELETED_FILE_SUFFIX, "");
        assertTrue(Files.exists(log));
        assertThrows(IllegalArgumentException.class, () -> segment.changeFileSuffixes(".swap", ""));
    }

    @Test
    void recoveryRebuildsACorruptOffsetIndex() throws IOException {
        LogSegment segment = createSegment(0, new SegmentConfig(4096, 1, 0));
        for (long offset = 0; offset < 100; offset++) {
            append(segment, values(offset, Long.toString(offset)));
        }
        Path index = segment.offsetIndex().file();
        byte[] nonsense = new byte[(int) Files.size(index) - 5];
        new java.util.Random(7).nextBytes(nonsense);
        try (var channel = java.nio.channels.FileChannel.open(index, java.nio.file.StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(nonsense), 5);
        }
        segment.recover(new ProducerStateFixture(dir).stateManager, new TestEpochs());
        for (long offset = 0; offset < 100; offset++) {
            FetchDataInfo read = segment.read(offset, 1024).orElseThrow();
            assertEquals(offset, read.fetchOffsetMetadata().messageOffset());
        }
    }

    @Test
    void truncationToAnOffsetInAGapRemovesTheBatchesAfterIt() throws IOException {
        LogSegment segment = createSegment(40);
        append(segment, values(40, "hello", "there"));
        append(segment, values(43, "again", "more"));
        assertEquals(45, segment.readNextOffset());
        segment.truncateTo(42);
        assertEquals(42, segment.readNextOffset());
        assertEquals(Optional.empty(), segment.read(42, 1000));
    }

    @Test
    void theFirstBatchTimestampIsKnownUntilTheSegmentEmpties() throws IOException {
        LogSegment segment = createSegment(40);
        assertEquals(Long.MAX_VALUE, segment.getFirstBatchTimestamp());
        append(segment, simple(40, 1000, "a"));
        append(segment, simple(41, 2000, "b"));
        assertEquals(1000, segment.getFirstBatchTimestamp());
        assertEquals(500, segment.timeWaitedForRoll(time.millis(), 1500));
        segment.truncateTo(40);
        assertEquals(Long.MAX_VALUE, segment.getFirstBatchTimestamp());
        append(segment, simple(40, 3000, "c"));
        assertEquals(3000, segment.getFirstBatchTimestamp());
    }

    @Test
    void aSegmentRollsWhenTheRecordsWouldPassSegmentBytes() throws IOException {
        LogSegment segment = createSegment(0);
        ByteBuffer batch = values(0, "hello");
        append(segment, batch);
        int size = batch.remaining();
        assertFalse(segment.shouldRoll(new RollParams(Long.MAX_VALUE, 2 * size, T0, 1, size, time.millis())));
        assertTrue(segment.shouldRoll(new RollParams(Long.MAX_VALUE, 2 * size - 1, T0, 1, size, time.millis())));
    }

    @Test
    void aSegmentRollsWhenItsFirstBatchIsOlderThanSegmentMsLessTheJitter() throws IOException {
        LogSegment segment = createSegment(0, new SegmentConfig(1000, 10, 100));
        append(segment, simple(0, T0, "a"));
        long maxSegmentMs = 1_000;
        // By the records' timestamps: the next batch's against the first batch's.
        assertFalse(
                segment.shouldRoll(new RollParams(maxSegmentMs, Integer.MAX_VALUE, T0 + 900, 1, 10, time.millis())));
        assertTrue(segment.shouldRoll(new RollParams(maxSegmentMs, Integer.MAX_VALUE, T0 + 901, 1, 10, time.millis())));
        // Without timestamps, by the clock since the segment was made.
        LogSegment untimed = createSegment(100, new SegmentConfig(1000, 10, 100));
        append(untimed, simple(100, RecordBatch.NO_TIMESTAMP, "a"));
        time.sleep(900);
        assertFalse(untimed.shouldRoll(
                new RollParams(maxSegmentMs, Integer.MAX_VALUE, RecordBatch.NO_TIMESTAMP, 101, 10, time.millis())));
        time.sleep(1);
        assertTrue(untimed.shouldRoll(
                new RollParams(maxSegmentMs, Integer.MAX_VALUE, RecordBatch.NO_TIMESTAMP, 101, 10, time.millis())));
    }

    @Test
    void aSegmentRollsWhenAnIndexIsFull() throws IOException {
        LogSegment segment = createSegment(0, new SegmentConfig(4 * TimeIndex.ENTRY_SIZE, 0, 0));
        RollParams params = new RollParams(Long.MAX_VALUE, Integer.MAX_VALUE, T0, 100, 10, time.millis());
        long offset = 0;
        while (!segment.shouldRoll(params)) {
            append(segment, simple(offset, T0 + offset, "v"));
            offset++;
        }
        assertTrue(segment.timeIndex().isFull() || segment.offsetIndex().isFull());
        assertEquals(3, segment.timeIndex().entries(), "the time index keeps its last slot for the roll's entry");
        assertEquals(
                new TimestampOffset(T0 + offset - 1, offset - 1),
                segment.timeIndex().lastEntry());
        segment.onBecomeInactiveSegment();
        assertEquals(3L * TimeIndex.ENTRY_SIZE, Files.size(segment.timeIndex().file()));
    }

    @Test
    void aSegmentRollsWhenTheLastOffsetWouldNotFitItsIndexes() throws IOException {
        LogSegment segment = createSegment(1000);
        append(segment, values(1000, "a"));
        long fits = 1000 + (long) Integer.MAX_VALUE;
        assertFalse(segment.shouldRoll(new RollParams(Long.MAX_VALUE, Integer.MAX_VALUE, T0, fits, 10, time.millis())));
        assertTrue(
                segment.shouldRoll(new RollParams(Long.MAX_VALUE, Integer.MAX_VALUE, T0, fits + 1, 10, time.millis())));
    }

    @Test
    void indexEntriesComeEveryIndexIntervalBytesAtTheBatchesThatCrossIt() throws IOException {
        int interval = 300;
        LogSegment oneByOne = createSegment(0, interval);
        LogSegment together = createSegment(10_000, interval);
        List<ByteBuffer> batches = new ArrayList<>();
        long offset = 0;
        for (int n = 0; n < 40; n++) {
            batches.add(batch(offset, 1 + n % 4, T0 + (n % 7) * 100L));
            offset += 1 + n % 4;
        }
        List<OffsetPosition> expected = new ArrayList<>();
        int bytesSinceLastEntry = 0;
        int position = 0;
        for (ByteBuffer b : batches) {
            RecordBatch view = RecordBatch.at(b, 0, "test", 0);
            if (bytesSinceLastEntry > interval) {
                expected.add(new OffsetPosition(view.lastOffset(), position));
                bytesSinceLastEntry = 0;
            }
            bytesSinceLastEntry += b.remaining();
            position += b.remaining();
            append(oneByOne, b);
        }
        assertEquals(expected, entries(oneByOne.offsetIndex()));
        // One append of all the batches, as a follower's, indexes each batch the same way.
        List<ByteBuffer> moved = batches.stream()
                .map(b -> {
                    ByteBuffer copy = ByteBuffer.wrap(bytes(b));
                    RecordBatch.at(copy, 0, "test", 0)
                            .setLastOffset(RecordBatch.at(b, 0, "test", 0).lastOffset() + 10_000);
                    return copy;
                })
                .toList();
        append(together, moved.toArray(ByteBuffer[]::new));
        assertEquals(
                expected.stream()
                        .map(e -> new OffsetPosition(e.offset() + 10_000, e.position()))
                        .toList(),
                entries(together.offsetIndex()));
        assertEquals(
                timeEntries(oneByOne.timeIndex()).size(),
                timeEntries(together.timeIndex()).size());
        // Every offset is found in the batch that holds it.
        for (long target = 0; target < offset; target++) {
            LogOffsetPosition found = oneByOne.translateOffset(target).orElseThrow();
            RecordBatch holding = RecordBatch.at(
                    ByteBuffer.wrap(
                            read(oneByOne.read(target, Integer.MAX_VALUE).orElseThrow())),
                    0,
                    "read",
                    found.position());
            assertTrue(holding.baseOffset() <= target && target <= holding.lastOffset(), "offset " + target);
        }
    }

    @Test
    void theTimeIndexRecordsTheLargestTimestampSoFarWithTheLastOffsetOfItsBatch() throws IOException {
        LogSegment segment = createSegment(0, 0);
        append(segment, simple(0, T0 + 50, "a", "b")); // max T0+50 at offset 1
        append(segment, simple(2, T0 + 20, "c")); // older: the max stays
        append(segment, simple(3, T0 + 80, "d", "e")); // max T0+80 at offset 4
        append(segment, simple(5, T0 + 10, "f"));
        assertEquals(
                List.of(new TimestampOffset(T0 + 50, 1), new TimestampOffset(T0 + 80, 4)),
                timeEntries(segment.timeIndex()));
        assertEquals(new TimestampOffset(T0 + 80, 4), segment.readMaxTimestampAndOffsetSoFar());
        assertEquals(OptionalLong.of(T0 + 80), segment.largestRecordTimestamp());
    }

    @Test
    void becomingInactiveAppendsTheLargestTimestampAndTrimsTheFiles() throws IOException {
        LogSegment segment = LogSegment.open(dir, 0, new SegmentConfig(1000, 100_000, 0), time, 1 << 20, true);
        segments.add(segment);
        append(segment, simple(0, T0 + 5, "a"), simple(1, T0 + 9, "b"));
        assertEquals(1 << 20, Files.size(segment.log().file()));
        assertEquals(0, segment.timeIndex().entries());
        segment.onBecomeInactiveSegment();
        assertEquals(List.of(new TimestampOffset(T0 + 9, 1)), timeEntries(segment.timeIndex()));
        assertEquals(segment.size(), Files.size(segment.log().file()));
        assertEquals(0, Files.size(segment.offsetIndex().file()));
        assertEquals(TimeIndex.ENTRY_SIZE, Files.size(segment.timeIndex().file()));
        segment.onBecomeInactiveSegment(); // a second time adds nothing
        assertEquals(1, segment.timeIndex().entries());
    }

    @Test
    void aClosedPreallocatedSegmentIsTrimmedAndOpensAgainWithItsBatches() throws IOException {
        LogSegment segment = LogSegment.open(dir, 40, new SegmentConfig(1000, 10, 0), time, 512 * 1024, true);
        ByteBuffer first = values(50, "hello", "there");
        ByteBuffer second = values(60, "alpha", "beta");
        append(segment, first);
        append(segment, second);
        assertArrayEquals(bytes(second), read(segment.read(55, 200).orElseThrow()));
        int size = segment.size();
        segment.close();
        segment.close(); // idempotent
        assertEquals(size, Files.size(LogFileUtils.logFile(dir, 40, "")));
        try (TimeIndex closed = new TimeIndex(LogFileUtils.timeIndexFile(dir, 40, ""), 40, 1000, false)) {
            closed.sanityCheck();
            assertEquals(new TimestampOffset(600, 61), closed.lastEntry());
        }

        LogSegment reopened =
                LogSegment.open(dir, 40, new SegmentConfig(1000, 10, 0), time, true, 512 * 1024, true, "");
        segments.add(reopened);
        reopened.resizeIndexes(1000);
        assertEquals(size, reopened.size());
        assertArrayEquals(bytes(second), read(reopened.read(55, 200).orElseThrow()));
        assertEquals(62, reopened.readNextOffset());
        assertEquals(600, reopened.largestTimestamp());
        append(reopened, values(62, "more"));
        assertEquals(63, reopened.readNextOffset());
    }

    @Test
    void deletionRemovesTheFourFiles() throws IOException {
        LogSegment segment = createSegment(40);
        append(segment, values(40, "a"));
        segment.updateTxnIndex(new CompletedTxn(1, 40, 40, true), 40);
        assertFalse(segment.deleted());
        segment.deleteIfExists();
        assertTrue(segment.deleted());
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count());
        }
        segment.deleteIfExists(); // nothing left to delete
    }

    @Test
    void filesOfASegmentAreDeletedByNameAndSuffix() throws IOException {
        LogSegment segment = LogSegment.open(dir, 7, new SegmentConfig(1000, 10, 0), time, false, 0, false, ".cleaned");
        append(segment, values(7, "a"));
        segment.updateTxnIndex(new CompletedTxn(1, 7, 7, true), 7);
        segment.close();
        LogSegment.deleteIfExists(dir, 7, ".cleaned");
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void modificationTimesAndTheLargestTimestampWithoutRecordTimestamps() throws IOException {
        LogSegment segment = createSegment(40);
        append(segment, simple(40, RecordBatch.NO_TIMESTAMP, "a"));
        segment.setLastModified(1_234_000L);
        assertEquals(1_234_000L, segment.lastModified());
        assertEquals(
                1_234_000L,
                Files.getLastModifiedTime(segment.offsetIndex().file()).toMillis());
        assertEquals(OptionalLong.empty(), segment.largestRecordTimestamp());
        assertEquals(1_234_000L, segment.largestTimestamp());
    }

    @Test
    void aSegmentHoldingAnOffsetItsIndexesCannotHoldOverflows() throws IOException {
        long base = 100;
        try (FileRecords log = FileRecords.open(LogFileUtils.logFile(dir, base, ""))) {
            log.append(values(base, "a"));
            log.append(values(base + Integer.MAX_VALUE + 1L, "b"));
        }
        LogSegment segment = LogSegment.open(dir, base, new SegmentConfig(1000, 10, 0), time, true, 0, false, "");
        segments.add(segment);
        assertTrue(segment.hasOverflow());
        LogSegmentOffsetOverflowException e = assertThrows(
                LogSegmentOffsetOverflowException.class,
                () -> segment.recover(new ProducerStateFixture(dir).stateManager, new TestEpochs()));
        assertEquals(base + Integer.MAX_VALUE + 1L, e.offset());
    }

    @Test
    void theTransactionIndexCollectsAbortsOfARange() throws IOException {
        LogSegment segment = createSegment(0);
        segment.updateTxnIndex(new CompletedTxn(1, 0, 10, true), 0);
        segment.updateTxnIndex(new CompletedTxn(2, 5, 15, false), 0);
        segment.updateTxnIndex(new CompletedTxn(3, 12, 20, true), 12);
        assertEquals(
                List.of(new AbortedTxn(1, 0, 10, 0), new AbortedTxn(3, 12, 20, 12)),
                segment.collectAbortedTxns(0, 30).abortedTransactions());
        assertEquals(
                List.of(new AbortedTxn(3, 12, 20, 12)),
                segment.collectAbortedTxns(11, 30).abortedTransactions());
    }

    @Test
    void theFetchUpperBoundIsTheFirstIndexEntryPastTheFetch() throws IOException {
        LogSegment segment = createSegment(0, 0);
        int position = 0;
        List<Integer> positions = new ArrayList<>();
        for (long offset = 0; offset < 10; offset++) {
            positions.add(position);
            ByteBuffer batch = values(offset, "value-" + offset);
            append(segment, batch);
            position += batch.remaining();
        }
        // Entries for batches 1..9 (the first batch is never indexed), each at its batch's position.
        OffsetPosition start = new OffsetPosition(2, positions.get(2));
        assertEquals(OptionalLong.of(2), segment.fetchUpperBoundOffset(start, 0));
        assertEquals(OptionalLong.of(3), segment.fetchUpperBoundOffset(start, 1));
        assertEquals(OptionalLong.of(5), segment.fetchUpperBoundOffset(start, positions.get(5) - positions.get(2)));
        assertEquals(OptionalLong.empty(), segment.fetchUpperBoundOffset(start, position));
    }

    static List<OffsetPosition> entries(OffsetIndex index) {
        List<OffsetPosition> entries = new ArrayList<>();
        for (int n = 0; n < index.entries(); n++) {
            entries.add(index.entry(n));
        }
        return entries;
    }

    static List<TimestampOffset> timeEntries(TimeIndex index) {
        List<TimestampOffset> entries = new ArrayList<>();
        for (int n = 0; n < index.entries(); n++) {
            entries.add(index.entry(n));
        }
        return entries;
    }
}
