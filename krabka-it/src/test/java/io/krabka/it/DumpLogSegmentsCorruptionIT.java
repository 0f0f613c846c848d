package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.it.DumpError.Aborted;
import io.krabka.it.DumpError.CorruptSnapshot;
import io.krabka.it.DumpError.InvalidBatch;
import io.krabka.it.DumpError.InvalidBytes;
import io.krabka.it.DumpError.NonConsecutiveOffsets;
import io.krabka.it.DumpError.OffsetIndexMismatch;
import io.krabka.it.DumpError.TimestampMismatch;
import io.krabka.it.DumpLogSegments.Option;
import io.krabka.it.PartitionFiles.SegmentFiles;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.record.internal.CompressionType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * DumpLogSegments reports what is wrong with deliberately broken copies of Kafka's own files, each kind of damage
 * as the error it names, and nothing else: so that its silence on Krabka's files is a judgement. Each test breaks a
 * copy of one segment of the clean log.
 */
@ExtendWith(KafkaLogs.class)
class DumpLogSegmentsCorruptionIT {
    /** Where a v2 batch's CRC starts: after base offset (8), length (4), partition leader epoch (4) and magic (1). */
    private static final int CRC_POSITION = 17;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path work;

    private static DumpLogSegments dumpLogSegments;
    private static KafkaLog log;

    @BeforeAll
    static void runner(KafkaLog clean) throws IOException {
        dumpLogSegments = new DumpLogSegments(work.resolve("dump-log-segments"));
        log = clean;
    }

    @Test
    void aFlippedCrcByteMakesItsBatchInvalidAndOnlyIt(@TempDir Path dir) throws Exception {
        SegmentFiles segment = copy(CompressionType.NONE, 0, dir);
        List<LoggedBatch> batches = batches(segment);
        LoggedBatch second = batches.get(1);
        flip(segment.log(), second.position() + CRC_POSITION);
        DumpReport report = dumpLogSegments.dump(Set.of(Option.DEEP_ITERATION), List.of(segment.log()));
        assertEquals(
                List.of(new InvalidBatch(absolute(segment.log()), second.position(), second.baseOffset())),
                report.errors(),
                report::describe);
        assertEquals(batches.size(), report.log(segment.log()).batches().size(), report::describe);
    }

    @Test
    void aBatchTornAtTheEndLeavesInvalidBytes(@TempDir Path dir) throws Exception {
        SegmentFiles segment = copy(CompressionType.ZSTD, 0, dir);
        List<LoggedBatch> batches = batches(segment);
        LoggedBatch last = batches.getLast();
        try (RandomAccessFile file = new RandomAccessFile(segment.log().toFile(), "rw")) {
            file.setLength(last.position() + last.sizeInBytes() / 2);
        }
        DumpReport report = dumpLogSegments.dump(Set.of(Option.DEEP_ITERATION), List.of(segment.log()));
        assertEquals(
                List.of(new InvalidBytes(absolute(segment.log()), last.sizeInBytes() / 2)),
                report.errors(),
                report::describe);
        assertEquals(batches.size() - 1, report.log(segment.log()).batches().size(), report::describe);
    }

    @Test
    void anOffsetIndexEntryNotAtItsBatchIsAMismatch(@TempDir Path dir) throws Exception {
        SegmentFiles segment = copy(CompressionType.NONE, 1, dir);
        ByteBuffer index = ByteBuffer.wrap(Files.readAllBytes(segment.offsetIndex()));
        assertTrue(index.limit() >= 16, segment::toString);
        int relativeOffset = index.getInt(8);
        int position = index.getInt(12);
        index.putInt(8, relativeOffset - 1);
        Files.write(segment.offsetIndex(), index.array());
        LoggedBatch there = batches(segment).stream()
                .filter(b -> b.position() == position)
                .findFirst()
                .orElseThrow();
        DumpReport report = dumpLogSegments.dump(Set.of(Option.VERIFY_INDEX_ONLY), List.of(segment.offsetIndex()));
        assertEquals(
                List.of(new OffsetIndexMismatch(
                        absolute(segment.offsetIndex()),
                        segment.baseOffset() + relativeOffset - 1,
                        there.lastOffset())),
                report.errors(),
                report::describe);
    }

    @Test
    void anIndexWhoseSizeIsNoMultipleOfItsEntryFailsTheSanityCheck(@TempDir Path dir) throws Exception {
        SegmentFiles segment = copy(CompressionType.GZIP, 0, dir);
        try (RandomAccessFile file = new RandomAccessFile(segment.offsetIndex().toFile(), "rw")) {
            file.setLength(file.length() - 3);
        }
        DumpReport report = dumpLogSegments.dump(
                Set.of(Option.INDEX_SANITY_CHECK), List.of(segment.offsetIndex(), segment.timeIndex()));
        assertEquals(1, report.errors().size(), report::describe);
        Aborted aborted = (Aborted) report.errors().getFirst();
        assertEquals(absolute(segment.offsetIndex()), aborted.file());
        assertTrue(
                aborted.exception().startsWith("org.apache.kafka.storage.internals.log.CorruptIndexException: ")
                        && aborted.exception().endsWith("neither positive nor a multiple of 8"),
                report::describe);
        // The time index after it is still checked.
        assertTrue(
                report.dump(segment.timeIndex(), FileDump.TimeIndexDump.class)
                        .orElseThrow()
                        .passedSanityCheck(),
                report::describe);
    }

