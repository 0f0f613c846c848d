package io.krabka.plugin.rsm.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.InvalidRangeException;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalRemoteStorageManagerTest {
    private static final String PARTITION_DIR = "kafka-tiered-storage/tieredTopic-0-jF8s79t9SrG_PNqlwv7bAA";
    private static final String PREFIX = PARTITION_DIR + "/00000000000000000000-knnxbs3FSRyKdPcSAOQC-w";

    @TempDir
    Path dir;

    @TempDir
    Path local;

    private LocalRemoteStorageManager rsm;

    @BeforeEach
    void configure() {
        rsm = configured(Map.of());
    }

    @AfterEach
    void close() throws IOException {
        rsm.close();
    }

    private LocalRemoteStorageManager configured(Map<String, String> extra) {
        LocalRemoteStorageManager manager = new LocalRemoteStorageManager();
        Map<String, String> configs = new HashMap<>(extra);
        configs.put("dir", dir.toString());
        manager.configure(configs);
        return manager;
    }

    private static byte[] read(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }

    /** Every file and directory under {@code dir}, relative, directories with a trailing slash. */
    private Set<String> tree(String under) throws IOException {
        Path top = dir.resolve(under);
        try (Stream<Path> paths = Files.walk(top)) {
            return paths.filter(path -> !path.equals(top))
                    .map(path -> dir.relativize(path) + (Files.isDirectory(path) ? "/" : ""))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    @Test
    void copiesIntoKafkasLayoutAndNothingElse() throws Exception {
        Segments.Local segment = Segments.write(local, "00000000000000000000", Segments.bytes(1, 1000), true);
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 1000);

        assertEquals(Optional.empty(), rsm.copyLogSegmentData(metadata, segment.data()));

        assertEquals(
                new TreeSet<>(List.of(
                        PARTITION_DIR + "/",
                        PREFIX + ".log",
                        PREFIX + ".index",
                        PREFIX + ".timeindex",
                        PREFIX + ".txnindex",
                        PREFIX + ".snapshot",
                        PREFIX + ".leader_epoch_checkpoint")),
                tree("kafka-tiered-storage"));
        assertArrayEquals(segment.log(), Files.readAllBytes(dir.resolve(PREFIX + ".log")));
        assertArrayEquals(
                segment.leaderEpochCheckpoint(), Files.readAllBytes(dir.resolve(PREFIX + ".leader_epoch_checkpoint")));
        assertEquals(Set.of(StagingArea.LOCK_FILE), stagedFileNames(), "staging is left empty");
    }

    @Test
    void readsASegmentWrittenByKafkasLocalTieredStorage() throws Exception {
        // As Kafka writes it: files straight into their places, no staging.
        Path partition = Files.createDirectories(dir.resolve(PARTITION_DIR));
        byte[] log = Segments.bytes(2, 500);
        Files.write(dir.resolve(PREFIX + ".log"), log);
        for (String suffix : List.of(".index", ".timeindex", ".snapshot", ".leader_epoch_checkpoint")) {
            Files.writeString(dir.resolve(PREFIX + suffix), suffix);
        }
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 500);

        assertArrayEquals(log, read(rsm.fetchLogSegment(metadata, 0)));
        assertArrayEquals(".timeindex".getBytes(), read(rsm.fetchIndex(metadata, IndexType.TIMESTAMP)));
        assertArrayEquals(
                ".leader_epoch_checkpoint".getBytes(), read(rsm.fetchIndex(metadata, IndexType.LEADER_EPOCH)));
        assertThrows(RemoteResourceNotFoundException.class, () -> rsm.fetchIndex(metadata, IndexType.TRANSACTION));
        rsm.deleteLogSegmentData(metadata);
        assertFalse(Files.exists(partition));
    }

    @Test
    void fetchesTheBytesItCopiedWholeAndInRanges() throws Exception {
        byte[] log = Segments.bytes(3, 10_000);
        Segments.Local segment = Segments.write(local, "s", log, false);
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 42, log.length);
        rsm.copyLogSegmentData(metadata, segment.data());

        assertArrayEquals(log, read(rsm.fetchLogSegment(metadata, 0)));
        assertArrayEquals(Arrays.copyOfRange(log, 1234, log.length), read(rsm.fetchLogSegment(metadata, 1234)));
        assertArrayEquals(Arrays.copyOfRange(log, 100, 201), read(rsm.fetchLogSegment(metadata, 100, 200)));
        assertArrayEquals(Arrays.copyOfRange(log, 7, 8), read(rsm.fetchLogSegment(metadata, 7, 7)));
        assertArrayEquals(Arrays.copyOfRange(log, 9_990, 10_000), read(rsm.fetchLogSegment(metadata, 9_990, 50_000)));
        assertArrayEquals(new byte[0], read(rsm.fetchLogSegment(metadata, 10_000)));
        assertArrayEquals(new byte[0], read(rsm.fetchLogSegment(metadata, 10_000, 10_000)));
    }

    @Test
    void fetchesAnEmptySegment() throws Exception {
        Segments.Local segment = Segments.write(local, "empty", new byte[0], false);
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 0);
        rsm.copyLogSegmentData(metadata, segment.data());

        assertArrayEquals(new byte[0], read(rsm.fetchLogSegment(metadata, 0)));
        assertArrayEquals(new byte[0], read(rsm.fetchLogSegment(metadata, 0, 100)));
        assertThrows(InvalidRangeException.class, () -> rsm.fetchLogSegment(metadata, 1));
    }

    @Test
    void rejectsInvalidRangesNamingRangeAndSegment() throws Exception {
        Segments.Local segment = Segments.write(local, "s", Segments.bytes(4, 100), false);
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 100);
        rsm.copyLogSegmentData(metadata, segment.data());
        String name = "segment knnxbs3FSRyKdPcSAOQC-w of jF8s79t9SrG_PNqlwv7bAA:tieredTopic-0 at offset 0";

        assertEquals(
                "invalid byte range [-1, 10] of " + name + ": start is negative",
                assertThrows(InvalidRangeException.class, () -> rsm.fetchLogSegment(metadata, -1, 10))
                        .getMessage());
        assertEquals(
                "invalid byte range [-1, 2147483647] of " + name + ": start is negative",
                assertThrows(InvalidRangeException.class, () -> rsm.fetchLogSegment(metadata, -1))
                        .getMessage());
        assertEquals(
                "invalid byte range [50, 49] of " + name + ": end is before start",
                assertThrows(InvalidRangeException.class, () -> rsm.fetchLogSegment(metadata, 50, 49))
                        .getMessage());
        assertEquals(
                "invalid byte range [101, 200] of " + name + ": start is beyond the end of its 100 bytes",
                assertThrows(InvalidRangeException.class, () -> rsm.fetchLogSegment(metadata, 101, 200))
                        .getMessage());
        assertThrows(InvalidRangeException.class, () -> rsm.fetchLogSegment(metadata, 101));
    }

    @Test
    void fetchesEveryIndexType() throws Exception {
        Segments.Local segment = Segments.write(local, "s", Segments.bytes(5, 100), true);
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 100);
        rsm.copyLogSegmentData(metadata, segment.data());

        for (IndexType type : IndexType.values()) {
            assertArrayEquals(segment.index(type), read(rsm.fetchIndex(metadata, type)), type.name());
        }
    }

    @Test
    void aSegmentWithoutTransactionIndexHasNone() throws Exception {
        Segments.Local segment = Segments.write(local, "s", Segments.bytes(6, 100), false);
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 100);
        rsm.copyLogSegmentData(metadata, segment.data());

        assertFalse(Files.exists(dir.resolve(PREFIX + ".txnindex")));
        RemoteResourceNotFoundException e = assertThrows(
                RemoteResourceNotFoundException.class, () -> rsm.fetchIndex(metadata, IndexType.TRANSACTION));
        assertEquals(
                "segment knnxbs3FSRyKdPcSAOQC-w of jF8s79t9SrG_PNqlwv7bAA:tieredTopic-0 at offset 0 has no "
                        + "transaction index: no " + dir.resolve(PREFIX + ".txnindex"),
                e.getMessage());
        assertArrayEquals(segment.offsetIndex(), read(rsm.fetchIndex(metadata, IndexType.OFFSET)));
    }

    @Test
    void aMissingSegmentIsNotFoundNamingSegmentAndPath() {
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 100);
        String expected =
                "segment knnxbs3FSRyKdPcSAOQC-w of jF8s79t9SrG_PNqlwv7bAA:tieredTopic-0 at offset 0 is not in the "
                        + "remote tier: no " + dir.resolve(PREFIX + ".log");
        assertEquals(
                expected,
                assertThrows(RemoteResourceNotFoundException.class, () -> rsm.fetchLogSegment(metadata, 0))
                        .getMessage());
        assertEquals(
                expected,
                assertThrows(RemoteResourceNotFoundException.class, () -> rsm.fetchLogSegment(metadata, 0, 10))
                        .getMessage());
        for (IndexType type : IndexType.values()) {
            assertEquals(
                    expected,
                    assertThrows(RemoteResourceNotFoundException.class, () -> rsm.fetchIndex(metadata, type))
                            .getMessage());
        }
    }

    @Test
    void deletesTheSegmentThenThePartitionDirectoryAndAgainWithoutError() throws Exception {
        RemoteLogSegmentMetadata first = Segments.metadata(Segments.SEGMENT_ID, 0, 100);
        RemoteLogSegmentMetadata second = Segments.metadata(Uuid.randomUuid(), 10, 100);
        rsm.copyLogSegmentData(
                first,
                Segments.write(local.resolve("a"), "s", Segments.bytes(7, 100), true)
                        .data());
        rsm.copyLogSegmentData(
                second,
                Segments.write(local.resolve("b"), "s", Segments.bytes(8, 100), false)
                        .data());

        rsm.deleteLogSegmentData(first);
        assertThrows(RemoteResourceNotFoundException.class, () -> rsm.fetchLogSegment(first, 0));
        assertEquals(
                5,
                tree(PARTITION_DIR).size(),
                "the other segment's five files and nothing of the first: " + tree(PARTITION_DIR));
        assertTrue(tree(PARTITION_DIR).stream().noneMatch(path -> path.contains(Segments.SEGMENT_ID.toString())));

        rsm.deleteLogSegmentData(second);
        assertEquals(Set.of(), tree("kafka-tiered-storage"), "the empty partition directory is removed");
        rsm.deleteLogSegmentData(second);
        rsm.deleteLogSegmentData(first);
        rsm.deleteLogSegmentData(
                Segments.metadata(new TopicIdPartition(Uuid.randomUuid(), "never", 3), Uuid.randomUuid(), 0, 1));
        assertEquals(Set.of(), tree("kafka-tiered-storage"));
    }

    @Test
    void deleteEnableFalseKeepsEverything() throws Exception {
        rsm.close();
        rsm = configured(Map.of("delete.enable", "false"));
        Segments.Local segment = Segments.write(local, "s", Segments.bytes(9, 100), true);
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 100);
        rsm.copyLogSegmentData(metadata, segment.data());

        rsm.deleteLogSegmentData(metadata);

        assertArrayEquals(segment.log(), read(rsm.fetchLogSegment(metadata, 0)));
        assertEquals(7, tree("kafka-tiered-storage").size());
    }

    @Test
    void deleteOnCloseDeletesTheWholeTierAsKafkasDoes() throws Exception {
        rsm.close();
        rsm = configured(Map.of("delete.on.close", "true"));
        rsm.copyLogSegmentData(
                Segments.metadata(Segments.SEGMENT_ID, 0, 100),
                Segments.write(local, "s", Segments.bytes(9, 100), true).data());

        rsm.close();

        assertFalse(Files.exists(dir.resolve("kafka-tiered-storage")));
        assertEquals(Set.of("krabka-rsm-staging/"), tree(""), "no segment is left, and no staging attempt");
    }

    @Test
    void deleteOnCloseKeepsATierHoldingAStrangersFile() throws Exception {
        rsm.close();
        rsm = configured(Map.of("delete.on.close", "true"));
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 100);
        rsm.copyLogSegmentData(
                metadata,
                Segments.write(local, "s", Segments.bytes(9, 100), true).data());
        Files.writeString(dir.resolve("kafka-tiered-storage/notes.txt"), "not a partition");

        rsm.close();

        assertEquals(
                8,
                tree("kafka-tiered-storage").size(),
                "the segment's files, its directory and the stranger: " + tree("kafka-tiered-storage"));
    }

    @Test
    void withoutDeleteOnCloseCloseKeepsTheTier() throws Exception {
        rsm.copyLogSegmentData(
                Segments.metadata(Segments.SEGMENT_ID, 0, 100),
                Segments.write(local, "s", Segments.bytes(9, 100), true).data());

        rsm.close();

        assertEquals(7, tree("kafka-tiered-storage").size());
    }

    @Test
    void aRetryWithTheSameIdOverwritesEveryFile() throws Exception {
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 100);
        rsm.copyLogSegmentData(
                metadata,
                Segments.write(local.resolve("first"), "first", Segments.bytes(10, 300), true)
                        .data());
        Segments.Local retry = Segments.write(local.resolve("retry"), "retry", Segments.bytes(11, 200), false);

        rsm.copyLogSegmentData(metadata, retry.data());

        assertArrayEquals(retry.log(), read(rsm.fetchLogSegment(metadata, 0)));
        for (IndexType type :
                List.of(IndexType.OFFSET, IndexType.TIMESTAMP, IndexType.PRODUCER_SNAPSHOT, IndexType.LEADER_EPOCH)) {
            assertArrayEquals(retry.index(type), read(rsm.fetchIndex(metadata, type)), type.name());
        }
        assertThrows(
                RemoteResourceNotFoundException.class,
                () -> rsm.fetchIndex(metadata, IndexType.TRANSACTION),
                "the first attempt's transaction index is gone");
    }

    @Test
    void filesMovedInWithoutTheLogAreNeverServedAndDeleteRemovesThem() throws Exception {
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 100);
        rsm.copyLogSegmentData(
                metadata,
                Segments.write(local, "s", Segments.bytes(12, 100), true).data());
        // What a crash between moving the indexes and moving the .log leaves.
        Files.delete(dir.resolve(PREFIX + ".log"));

        assertThrows(RemoteResourceNotFoundException.class, () -> rsm.fetchLogSegment(metadata, 0));
        for (IndexType type : IndexType.values()) {
            assertThrows(RemoteResourceNotFoundException.class, () -> rsm.fetchIndex(metadata, type), type.name());
        }
        rsm.deleteLogSegmentData(metadata);
        assertEquals(Set.of(), tree("kafka-tiered-storage"));
    }

    @Test
    void aSegmentMissingARequiredIndexIsNotServed() throws Exception {
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 100);
        rsm.copyLogSegmentData(
                metadata,
                Segments.write(local, "s", Segments.bytes(13, 100), false).data());
        // What Kafka's LocalTieredStorage shows mid-copy: it writes the .log first, the snapshot last.
        Files.delete(dir.resolve(PREFIX + ".snapshot"));

        RemoteResourceNotFoundException e =
                assertThrows(RemoteResourceNotFoundException.class, () -> rsm.fetchLogSegment(metadata, 0));
        assertEquals(
                "segment knnxbs3FSRyKdPcSAOQC-w of jF8s79t9SrG_PNqlwv7bAA:tieredTopic-0 at offset 0 is not in the "
                        + "remote tier: incomplete, missing [PRODUCER_SNAPSHOT] in " + dir.resolve(PARTITION_DIR),
                e.getMessage());
    }

    @Test
    void aCopyThatFailsLeavesNothingBehind() throws Exception {
        Segments.Local segment = Segments.write(local, "s", Segments.bytes(14, 100), true);
        Files.delete(segment.data().producerSnapshotIndex());
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 100);

        RemoteStorageException e =
                assertThrows(RemoteStorageException.class, () -> rsm.copyLogSegmentData(metadata, segment.data()));
        assertTrue(
                e.getMessage()
                        .startsWith("cannot copy segment knnxbs3FSRyKdPcSAOQC-w of jF8s79t9SrG_PNqlwv7bAA:tieredTopic-0"
                                + " at offset 0 to " + dir.resolve(PARTITION_DIR)),
                e.getMessage());
        assertTrue(
                e.getMessage().contains(segment.data().producerSnapshotIndex().toString()), e.getMessage());
        assertEquals(Set.of(), tree("kafka-tiered-storage"));
        assertEquals(Set.of(StagingArea.LOCK_FILE), stagedFileNames());
    }

    @Test
    void aCopyThatFailsWhileMovingInLeavesNoLog() throws Exception {
        // A directory in the way of the time index makes its move fail half-way through publishing.
        Files.createDirectories(dir.resolve(PREFIX + ".timeindex").resolve("blocker"));
        Segments.Local segment = Segments.write(local, "s", Segments.bytes(15, 100), true);
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 100);

        assertThrows(RemoteStorageException.class, () -> rsm.copyLogSegmentData(metadata, segment.data()));

        assertFalse(Files.exists(dir.resolve(PREFIX + ".log")));
        assertFalse(Files.exists(dir.resolve(PREFIX + ".index")), "what was moved in is rolled back");
        assertThrows(RemoteResourceNotFoundException.class, () -> rsm.fetchLogSegment(metadata, 0));
        assertEquals(Set.of(StagingArea.LOCK_FILE), stagedFileNames());
    }

    @Test
    void fsyncCanBeTurnedOff() throws Exception {
        rsm.close();
        rsm = configured(Map.of("fsync.enable", "false"));
        Segments.Local segment = Segments.write(local, "s", Segments.bytes(16, 100), true);
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 100);
        rsm.copyLogSegmentData(metadata, segment.data());
        assertArrayEquals(segment.log(), read(rsm.fetchLogSegment(metadata, 0)));
    }

    @Test
    void configureChecksDirectUseAsTheKernelDoes() throws IOException {
        LocalRemoteStorageManager manager = new LocalRemoteStorageManager();
        assertEquals(
                LocalStorageConfig.MISSING_DIR,
                assertThrows(ConfigException.class, () -> manager.configure(Map.of()))
                        .getMessage());
        assertThrows(ConfigException.class, () -> manager.configure(Map.of("dir", dir.toString(), "dri", "x")));

        Path blocked = Files.createDirectories(dir.resolve("blocked"));
        Files.createFile(blocked.resolve("kafka-tiered-storage"));
        ConfigException e =
                assertThrows(ConfigException.class, () -> manager.configure(Map.of("dir", blocked.toString())));
        assertTrue(
                e.getMessage().startsWith("invalid value " + blocked + " for dir: cannot be used: "), e.getMessage());
        assertTrue(
                e.getMessage().contains(blocked.resolve("kafka-tiered-storage").toString()), e.getMessage());
    }

    @Test
    void isUsableOnlyBetweenConfigureAndClose() throws Exception {
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 100);
        LogSegmentData data =
                Segments.write(local, "s", Segments.bytes(17, 100), false).data();
        LocalRemoteStorageManager fresh = new LocalRemoteStorageManager();
        assertEquals(
                "the local remote storage manager is not configured; call configure() first",
                assertThrows(IllegalStateException.class, () -> fresh.copyLogSegmentData(metadata, data))
                        .getMessage());

        assertThrows(IllegalStateException.class, () -> rsm.configure(Map.of("dir", dir.toString())));
        rsm.close();
        assertEquals(Set.of(), tree(StagingArea.DIR_NAME), "close deletes the instance's staging directory");
        assertEquals(
                "the local remote storage manager is closed",
                assertThrows(IllegalStateException.class, () -> rsm.fetchLogSegment(metadata, 0))
                        .getMessage());
        assertThrows(IllegalStateException.class, () -> rsm.fetchIndex(metadata, IndexType.OFFSET));
        assertThrows(IllegalStateException.class, () -> rsm.deleteLogSegmentData(metadata));
        rsm.close();
    }

    @Test
    void aStreamOutlivesADeleteOfItsSegment() throws Exception {
        byte[] log = Segments.bytes(18, 5000);
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, log.length);
        rsm.copyLogSegmentData(metadata, Segments.write(local, "s", log, false).data());
        try (InputStream in = rsm.fetchLogSegment(metadata, 10, 4009)) {
            rsm.deleteLogSegmentData(metadata);
            assertArrayEquals(Arrays.copyOfRange(log, 10, 4010), in.readAllBytes());
        }
    }

    private Set<String> stagedFileNames() throws IOException {
        try (Stream<Path> paths = Files.walk(dir.resolve(StagingArea.DIR_NAME))) {
            return paths.filter(Files::isRegularFile)
                    .map(path -> path.getFileName().toString())
                    .collect(Collectors.toSet());
        }
    }
}
