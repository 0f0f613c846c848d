package io.krabka.kernel.restore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.archive.ArchiveLayout;
import io.krabka.kernel.format.InitialQuorum;
import io.krabka.kernel.log.FileChannelBatch;
import io.krabka.kernel.log.FileRecords;
import io.krabka.kernel.log.OffsetIndex;
import io.krabka.kernel.log.checkpoint.LeaderEpochCheckpointFile;
import io.krabka.kernel.log.checkpoint.MetaProperties;
import io.krabka.kernel.log.checkpoint.OffsetCheckpointFile;
import io.krabka.kernel.log.checkpoint.PartitionMetadataFile;
import io.krabka.kernel.plugin.PluginDiscovery;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.restore.bound.BoundArguments;
import io.krabka.kernel.restore.bound.OffsetBound;
import io.krabka.kernel.restore.bound.ProducerExclusion;
import io.krabka.kernel.restore.bound.RestoreBounds;
import io.krabka.kernel.restore.bound.TimestampBound;
import io.krabka.kernel.restore.report.PartitionReport;
import io.krabka.kernel.restore.report.RestoreReport;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.objectstore.ObjectStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver end to end over the real local store: an archive of two segments per partition restored whole, to
 * an offset, to a time, without a producer; corruption stopping it or skipped; a dirty target refused untouched.
 * The restored files are read back with the log engine (Kafka itself judges them in krabka-it).
 */
class ArchiveRestoreTest {
    private static final Uuid TOPIC_ID = Uuid.fromString("jF8s79t9SrG_PNqlwv7bAA");
    private static final String PREFIX = "archive";
    private static final long PRODUCER = 4711;

    @TempDir
    Path tmp;

    private ObjectStore store;
    private Path logDir;

    @BeforeEach
    void archive() throws Exception {
        store = PluginDiscovery.discover(Path.of("target/test-plugins"))
                .createObjectStore(
                        "local",
                        Map.of(
                                "dir",
                                Files.createDirectory(tmp.resolve("store")).toString()));
        logDir = tmp.resolve("restored");
        for (int partition = 0; partition < 2; partition++) {
            // Segment 0: offsets 0-9 uncompressed, then 10-14 from producer 4711.
            segment(
                    partition,
                    0,
                    new TestSegment()
                            .records(Compression.NONE, 0, 5, TestSegment.T0)
                            .records(Compression.NONE, 5, 5, TestSegment.T0 + 5)
                            .producer(10, 5, TestSegment.T0 + 10, PRODUCER, (short) 0, 0, false)
                            .bytes());
            // Segment 1: offsets 15-29, zstd.
            segment(
                    partition,
                    15,
                    new TestSegment()
                            .records(Compression.of(CompressionType.ZSTD), 15, 10, TestSegment.T0 + 15)
                            .records(Compression.of(CompressionType.ZSTD), 25, 5, TestSegment.T0 + 25)
                            .bytes());
        }
    }

    @AfterEach
    void close() throws Exception {
        store.close();
    }

    private String key(int partition, long start, String suffix) {
        return PREFIX + "/orders-" + partition + "-" + TOPIC_ID + "/" + String.format("%020d", start) + "-"
                + segmentId(partition, start) + "." + suffix;
    }

    private static Uuid segmentId(int partition, long start) {
        return new Uuid(partition + 1, start + 1);
    }

    private void segment(int partition, long start, byte[] log) throws Exception {
        store.put(key(partition, start, "log"), ByteBuffer.wrap(log));
        for (String suffix : List.of("index", "timeindex", "snapshot", "leader_epoch_checkpoint")) {
            store.put(key(partition, start, suffix), ByteBuffer.wrap(new byte[0]));
        }
    }

    private RestoreReport restore(BoundArguments bounds, boolean continueOnCorrupt, boolean dryRun) throws Exception {
        RestoreRequest request = new RestoreRequest(
                ArchiveLayout.underPrefix(PREFIX),
                new RestoreTarget(
                        logDir,
                        "MkU3OEVBNTcwNTJENDM2Qk",
                        1,
                        InitialQuorum.Standalone.parse("127.0.0.1:9093"),
                        "CONTROLLER"),
                Set.of(),
                RestoreBounds.of(bounds, Set.of()),
                SegmentAuthority.UNAUTHENTICATED,
                Optional.empty(),
                Optional.empty(),
                dryRun,
                continueOnCorrupt,
                2);
        return new ArchiveRestore(Clock.systemUTC()).restore(store, request, RestoreProgress.NONE);
    }

