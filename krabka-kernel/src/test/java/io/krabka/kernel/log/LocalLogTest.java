package io.krabka.kernel.log;

import static io.krabka.kernel.log.LogFixture.batches;
import static io.krabka.kernel.log.LogFixture.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.scheduler.MockScheduler;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka's LocalLogTest scenarios: appends, rolls, reads across segments, truncation, deletion, renames. */
class LocalLogTest {

    private static final TopicPartition PARTITION = new TopicPartition("test", 0);

    @TempDir
    Path logDir;

    final TestTime time = new TestTime();
    final MockScheduler scheduler = new MockScheduler(time);
    LocalLog log;

    private LocalLog create(LogConfig config) throws IOException {
        Path dir = logDir.resolve("test-0");
        Files.createDirectories(dir);
        LogSegments segments = new LogSegments(PARTITION);
        segments.add(LocalLog.newSegment(dir, 0, config, time));
        log = new LocalLog(dir, config, segments, 0, new LogOffsetMetadata(0, 0, 0), scheduler, time, PARTITION);
        return log;
    }

    @AfterEach
    void close() throws IOException {
        if (log != null) {
            log.closeHandlers();
        }
    }

    /** Appends one batch of {@code count} records at the log end, as the leader would after validation. */
    private static void append(LocalLog log, int count) throws IOException {
        long base = log.logEndOffset();
        ByteBuffer batch = TestBatches.batch(base, count, TestBatches.T0 + base);
        log.append(base + count - 1, MemoryRecords.readableRecords(batch, "test", 0));
    }

    private static List<Long> offsets(FetchDataInfo info) throws IOException {
        return batches(info).stream()
                .flatMap(b -> b.records(1 << 20).stream())
                .map(r -> r.offset())
                .toList();
    }

    private Stream<String> files() throws IOException {
        try (Stream<Path> files = Files.list(log.dir())) {
            return files.map(p -> p.getFileName().toString()).sorted().toList().stream();
        }
    }

    @Test
    void appendsMoveTheLogEndToTheEndOfTheActiveSegment() throws IOException {
        create(config());
        append(log, 3);
        append(log, 2);
        assertEquals(new LogOffsetMetadata(5, 0, log.segments().activeSegment().size()), log.logEndOffsetMetadata());
        assertEquals(5, log.unflushedMessages());
    }

    @Test
    void readsCrossSegmentsAndStopAtTheBound() throws IOException {
        create(config());
        for (int n = 0; n < 3; n++) {
            append(log, 4);
            log.roll(log.logEndOffset());
        }
        append(log, 4);
        assertEquals(List.of(0L, 4L, 8L, 12L), log.segments().baseOffsets());
        // Every offset reads from its batch; maxLength bounds the bytes; the log end allows everything.
        for (long offset = 0; offset < 16; offset++) {
            FetchDataInfo info = log.read(offset, 1 << 20, false, log.logEndOffsetMetadata(), false);
            assertEquals(offset / 4 * 4, offsets(info).getFirst(), "read at " + offset);
        }
        // A bound in the third segment: the read from the first stops at the first segment's end, a read in the
        // third at the bound's position, a read at the bound is empty.
        LogOffsetMetadata bound = log.convertToOffsetMetadataOrThrow(8);
        assertEquals(new LogOffsetMetadata(8, 8, 0), bound);
        assertEquals(List.of(0L, 1L, 2L, 3L), offsets(log.read(0, 1 << 20, false, bound, false)));
        assertEquals(List.of(), offsets(log.read(8, 1 << 20, false, bound, false)));
        LogOffsetMetadata mid = log.convertToOffsetMetadataOrThrow(12);
        assertEquals(List.of(8L, 9L, 10L, 11L), offsets(log.read(8, 1 << 20, false, mid, false)));
        // A bound known by offset only gives no bytes in its segment.
        assertEquals(List.of(), offsets(log.read(8, 1 << 20, false, new LogOffsetMetadata(12), false)));
        // Past the bound, the offset's own position comes back without bytes.
        FetchDataInfo past = log.read(13, 1 << 20, false, bound, false);
        assertEquals(0, past.records().sizeInBytes());
        assertEquals(12, past.fetchOffsetMetadata().messageOffset());
    }

