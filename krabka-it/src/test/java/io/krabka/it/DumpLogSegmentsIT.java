package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.it.DumpedBatch.DumpedRecord;
import io.krabka.it.FileDump.AbortedTxnEntry;
import io.krabka.it.FileDump.LogDump;
import io.krabka.it.FileDump.OffsetIndexDump;
import io.krabka.it.FileDump.TimeIndexDump;
import io.krabka.it.FileDump.TxnIndexDump;
import io.krabka.it.LogEntry.Data;
import io.krabka.it.LogEntry.HeaderEntry;
import io.krabka.it.LogEntry.Marker;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka 4.4's DumpLogSegments as the judge of files: on Kafka's own files it reports no error and dumps exactly the
 * produced logs, so that "no error" on Krabka's files will mean something; see {@link DumpLogSegmentsCorruptionIT}
 * for what it reports on broken ones.
 */
@ExtendWith(KafkaLogs.class)
class DumpLogSegmentsIT {
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path work;

    private static DumpLogSegments dumpLogSegments;

    @BeforeAll
    static void runner() throws IOException {
        dumpLogSegments = new DumpLogSegments(work.resolve("dump-log-segments"));
    }

    @Test
    void kafkasOwnFilesPassEveryCheckAndDumpAsExactlyTheProducedLogs(KafkaLog log) throws Exception {
        List<Path> files = new ArrayList<>();
        for (TopicPartition partition : log.produced().keySet()) {
            files.addAll(log.partition(partition).dumpable());
        }
        DumpCheck check = dumpLogSegments.check(files);
        assertEquals(List.of(), check.errors(), check::describe);
        for (TopicPartition partition : log.produced().keySet()) {
            PartitionFiles partitionFiles = log.partition(partition);
            DecodedPartition decoded = DecodedPartition.decode(partitionFiles);
            List<DumpedBatch> batches = new ArrayList<>();
            for (PartitionFiles.SegmentFiles segment : partitionFiles.segments()) {
                LogDump dump = check.deepIteration().log(segment.log());
                assertEquals(segment.baseOffset(), dump.startOffset());
                batches.addAll(dump.batches());
                assertTrue(
                        check.sanityCheck()
                                .dump(segment.offsetIndex(), OffsetIndexDump.class)
                                .filter(d -> d.passedSanityCheck() || d.empty())
                                .isPresent(),
                        () -> segment.offsetIndex() + ": " + check.describe());
                assertTrue(
                        check.sanityCheck()
                                .dump(segment.timeIndex(), TimeIndexDump.class)
                                .filter(TimeIndexDump::passedSanityCheck)
                                .isPresent(),
                        () -> segment.timeIndex() + ": " + check.describe());
            }
            assertEquals(
                    decoded.batches().stream().map(b -> b.compression().name).toList(),
                    batches.stream().map(DumpedBatch::compression).toList(),
                    partition::toString);
            assertEquals(
                    decoded.batches().stream().map(b -> b.records().size()).toList(),
                    batches.stream().map(DumpedBatch::count).toList(),
                    partition::toString);
            List<DumpedRecord> records =
                    batches.stream().flatMap(b -> b.records().stream()).toList();
            List<LogEntry> produced = log.produced().get(partition).entries();
            assertEquals(produced.size(), records.size(), partition::toString);
            for (int offset = 0; offset < records.size(); offset++) {
                assertDumped(partition, offset, produced.get(offset), records.get(offset));
            }
        }
    }

    @Test
    void theTransactionIndexesHoldExactlyTheAbortedTransactions(KafkaLog log) throws Exception {
        for (TopicPartition partition : KafkaLogWorkload.partitions(KafkaLogWorkload.TRANSACTIONS)) {
            List<Path> txnIndexes = log.partition(partition).segments().stream()
                    .flatMap(s -> s.txnIndex().stream())
                    .toList();
            DumpReport report = dumpLogSegments.dump(Set.of(), txnIndexes);
            assertEquals(List.of(), report.errors(), report::describe);
            List<String> dumped = txnIndexes.stream()
                    .flatMap(f -> report.dump(f, TxnIndexDump.class).orElseThrow().abortedTxns().stream())
                    .map(t -> t.firstOffset() + "-" + t.lastOffset())
                    .toList();
            assertEquals(abortedRanges(log.produced().get(partition).entries()), dumped, partition::toString);
            assertTrue(
                    txnIndexes.stream()
                            .flatMap(f -> report.dump(f, TxnIndexDump.class).orElseThrow().abortedTxns().stream())
                            .mapToLong(AbortedTxnEntry::lastStableOffset)
                            .allMatch(o -> o > 0),
                    partition::toString);
        }
    }