    private static BoundArguments none() {
        return new BoundArguments(List.of(), Optional.empty(), List.of(), List.of(), List.of(), List.of());
    }

    /** Every record of a restored partition, read back from its segments in order. */
    private List<Record> records(int partition) throws IOException {
        List<Record> records = new ArrayList<>();
        for (Path log : logs(partition)) {
            try (FileRecords file = FileRecords.open(log)) {
                for (FileChannelBatch batch : file.batches()) {
                    RecordBatch loaded = (RecordBatch) batch.loadFullBatch();
                    loaded.ensureValid();
                    records.addAll(loaded.records(1 << 20));
                }
            }
        }
        return records;
    }

    private List<Path> logs(int partition) throws IOException {
        try (Stream<Path> files = Files.list(logDir.resolve("orders-" + partition))) {
            return files.filter(file -> file.toString().endsWith(".log"))
                    .sorted()
                    .toList();
        }
    }

    private static List<Long> offsets(List<Record> records) {
        return records.stream().map(Record::offset).toList();
    }

    private static List<Long> range(long from, long toInclusive) {
        return java.util.stream.LongStream.rangeClosed(from, toInclusive)
                .boxed()
                .toList();
    }

    @Test
    void wholeArchiveRestoresIntoAFormattedDirectoryWithIndexesAndCheckpoints() throws Exception {
        RestoreReport report = restore(none(), false, false);

        assertEquals(60, report.recordsKept());
        for (int partition = 0; partition < 2; partition++) {
            assertEquals(range(0, 29), offsets(records(partition)));
            Path dir = logDir.resolve("orders-" + partition);
            assertEquals(
                    TOPIC_ID,
                    new PartitionMetadataFile(PartitionMetadataFile.newFile(dir))
                            .read()
                            .topicId());
            assertTrue(Files.exists(dir.resolve("00000000000000000015.index")));
            assertTrue(
                    Files.exists(dir.resolve("00000000000000000015.snapshot")), "a producer snapshot per segment end");
            assertTrue(Files.exists(dir.resolve("00000000000000000030.snapshot")));
            assertEquals(
                    3,
                    new LeaderEpochCheckpointFile(dir.resolve("leader-epoch-checkpoint"))
                            .read()
                            .getFirst()
                            .epoch());
            try (OffsetIndex index = new OffsetIndex(dir.resolve("00000000000000000000.index"), 0, 1 << 20, false)) {
                index.sanityCheck();
            }
        }
        assertEquals(
                Map.of(new TopicPartition("orders", 0), 30L, new TopicPartition("orders", 1), 30L),
                new OffsetCheckpointFile(logDir.resolve("recovery-point-offset-checkpoint")).read());
        assertEquals(1, MetaProperties.read(logDir.resolve("meta.properties")).nodeId());
        assertTrue(Files.isDirectory(logDir.resolve("__cluster_metadata-0")));
        assertFalse(Files.exists(logDir.resolve(ArchiveRestore.STAGING)));
        PartitionReport first = report.partitions().getFirst();
        assertEquals(2, first.segments().size());
        assertEquals(
                5, first.segments().stream().mapToLong(s -> s.batchesKept()).sum());
    }

    @Test
    void toOffsetCutsInsideABatchAndStopsThePartition() throws Exception {
        restore(
                new BoundArguments(
                        List.of(OffsetBound.parse("orders:0=17")),
                        Optional.empty(),
                        List.of(),
                        List.of(),
                        List.of(),
                        List.of()),
                false,
                false);

        assertEquals(range(0, 17), offsets(records(0)));
        assertEquals(range(0, 29), offsets(records(1)));
        assertEquals(
                Map.of(new TopicPartition("orders", 0), 18L, new TopicPartition("orders", 1), 30L),
                new OffsetCheckpointFile(logDir.resolve("replication-offset-checkpoint")).read());
    }

    @Test
    void toTimestampKeepsRecordsStrictlyBeforeTheInstantInEveryPartition() throws Exception {
        restore(
                new BoundArguments(
                        List.of(),
                        Optional.of(TimestampBound.parse(String.valueOf(TestSegment.T0 + 7))),
                        List.of(),
                        List.of(),
                        List.of(),
                        List.of()),
                false,
                false);

        assertEquals(range(0, 6), offsets(records(0)));
        assertEquals(range(0, 6), offsets(records(1)));
        assertEquals(1, logs(0).size(), "the second segment lies wholly past the cut");
    }