    @Test
    void maxLengthAndMinOneMessage() throws IOException {
        create(config());
        append(log, 4);
        append(log, 4);
        int first =
                log.segments().activeSegment().log().batches().iterator().next().sizeInBytes();
        assertEquals(List.of(), offsets(log.read(0, first - 1, false, log.logEndOffsetMetadata(), false)));
        assertTrue(
                log.read(0, first - 1, false, log.logEndOffsetMetadata(), false).firstEntryIncomplete());
        assertEquals(List.of(0L, 1L, 2L, 3L), offsets(log.read(0, 1, true, log.logEndOffsetMetadata(), false)));
        assertEquals(
                List.of(0L, 1L, 2L, 3L), offsets(log.read(0, first + 1, false, log.logEndOffsetMetadata(), false)));
    }

    @Test
    void readsOutsideTheLogAreOutOfRangeAndAtTheEndEmpty() throws IOException {
        create(config());
        append(log, 2);
        assertThrows(OffsetOutOfRangeException.class, () -> log.read(3, 100, false, log.logEndOffsetMetadata(), false));
        FetchDataInfo atEnd = log.read(2, 100, false, log.logEndOffsetMetadata(), true);
        assertEquals(0, atEnd.records().sizeInBytes());
        assertEquals(Optional.of(List.of()), atEnd.abortedTransactions());
        log.truncateFullyAndStartAt(10);
        assertThrows(OffsetOutOfRangeException.class, () -> log.read(5, 100, false, log.logEndOffsetMetadata(), false));
    }

    @Test
    void aRollTrimsTheOldSegmentAndStartsAtTheLogEnd() throws IOException {
        create(config("segment.index.bytes", 4096, "index.interval.bytes", 1));
        append(log, 3);
        append(log, 3);
        LogSegment old = log.segments().activeSegment();
        assertEquals(4096 / 8 * 8, Files.size(old.offsetIndex().file()));
        LogSegment rolled = log.roll(0);
        assertEquals(6, rolled.baseOffset());
        assertEquals(
                old.offsetIndex().entries() * 8L, Files.size(old.offsetIndex().file()));
        assertEquals(old.timeIndex().entries() * 12L, Files.size(old.timeIndex().file()));
        assertEquals(new LogOffsetMetadata(6, 6, 0), log.logEndOffsetMetadata());
        // An expected offset below the log end rolls at the log end.
        append(log, 1);
        assertEquals(7, log.roll(2).baseOffset());
    }

    @Test
    void anEmptyActiveSegmentAtTheRollOffsetIsReplaced() throws IOException {
        create(config());
        append(log, 2);
        log.roll(0);
        LogSegment empty = log.segments().activeSegment();
        LogSegment replacement = log.roll(0);
        assertEquals(2, replacement.baseOffset());
        assertTrue(empty.hasSuffix(LogFileUtils.DELETED_FILE_SUFFIX));
        assertEquals(List.of(0L, 2L), log.segments().baseOffsets());
        assertTrue(log.segments().activeSegment() == replacement);
    }

    @Test
    void truncationDeletesLaterSegmentsAfterTheDelayAndCutsTheOneHoldingTheOffset() throws IOException {
        create(config("file.delete.delay.ms", 1000));
        append(log, 5);
        log.roll(0);
        append(log, 5);
        log.roll(0);
        append(log, 5);
        List<LogSegment> deleted = List.copyOf(log.truncateTo(3));
        assertEquals(
                List.of(5L, 10L), deleted.stream().map(LogSegment::baseOffset).toList());
        assertEquals(List.of(0L), log.segments().baseOffsets());
        // A reader that found a segment before the truncation still reads it during the delay.
        assertTrue(files().anyMatch(name -> name.equals("00000000000000000005.log.deleted")));
        assertEquals(5, deleted.getFirst().readNextOffset() - deleted.getFirst().baseOffset());
        scheduler.advance(1000);
        assertTrue(files().noneMatch(name -> name.endsWith(".deleted")));
        // The batch holding offset 3 goes whole: the segment held one batch of five.
        assertEquals(3, log.logEndOffset());
        assertEquals(0, log.segments().activeSegment().size());
        append(log, 1);
        assertEquals(List.of(3L), offsets(log.read(3, 1000, false, log.logEndOffsetMetadata(), false)));
    }

