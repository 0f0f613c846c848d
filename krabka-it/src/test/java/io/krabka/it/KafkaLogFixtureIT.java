package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.it.LogEntry.Data;
import io.krabka.it.LogEntry.Marker;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The logs of {@link KafkaLogs} exercise what they promise: Kafka wrote every kind of file, rolled segments by size
 * and by full index, wrote transaction indexes, stopped cleanly or was killed with records in flight. These facts
 * are what the log engine's compatibility tests rest on, so they are checked rather than assumed.
 */
@ExtendWith(KafkaLogs.class)
class KafkaLogFixtureIT {
    /** Kafka's default segment.index.bytes, to which it preallocates the indexes of an active segment. */
    private static final String DEFAULT_INDEX_BYTES = String.valueOf(10 * 1024 * 1024);

    @Test
    void cleanlyStoppedKafkaWroteItsLogDirectoryFilesWithEveryPartitionRecoveredToItsEnd(KafkaLog log)
            throws IOException {
        Properties meta = new Properties();
        try (var in = Files.newBufferedReader(log.file(KafkaLog.META_PROPERTIES))) {
            meta.load(in);
        }
        assertEquals("1", meta.getProperty("version"), () -> "meta.properties of " + log.logDir());
        assertEquals("1", meta.getProperty("node.id"));
        assertTrue(Files.exists(log.file(KafkaLog.CLEAN_SHUTDOWN)), log::toString);
        Map<TopicPartition, Long> recoveryPoints = checkpoint(log.file(KafkaLog.RECOVERY_POINT_CHECKPOINT));
        Map<TopicPartition, Long> highWatermarks = checkpoint(log.file(KafkaLog.REPLICATION_OFFSET_CHECKPOINT));
        log.produced().forEach((partition, produced) -> {
            assertEquals(
                    produced.entries().size(), recoveryPoints.get(partition), () -> partition + "'s recovery point");
            assertEquals(
                    produced.entries().size(), highWatermarks.get(partition), () -> partition + "'s high watermark");
        });
        assertTrue(Files.exists(log.file(KafkaLog.LOG_START_OFFSET_CHECKPOINT)));
    }