    @Test
    void aTimeIndexEntryThatIsNotItsBatchsMaxTimestampIsAMismatch(@TempDir Path dir) throws Exception {
        SegmentFiles segment = copy(CompressionType.LZ4, 1, dir);
        ByteBuffer index = ByteBuffer.wrap(Files.readAllBytes(segment.timeIndex()));
        long timestamp = index.getLong(0);
        index.putLong(0, timestamp - 1);
        Files.write(segment.timeIndex(), index.array());
        DumpReport report = dumpLogSegments.dump(Set.of(Option.VERIFY_INDEX_ONLY), List.of(segment.timeIndex()));
        assertEquals(
                List.of(new TimestampMismatch(absolute(segment.timeIndex()), timestamp - 1, timestamp)),
                report.errors(),
                report::describe);
    }

    @Test
    void aCorruptProducerSnapshotIsReported(@TempDir Path dir) throws Exception {
        PartitionFiles files =
                log.partition(new TopicPartition(KafkaLogWorkload.compressedTopic(CompressionType.SNAPPY), 0));
        Path snapshot = Files.copy(
                files.producerSnapshots().getFirst(),
                dir.resolve(files.producerSnapshots().getFirst().getFileName()));
        flip(snapshot, (int) Files.size(snapshot) / 2);
        DumpReport report = dumpLogSegments.dump(Set.of(), List.of(snapshot));
        assertEquals(1, report.errors().size(), report::describe);
        assertTrue(
                report.errors().getFirst() instanceof CorruptSnapshot c
                        && c.file().equals(absolute(snapshot))
                        && c.message().startsWith("Snapshot is corrupt (CRC is no longer valid)."),
                report::describe);
    }

    /**
     * A batch it cannot decompress stops DumpLogSegments; the runner still judges the files before it (whose
     * summaries the stop lost) and after it.
     */
    @Test
    void everyFileIsJudgedAroundOneThatStopsDumpLogSegments(@TempDir Path dir) throws Exception {
        SegmentFiles renumbered = copy(CompressionType.NONE, 0, dir.resolve("before"));
        List<LoggedBatch> batches = batches(renumbered);
        // The base offset is outside the CRC: the batch stays valid, its offsets jump ahead by 5 and back.
        LoggedBatch second = batches.get(1);
        ByteBuffer log = ByteBuffer.wrap(Files.readAllBytes(renumbered.log()));
        log.putLong(second.position(), second.baseOffset() + 5);
        Files.write(renumbered.log(), log.array());

        SegmentFiles gzip = copy(CompressionType.GZIP, 0, dir.resolve("stopping"));
        LoggedBatch first = batches(gzip).getFirst();
        flip(gzip.log(), first.position() + first.sizeInBytes() - 1); // the gzip trailer
        SegmentFiles after = copy(CompressionType.NONE, 1, dir.resolve("after"));
        ByteBuffer index = ByteBuffer.wrap(Files.readAllBytes(after.offsetIndex()));
        index.putInt(0, index.getInt(0) + 1);
        Files.write(after.offsetIndex(), index.array());

        DumpReport report = dumpLogSegments.dump(
                Set.of(Option.DEEP_ITERATION, Option.VERIFY_INDEX_ONLY),
                List.of(renumbered.log(), gzip.log(), after.log(), after.offsetIndex()));
        List<DumpError> errors = report.errors();
        assertEquals(5, errors.size(), report::describe);
        assertEquals(
                List.of(
                        new NonConsecutiveOffsets(
                                absolute(renumbered.log()), batches.get(0).lastOffset(), second.baseOffset() + 5),
                        new NonConsecutiveOffsets(
                                absolute(renumbered.log()),
                                second.lastOffset() + 5,
                                batches.get(2).baseOffset()),
                        new InvalidBatch(absolute(gzip.log()), first.position(), first.baseOffset())),
                errors.subList(0, 3),
                report::describe);
        assertTrue(
                errors.get(3) instanceof Aborted a
                        && a.file().equals(absolute(gzip.log()))
                        && a.cause().startsWith("java.util.zip.ZipException"),
                report::describe);
        assertTrue(
                errors.get(4) instanceof OffsetIndexMismatch m && m.file().equals(absolute(after.offsetIndex())),
                report::describe);
        assertEquals(batches(after).size(), report.log(after.log()).batches().size(), report::describe);
    }

    /** A copy of the {@code n}th segment of partition 0 of a compressed topic, every file of it, in {@code dir}. */
    private static SegmentFiles copy(CompressionType type, int n, Path dir) throws IOException {
        SegmentFiles segment = log.partition(new TopicPartition(KafkaLogWorkload.compressedTopic(type), 0))
                .segments()
                .get(n);
        Files.createDirectories(dir);
        for (Path file : segment.all()) {
            Files.copy(file, dir.resolve(file.getFileName()));
        }
        return new SegmentFiles(
                segment.baseOffset(),
                dir.resolve(segment.log().getFileName()),
                dir.resolve(segment.offsetIndex().getFileName()),
                dir.resolve(segment.timeIndex().getFileName()),
                Optional.empty());
    }

    private static List<LoggedBatch> batches(SegmentFiles segment) throws IOException {
        return LoggedBatch.decode(
                Files.readAllBytes(segment.log()), segment.log().toString());
    }

    private static void flip(Path file, int position) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[position] ^= (byte) 0xFF;
        Files.write(file, bytes);
    }

    private static Path absolute(Path file) {
        return file.toAbsolutePath().normalize();
    }
}