    @Test
    void excludedProducerLeavesAnEmptyBatchSoLaterOffsetsStay() throws Exception {
        RestoreReport report = restore(
                new BoundArguments(
                        List.of(),
                        Optional.empty(),
                        List.of(),
                        List.of(),
                        List.of(),
                        List.of(ProducerExclusion.parse(String.valueOf(PRODUCER)))),
                false,
                false);

        List<Long> expected = new ArrayList<>(range(0, 9));
        expected.addAll(range(15, 29));
        assertEquals(expected, offsets(records(0)));
        assertEquals(1, report.partitions().getFirst().batchesEmptied());
        try (FileRecords file = FileRecords.open(logs(0).getFirst())) {
            List<FileChannelBatch> batches = new ArrayList<>();
            file.batches().forEach(batches::add);
            assertEquals(14, batches.getLast().lastOffset(), "the emptied batch still claims offsets 10 to 14");
        }
    }

    @Test
    void flippedByteStopsTheRestoreNamingObjectAndPositionAndLeavesNothing() throws Exception {
        byte[] log = store.read(key(1, 15, "log")).readAllBytes();
        log[log.length - 3] ^= 1;
        store.put(key(1, 15, "log"), ByteBuffer.wrap(log));

        ChecksumMismatchException e =
                assertThrows(ChecksumMismatchException.class, () -> restore(none(), false, false));
        assertEquals(key(1, 15, "log"), e.key());
        assertTrue(e.getMessage().contains("at byte "));
        assertFalse(Files.exists(logDir), "a failed restore leaves no directory behind");
    }

    @Test
    void continueOnCorruptSkipsTheSegmentAndTheRestOfItsPartition() throws Exception {
        byte[] log = store.read(key(1, 0, "log")).readAllBytes();
        store.put(key(1, 0, "log"), ByteBuffer.wrap(java.util.Arrays.copyOf(log, log.length - 10)));

        RestoreReport report = restore(none(), true, false);

        assertEquals(range(0, 29), offsets(records(0)));
        assertEquals(List.of(), offsets(records(1)), "nothing after the torn segment: no hole in the partition");
        assertEquals(1, report.skipped().size());
        assertTrue(report.skipped().getFirst().reason().contains(key(1, 0, "log")));
    }

    @Test
    void missingIndexIsATornCopy() throws Exception {
        store.delete(key(0, 15, "index"));

        TornCopyException e = assertThrows(TornCopyException.class, () -> restore(none(), false, false));
        assertEquals(key(0, 15, "index"), e.key());
    }

    @Test
    void dirtyTargetIsRefusedUntouched() throws Exception {
        Files.createDirectories(logDir);
        Files.writeString(logDir.resolve("keep.txt"), "mine");

        assertThrows(LogDirNotEmptyException.class, () -> restore(none(), false, false));
        assertArrayEquals("mine".getBytes(StandardCharsets.UTF_8), Files.readAllBytes(logDir.resolve("keep.txt")));
        try (Stream<Path> files = Files.list(logDir)) {
            assertEquals(1, files.count());
        }
    }

    @Test
    void dryRunWritesOnlyTheClusterMetadata() throws Exception {
        RestoreReport report = restore(none(), false, true);

        assertTrue(report.dryRun());
        assertEquals(60, report.recordsKept());
        assertTrue(Files.exists(logDir.resolve("meta.properties")));
        assertFalse(Files.exists(logDir.resolve("orders-0")));
    }

    @Test
    void emptyArchiveIsUnreadable() throws Exception {
        RestoreRequest request = new RestoreRequest(
                ArchiveLayout.underPrefix("nothing-here"),
                new RestoreTarget(
                        logDir,
                        "MkU3OEVBNTcwNTJENDM2Qk",
                        1,
                        InitialQuorum.Standalone.parse("127.0.0.1:9093"),
                        "CONTROLLER"),
                Set.of(),
                RestoreBounds.of(none(), Set.of()),
                SegmentAuthority.UNAUTHENTICATED,
                Optional.empty(),
                Optional.empty(),
                false,
                false,
                1);
        assertThrows(
                UnreadableArchiveException.class,
                () -> new ArchiveRestore(Clock.systemUTC()).restore(store, request, RestoreProgress.NONE));
        assertFalse(Files.exists(logDir));
    }
}