    @Test
    void theLogDirectoryHoldsKafkasFilesAndADirectoryPerPartition(KafkaLog log) throws IOException {
        Set<String> expected = new TreeSet<>(Set.of(
                KafkaLog.META_PROPERTIES,
                KafkaLog.RECOVERY_POINT_CHECKPOINT,
                KafkaLog.LOG_START_OFFSET_CHECKPOINT,
                KafkaLog.REPLICATION_OFFSET_CHECKPOINT,
                KafkaLog.CLEANER_OFFSET_CHECKPOINT,
                KafkaLog.CLEAN_SHUTDOWN,
                "__cluster_metadata-0",
                "__transaction_state-0"));
        log.produced().keySet().forEach(p -> expected.add(p.toString()));
        try (Stream<Path> names = Files.list(log.logDir())) {
            assertEquals(
                    expected,
                    names.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new)));
        }
    }

    @Test
    void aCopyOfTheLogIsTheSameLogElsewhere(KafkaLog log, @TempDir Path dir) throws IOException {
        KafkaLog copy = log.copyTo(dir.resolve("copy"));
        assertEquals(log.produced(), copy.produced());
        for (TopicPartition partition : log.produced().keySet()) {
            List<Path> original = log.partition(partition).dumpable();
            List<Path> copied = copy.partition(partition).dumpable();
            assertEquals(original.size(), copied.size(), partition::toString);
            for (int i = 0; i < original.size(); i++) {
                assertEquals(
                        copy.logDir().relativize(copied.get(i)), log.logDir().relativize(original.get(i)));
                assertEquals(-1, Files.mismatch(original.get(i), copied.get(i)), copied.get(i)::toString);
            }
        }
    }

    @Test
    void everyPartitionHasSeveralSegmentsItsMetadataAndAProducerSnapshotAtItsEnd(KafkaLog log) throws IOException {
        for (TopicPartition partition : log.produced().keySet()) {
            PartitionFiles files = log.partition(partition);
            assertTrue(
                    files.segments().size() >= 3,
                    () -> partition + " has " + files.segments().size() + " segments");
            assertTrue(Files.readString(files.partitionMetadata()).contains("topic_id:"), files::toString);
            assertEquals("0", Files.readAllLines(files.leaderEpochCheckpoint()).getFirst(), files::toString);
            long end = log.produced().get(partition).entries().size();
            assertTrue(
                    files.producerSnapshots().stream()
                            .anyMatch(s -> s.getFileName().toString().equals("%020d.snapshot".formatted(end))),
                    () -> partition + " has no snapshot at its end, " + end + ": " + files.producerSnapshots());
        }
    }

    @Test
    void smallSegmentsRollBySizeAndTheSmallIndexTopicRollsOnAFullTimeIndex(KafkaLog log) throws IOException {
        for (CompressionType type : CompressionType.values()) {
            for (TopicPartition partition : KafkaLogWorkload.partitions(KafkaLogWorkload.compressedTopic(type))) {
                for (PartitionFiles.SegmentFiles segment :
                        log.partition(partition).segments()) {
                    assertTrue(Files.size(segment.log()) <= KafkaLogWorkload.SEGMENT_BYTES, segment::toString);
                }
            }
        }
        List<PartitionFiles.SegmentFiles> rolled =
                rolled(log.partition(new TopicPartition(KafkaLogWorkload.SMALL_INDEX, 0)));
        for (PartitionFiles.SegmentFiles segment : rolled) {
            // segment.bytes is the default 1 GiB: only the 1 KiB time index (85 slots, the last kept for the roll) is
            // full.
            assertTrue(
                    Files.size(segment.timeIndex()) >= (1024 / 12 - 1) * 12,
                    () -> segment + ": its time index is not full");
        }
    }

    @Test
    void everyTransactionsPartitionHasTransactionIndexesAndEveryAbortIsInOne(KafkaLog log) throws IOException {
        for (TopicPartition partition : KafkaLogWorkload.partitions(KafkaLogWorkload.TRANSACTIONS)) {
            long aborts = log.produced().get(partition).entries().stream()
                    .filter(e -> e instanceof Marker m && m.type() == ControlRecordType.ABORT)
                    .count();
            long txnIndexes = log.partition(partition).segments().stream()
                    .filter(s -> s.txnIndex().isPresent())
                    .count();
            assertTrue(
                    aborts >= 2 && txnIndexes >= 1,
                    () -> partition + ": " + aborts + " aborts, " + txnIndexes + " transaction indexes");
        }
    }

    @Test
    void killedKafkaLeftTheActiveIndexesPreallocatedNoCleanShutdownFileNoEndSnapshotAndAnOpenTransaction(
            @KafkaLogs.Killed KafkaLog log) throws IOException {
        assertFalse(Files.exists(log.file(KafkaLog.CLEAN_SHUTDOWN)), log::toString);
        int preallocated = 0;
        for (TopicPartition partition : log.produced().keySet()) {
            PartitionFiles.SegmentFiles active = log.partition(partition).activeSegment();
            String indexBytes = log.topics().stream()
                    .filter(t -> t.name().equals(partition.topic()))
                    .findFirst()
                    .orElseThrow()
                    .configs()
                    .getOrDefault("segment.index.bytes", DEFAULT_INDEX_BYTES);
            // Kafka creates the offset index on its first entry: a segment just rolled has none. The crash partitions
            // took appends up to the kill and may have been rolling; the others were idle.
            if (Files.exists(active.offsetIndex())
                    && log.produced().get(partition).complete()) {
                assertEquals(Long.parseLong(indexBytes), Files.size(active.offsetIndex()), active::toString);
                preallocated++;
            }
            ProducedLog produced = log.produced().get(partition);
            if (produced.complete()) {
                String atEnd = "%020d.snapshot".formatted(produced.entries().size());
                assertTrue(
                        log.partition(partition).producerSnapshots().stream()
                                .noneMatch(s -> s.getFileName().toString().equals(atEnd)),
                        () -> partition + " has a snapshot at its end, as after a clean shutdown");
            }
        }
        assertTrue(preallocated > 0, "no active segment has an offset index");
        TopicPartition open = new TopicPartition(KafkaLogWriter.CRASH, 0);
        ProducedLog crash = log.produced().get(open);
        assertFalse(crash.complete());
        List<LogEntry> entries = crash.entries();
        assertTrue(
                entries.subList(0, 60).stream().allMatch(e -> e instanceof Data d && d.transactional()),
                open::toString);
        assertTrue(entries.stream().noneMatch(e -> e instanceof Marker), () -> open + " holds a transaction marker");
        assertTrue(
                entries.size() > 1000
                        && log.produced()
                                        .get(new TopicPartition(KafkaLogWriter.CRASH, 1))
                                        .entries()
                                        .size()
                                > 1000,
                "the broker was killed before the load built up");
    }

    /** The segments Kafka rolled: all but the active one. */
    private static List<PartitionFiles.SegmentFiles> rolled(PartitionFiles files) {
        assertTrue(files.segments().size() >= 3, files::toString);
        return files.segments().subList(0, files.segments().size() - 1);
    }

    /** An offset checkpoint: version 0, the count, then {@code topic partition offset} lines. */
    private static Map<TopicPartition, Long> checkpoint(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        assertEquals("0", lines.get(0), file::toString);
        assertEquals(lines.size() - 2, Integer.parseInt(lines.get(1)), file::toString);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        for (String line : lines.subList(2, lines.size())) {
            String[] parts = line.split(" ");
            offsets.put(new TopicPartition(parts[0], Integer.parseInt(parts[1])), Long.parseLong(parts[2]));
        }
        return offsets;
    }
}