    /**
     * A killed broker leaves the indexes of each active segment preallocated, zeros after the entries written (or,
     * killed while rolling it, trimmed). DumpLogSegments reads the first slot of an index with no entry as an entry
     * (the base offset, at position 0 or with timestamp 0) and reports it where the first batch does not match it;
     * and the broker's sanity check fails a time index whose last slot (a zero one) is below its first timestamp.
     * Killed during a roll, Kafka leaves the new segment's producer snapshot empty (it writes snapshots in place),
     * which DumpLogSegments cannot read. These are the exact errors: a recovering log must rebuild those files, as
     * Kafka does.
     */
    @Test
    void killedKafkasFilesFailOnlyWhereTheActiveSegmentsIndexesArePreallocated(@KafkaLogs.Killed KafkaLog log)
            throws Exception {
        List<Path> files = new ArrayList<>();
        List<DumpError> expectedDeep = new ArrayList<>();
        List<Path> expectedInsane = new ArrayList<>();
        for (TopicPartition partition : log.produced().keySet()) {
            PartitionFiles partitionFiles = log.partition(partition);
            files.addAll(partitionFiles.dumpable());
            PartitionFiles.SegmentFiles active = partitionFiles.activeSegment();
            long base = active.baseOffset();
            Path rollSnapshot = partitionFiles
                    .dir()
                    .resolve("%020d.snapshot".formatted(base))
                    .toAbsolutePath()
                    .normalize();
            if (Files.exists(rollSnapshot) && Files.size(rollSnapshot) == 0) {
                expectedDeep.add(
                        new DumpError.CorruptSnapshot(rollSnapshot, "Snapshot failed schema validation: null"));
            }
            Path index = active.offsetIndex().toAbsolutePath().normalize();
            Path timeIndex = active.timeIndex().toAbsolutePath().normalize();
            List<LoggedBatch> batches = LoggedBatch.decode(
                    Files.readAllBytes(active.log()), active.log().toString());
            if (batches.isEmpty()) {
                // Just rolled: Kafka creates a segment's indexes when it first uses them, usually at its first append;
                // but the next append's roll checks may open them just before the kill lands, leaving them
                // preallocated with no entry and no batch to check them against.
                files.remove(active.offsetIndex());
                files.remove(active.timeIndex());
                continue;
            }
            LoggedBatch first = batches.getFirst();
            if (slots(index, 8) > 0 && longAt(index, 0) == 0 && first.lastOffset() != base) {
                expectedDeep.add(new DumpError.OffsetIndexMismatch(index, base, first.lastOffset()));
            }
            long timeSlots = slots(timeIndex, 12);
            if (timeSlots == 0) {
                continue;
            }
            long firstTimestamp = longAt(timeIndex, 0);
            if (firstTimestamp == 0 && first.lastOffset() != base) {
                expectedDeep.add(new DumpError.IndexedOffsetNotFound(timeIndex, base, first.lastOffset()));
            } else if (firstTimestamp == 0) {
                expectedDeep.add(new DumpError.TimestampMismatch(timeIndex, 0, first.maxTimestamp()));
            } else if (longAt(timeIndex, (timeSlots - 1) * 12) < firstTimestamp) {
                expectedInsane.add(timeIndex);
            }
        }
        DumpCheck check = dumpLogSegments.check(files);
        assertEquals(sorted(expectedDeep), sorted(check.deepIteration().errors()), check::describe);
        assertFalse(expectedInsane.isEmpty(), "no active time index holds an entry");
        assertEquals(
                expectedInsane,
                check.sanityCheck().errors().stream().map(DumpError::file).toList(),
                check::describe);
        assertTrue(
                check.sanityCheck().errors().stream()
                        .allMatch(
                                e -> e instanceof DumpError.Aborted a
                                        && a.exception()
                                                .startsWith(
                                                        "org.apache.kafka.storage.internals.log.CorruptIndexException: Corrupt time index found")),
                check::describe);
    }

    /** How many entries of {@code entrySize} an index file has room for; 0 if there is no file. */
    private static long slots(Path index, int entrySize) throws IOException {
        return Files.exists(index) ? Files.size(index) / entrySize : 0;
    }

    /** The 8 bytes at {@code position} of a file, big-endian as Kafka writes them. */
    private static long longAt(Path file, long position) throws IOException {
        try (FileChannel channel = FileChannel.open(file)) {
            ByteBuffer bytes = ByteBuffer.allocate(8);
            channel.read(bytes, position);
            return bytes.flip().getLong();
        }
    }

    private static List<String> sorted(List<DumpError> errors) {
        return errors.stream().map(Object::toString).sorted().toList();
    }

    /** DumpLogSegments prints sizes, header keys and timestamps of a record; control records with their marker. */
    private static void assertDumped(TopicPartition partition, int offset, LogEntry expected, DumpedRecord record) {
        String where = partition + " at offset " + offset;
        assertEquals(offset, record.offset(), where);
        switch (expected) {
            case Data data -> {
                assertEquals(data.key() == null ? -1 : data.key().length, record.keySize(), where);
                assertEquals(data.value() == null ? -1 : data.value().length, record.valueSize(), where);
                assertEquals(data.timestamp(), record.timestamp(), where);
                assertEquals(
                        data.headers().stream().map(HeaderEntry::key).collect(Collectors.joining(",")),
                        record.headerKeys(),
                        where);
                assertEquals("", record.control(), where);
            }
            case Marker marker ->
                assertTrue(
                        record.control().startsWith("endTxnMarker: " + marker.type() + " coordinatorEpoch: "),
                        () -> where + ": " + record);
        }
    }

    /** Each aborted transaction as {@code first-last}: its first record to its ABORT marker. */
    private static List<String> abortedRanges(List<LogEntry> entries) {
        List<String> ranges = new ArrayList<>();
        int first = -1;
        for (int offset = 0; offset < entries.size(); offset++) {
            LogEntry entry = entries.get(offset);
            if (entry instanceof Data data && data.transactional() && first < 0) {
                first = offset;
            } else if (entry instanceof Marker marker) {
                if (marker.type() == ControlRecordType.ABORT) {
                    ranges.add(first + "-" + offset);
                }
                first = -1;
            }
        }
        return ranges;
    }
}