    @Test
    void truncateFullyAndStartAtLeavesOneEmptySegmentThere() throws IOException {
        create(config("file.delete.delay.ms", 0));
        append(log, 5);
        log.roll(0);
        append(log, 5);
        assertEquals(2, log.truncateFullyAndStartAt(42).size());
        assertEquals(List.of(42L), log.segments().baseOffsets());
        assertEquals(new LogOffsetMetadata(42, 42, 0), log.logEndOffsetMetadata());
        scheduler.tick();
        assertEquals(
                List.of("00000000000000000042.index", "00000000000000000042.log", "00000000000000000042.timeindex"),
                files().toList());
    }

    @Test
    void flushMovesNothingButTheCallerMarksIt() throws IOException {
        create(config());
        append(log, 5);
        log.roll(0);
        append(log, 2);
        log.flush(5);
        assertEquals(0, log.recoveryPoint());
        time.sleep(10);
        log.markFlushed(5);
        assertEquals(5, log.recoveryPoint());
        assertEquals(time.millis(), log.lastFlushTime());
        assertEquals(2, log.unflushedMessages());
        log.markFlushed(3);
        assertEquals(5, log.recoveryPoint());
    }

    @Test
    void renamingTheDirectoryTakesTheFilesAlong() throws IOException {
        create(config());
        append(log, 3);
        String deleteName = LogDirNames.logDeleteDirName(PARTITION);
        assertTrue(log.renameDir(deleteName));
        assertFalse(log.renameDir(deleteName));
        assertEquals(logDir.resolve(deleteName), log.dir());
        assertTrue(LogDirNames.isDeleteDir(log.dir()));
        assertEquals(PARTITION, LogDirNames.parseTopicPartitionName(log.dir()));
        append(log, 2);
        assertEquals(
                List.of(0L, 1L, 2L),
                offsets(log.read(0, 1 << 20, false, log.logEndOffsetMetadata(), false))
                        .subList(0, 3));
        assertTrue(Files.exists(log.dir().resolve("00000000000000000000.log")));
    }

    @Test
    void deletingAllSegmentsClosesTheLogAndTheDirectoryGoes() throws IOException {
        create(config());
        append(log, 3);
        assertEquals(1, log.deleteAllSegments().size());
        assertThrows(KafkaStorageException.class, log::checkIfMemoryMappedBufferClosed);
        log.deleteEmptyDir();
        assertFalse(Files.exists(log.dir()));
    }

    @Test
    void partitionDirectoryNamesParseAsKafkas() {
        assertEquals(new TopicPartition("a-b", 12), LogDirNames.parseTopicPartitionName(Path.of("a-b-12")));
        assertEquals(
                new TopicPartition("t", 0),
                LogDirNames.parseTopicPartitionName(Path.of("t-0.0123456789abcdef0123456789abcdef-delete")));
        for (String bad : List.of("topic", "-1", "t-", "t-x", "t-0-delete", "t-0.abc-future-x")) {
            assertThrows(IllegalArgumentException.class, () -> LogDirNames.parseTopicPartitionName(Path.of(bad)), bad);
        }
        String longName = LogDirNames.logDeleteDirName(new TopicPartition("x".repeat(249), 7));
        assertEquals(255, longName.length());
        assertTrue(longName.endsWith("-delete"));
    }

    @Test
    void closedLogsRefuseWork() throws IOException {
        create(config());
        append(log, 1);
        log.close();
        assertThrows(KafkaStorageException.class, () -> log.roll(0));
        assertThrows(KafkaStorageException.class, () -> log.markFlushed(1));
        log = null;
    }
}
