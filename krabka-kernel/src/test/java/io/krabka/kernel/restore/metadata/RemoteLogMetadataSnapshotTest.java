package io.krabka.kernel.restore.metadata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.archive.ArchiveLayout;
import io.krabka.kernel.plugin.PluginDiscovery;
import io.krabka.kernel.plugin.PluginRegistry;
import io.krabka.kernel.restore.ArchiveDiscovery;
import io.krabka.kernel.restore.ArchivedPartition;
import io.krabka.kernel.restore.ArchivedSegment;
import io.krabka.kernel.restore.DiscoveredArchive;
import io.krabka.kernel.restore.MetadataDisagreementException;
import io.krabka.kernel.restore.bound.InvalidRestoreArgumentException;
import io.krabka.kernel.restore.report.SkippedSegment;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The remote log metadata of an old cluster, written by the {@code inmemory} plugin itself through the plugin
 * registry, held against an archive in the real local store.
 */
class RemoteLogMetadataSnapshotTest {
    private static final Path PLUGINS = Path.of("target/test-plugins");
    private static final List<String> CURRENT_SUFFIXES =
            List.of("log", "index", "timeindex", "snapshot", "leader_epoch_checkpoint");
    private static final TopicIdPartition ORDERS = new TopicIdPartition(Uuid.randomUuid(), "orders", 0);
    private static final TopicIdPartition PAYMENTS = new TopicIdPartition(Uuid.randomUuid(), "payments", 1);

    @TempDir
    Path dir;

    private final PluginRegistry plugins = PluginDiscovery.discover(PLUGINS);
    private ObjectStore store;
    private Path snapshot;
    private RemoteLogMetadataManager oldCluster;

    @BeforeEach
    void open() throws Exception {
        store = plugins.createObjectStore(
                "local",
                Map.of("dir", Files.createDirectories(dir.resolve("archive")).toString()));
        snapshot = Files.createDirectories(dir.resolve("old")).resolve("snapshot.json");
        oldCluster = plugins.createRemoteLogMetadataManager(
                RemoteLogMetadataSnapshot.PLUGIN, Map.of(RemoteLogMetadataSnapshot.SNAPSHOT_PATH, snapshot.toString()));
    }

    @AfterEach
    void close() throws Exception {
        oldCluster.close();
        store.close();
    }

    @Test
    void segmentsTheOldClusterDeletedOrNeverFinishedAreLeftOutAndLegacyTopicsNamed() throws Exception {
        Uuid live = segment(ORDERS, 0, RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
        Uuid deleting = segment(ORDERS, 100, RemoteLogSegmentState.DELETE_SEGMENT_STARTED);
        Uuid deleted = segment(ORDERS, 200, RemoteLogSegmentState.DELETE_SEGMENT_FINISHED);
        Uuid unfinished = segment(ORDERS, 300, RemoteLogSegmentState.COPY_SEGMENT_STARTED);
        Uuid abandoned = Uuid.randomUuid();
        Uuid legacy = segment(PAYMENTS, 50, RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
        oldCluster.close();
        archiveCurrent(ORDERS, 0, live, CURRENT_SUFFIXES);
        archiveCurrent(ORDERS, 100, deleting, CURRENT_SUFFIXES);
        archiveCurrent(ORDERS, 200, deleted, List.of("index", "timeindex"));
        archiveCurrent(ORDERS, 300, unfinished, CURRENT_SUFFIXES);
        archiveCurrent(ORDERS, 300, abandoned, List.of("log", "abandoned"));
        archiveLegacy(PAYMENTS, legacy);
        byte[] before = Files.readAllBytes(snapshot);
        List<Path> tempBefore = temporaryCopies();

        Reconciliation reconciliation;
        try (RemoteLogMetadataSnapshot metadata = RemoteLogMetadataSnapshot.load(plugins, snapshot)) {
            reconciliation = metadata.reconcile(discover());
        }

        List<ArchivedPartition> partitions = reconciliation.archive().partitions();
        ArchivedPartition orders = partition(partitions, ORDERS);
        assertEquals(
                List.of(live, abandoned),
                orders.segments().stream().map(ArchivedSegment::segmentId).toList());
        ArchivedPartition payments = partition(partitions, PAYMENTS);
        assertEquals(Optional.of("payments"), payments.topic());
        assertEquals(OptionalLong.of(50), payments.segments().getFirst().startOffset());
        assertEquals(
                List.of(
                        new SkippedSegment(
                                "orders", 0, deleting, "the old cluster was deleting it (DELETE_SEGMENT_STARTED)"),
                        new SkippedSegment(
                                "orders",
                                0,
                                deleted,
                                "the remote log metadata has no such segment (never"
                                        + " recorded, or deleted); only objects other than its log are left"),
                        new SkippedSegment(
                                "orders",
                                0,
                                unfinished,
                                "its copy never finished in the old cluster (COPY_SEGMENT_STARTED)")),
                reconciliation.leftOut());
        assertEquals(Optional.of(snapshot.toString()), reconciliation.report().snapshot());
        assertEquals(2, reconciliation.report().deletedSegmentsLeftOut());
        assertEquals(
                List.of("legacy partition " + legacyDirectory(PAYMENTS) + " is of topic 'payments', as the remote"
                        + " log metadata names it"),
                reconciliation.report().notes());

        assertArrayEquals(before, Files.readAllBytes(snapshot));
        try (Stream<Path> beside = Files.list(snapshot.getParent())) {
            assertEquals(List.of(snapshot), beside.toList());
        }
        assertEquals(tempBefore, temporaryCopies());
    }

    @Test
    void aDeletedSegmentWhoseLogIsStillArchivedIsADisagreement() throws Exception {
        Uuid deleted = segment(ORDERS, 0, RemoteLogSegmentState.DELETE_SEGMENT_FINISHED);
        segment(ORDERS, 100, RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
        oldCluster.close();
        archiveCurrent(ORDERS, 0, deleted, CURRENT_SUFFIXES);

        MetadataDisagreementException e = disagreement();
        assertEquals(
                currentDirectory(ORDERS) + ": segment " + deleted + ": its log is in the archive, but the remote"
                        + " log metadata has no such segment (never recorded, or deleted)",
                e.getMessage());
    }

    @Test
    void aSegmentOnlyTheArchiveHasIsADisagreement() throws Exception {
        Uuid live = segment(ORDERS, 0, RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
        oldCluster.close();
        archiveCurrent(ORDERS, 0, live, CURRENT_SUFFIXES);
        Uuid stray = Uuid.randomUuid();
        archiveCurrent(ORDERS, 100, stray, List.of("log"));

        assertTrue(disagreement()
                .getMessage()
                .startsWith(currentDirectory(ORDERS) + ": segment " + stray + ": its log is in the archive"));
    }

    @Test
    void aReadableSegmentOnlyTheMetadataHasIsADisagreement() throws Exception {
        Uuid live = segment(ORDERS, 0, RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
        Uuid missing = segment(ORDERS, 100, RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
        oldCluster.close();
        archiveCurrent(ORDERS, 0, live, CURRENT_SUFFIXES);

        assertEquals(
                currentDirectory(ORDERS) + ": segment " + missing + " (offsets 100 to 199) is"
                        + " COPY_SEGMENT_FINISHED in the remote log metadata but not in the archive",
                disagreement().getMessage());
    }

    @Test
    void aPartitionOnlyTheMetadataHasIsADisagreement() throws Exception {
        Uuid live = segment(ORDERS, 0, RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
        segment(PAYMENTS, 0, RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
        oldCluster.close();
        archiveCurrent(ORDERS, 0, live, CURRENT_SUFFIXES);

        assertTrue(disagreement().getMessage().startsWith(PAYMENTS + ": segment "));
    }

    @Test
    void aStartOffsetTheTwoDisagreeOnIsADisagreement() throws Exception {
        Uuid live = segment(ORDERS, 0, RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
        oldCluster.close();
        archiveCurrent(ORDERS, 10, live, CURRENT_SUFFIXES);

        assertEquals(
                currentDirectory(ORDERS) + ": segment " + live + ": starts at offset 10 in the archive but at 0"
                        + " in the remote log metadata",
                disagreement().getMessage());
    }

    @Test
    void aLegacyPartitionOfATopicTheMetadataDoesNotKnowIsADisagreement() throws Exception {
        segment(ORDERS, 0, RemoteLogSegmentState.COPY_SEGMENT_STARTED);
        oldCluster.close();
        archiveLegacy(PAYMENTS, Uuid.randomUuid());

        assertEquals(
                legacyDirectory(PAYMENTS) + ": a legacy-layout partition of topic id " + PAYMENTS.topicId()
                        + ", which the remote log metadata does not know",
                disagreement().getMessage());
    }

    @Test
    void changesJournaledAfterTheSnapshotAreRead() throws Exception {
        Uuid live = segment(ORDERS, 0, RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
        segment(PAYMENTS, 0, RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
        // A broker killed now leaves the snapshot and its journal; the manager's close would merge them.
        Path killed = Files.createDirectories(dir.resolve("killed")).resolve("snapshot.json");
        Path journal = Path.of(snapshot + ".journal");
        assertTrue(Files.exists(journal), "the plugin journals the changes after its snapshot");
        Files.copy(snapshot, killed);
        Files.copy(journal, Path.of(killed + ".journal"));
        byte[] journalBefore = Files.readAllBytes(journal);
        archiveCurrent(ORDERS, 0, live, CURRENT_SUFFIXES);

        try (RemoteLogMetadataSnapshot metadata = RemoteLogMetadataSnapshot.load(plugins, killed)) {
            MetadataDisagreementException e =
                    assertThrows(MetadataDisagreementException.class, () -> metadata.reconcile(discover()));
            assertTrue(e.getMessage().startsWith(PAYMENTS + ": segment "), e.getMessage());
        }
        assertArrayEquals(journalBefore, Files.readAllBytes(Path.of(killed + ".journal")));
        try (Stream<Path> beside = Files.list(killed.getParent())) {
            assertEquals(Set.of(killed, Path.of(killed + ".journal")), Set.copyOf(beside.toList()));
        }
    }

    @Test
    void withoutASnapshotEverySegmentIsKeptAndLegacyPartitionsAreLeftOut() throws Exception {
        Uuid current = Uuid.randomUuid();
        Uuid legacy = Uuid.randomUuid();
        archiveCurrent(ORDERS, 0, current, CURRENT_SUFFIXES);
        archiveLegacy(PAYMENTS, legacy);

        Reconciliation reconciliation = Reconciliation.withoutSnapshot(discover());

        assertEquals(
                List.of(currentDirectory(ORDERS)),
                reconciliation.archive().partitions().stream()
                        .map(ArchivedPartition::directory)
                        .toList());
        assertEquals(
                List.of(new SkippedSegment(
                        PAYMENTS.topicId().toString(),
                        1,
                        legacy,
                        "a legacy-layout partition whose topic has no name without --rlmm-snapshot")),
                reconciliation.leftOut());
        assertEquals(Optional.empty(), reconciliation.report().snapshot());
        assertEquals(0, reconciliation.report().deletedSegmentsLeftOut());
        assertEquals(
                List.of(
                        "no --rlmm-snapshot: segments the old cluster deleted cannot be told from live ones, and"
                                + " every segment in the archive is restored",
                        "legacy partition " + legacyDirectory(PAYMENTS)
                                + " left out: its keys name no topic, only the id " + PAYMENTS.topicId()
                                + ", and only --rlmm-snapshot names it"),
                reconciliation.report().notes());
    }

    @Test
    void aMissingSnapshotIsRefusedNamingIt() {
        Path missing = dir.resolve("nowhere.json");
        assertEquals(
                "--rlmm-snapshot " + missing + ": no such file",
                assertThrows(
                                InvalidRestoreArgumentException.class,
                                () -> RemoteLogMetadataSnapshot.load(plugins, missing))
                        .getMessage());
    }

    @Test
    void anInvalidSnapshotIsRefusedInOneLineNamingTheOperatorsFile() throws Exception {
        Path invalid = dir.resolve("invalid.json");
        Files.writeString(invalid, "{\"version\": 1, \"partitions\": [ {\n\"topicId\": \"x\" } ] }");
        List<Path> tempBefore = temporaryCopies();

        String message = assertThrows(
                        InvalidRestoreArgumentException.class, () -> RemoteLogMetadataSnapshot.load(plugins, invalid))
                .getMessage();

        assertTrue(
                message.startsWith("--rlmm-snapshot " + invalid + ": not a valid remote log metadata snapshot: "),
                message);
        assertFalse(message.contains("\n") || message.contains("krabka-rlmm-snapshot-"), message);
        assertEquals(tempBefore, temporaryCopies());
    }

    @Test
    void withoutTheInmemoryPluginTheSnapshotIsRefused() throws Exception {
        oldCluster.close();
        Path onlyLocal = Files.createDirectories(dir.resolve("plugins"));
        Path local = Files.createSymbolicLink(
                onlyLocal.resolve("local"), PLUGINS.resolve("local").toAbsolutePath());
        String message;
        try {
            message = assertThrows(
                            InvalidRestoreArgumentException.class,
                            () -> RemoteLogMetadataSnapshot.load(PluginDiscovery.discover(onlyLocal), snapshot))
                    .getMessage();
        } finally {
            // The link, not the plugin it leads to, which JUnit's clean-up would only warn about.
            Files.delete(local);
        }

        assertTrue(message.startsWith("--rlmm-snapshot " + snapshot + ": ") && message.contains("'inmemory'"), message);
    }

    /** Records a segment of 100 offsets at {@code start} in the old cluster, taken through Kafka's lifecycle. */
    private Uuid segment(TopicIdPartition partition, long start, RemoteLogSegmentState state) throws Exception {
        RemoteLogSegmentId id = RemoteLogSegmentId.generateNew(partition);
        oldCluster
                .addRemoteLogSegmentMetadata(new RemoteLogSegmentMetadata(
                        id, start, start + 99, -1, 0, 1_700_000_000_000L, 1024, new TreeMap<>(Map.of(0, start)), true))
                .get();
        List<RemoteLogSegmentState> steps = new ArrayList<>(
                switch (state) {
                    case COPY_SEGMENT_STARTED -> List.of();
                    case COPY_SEGMENT_FINISHED -> List.of(RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
                    case DELETE_SEGMENT_STARTED ->
                        List.of(
                                RemoteLogSegmentState.COPY_SEGMENT_FINISHED,
                                RemoteLogSegmentState.DELETE_SEGMENT_STARTED);
                    case DELETE_SEGMENT_FINISHED ->
                        List.of(
                                RemoteLogSegmentState.COPY_SEGMENT_FINISHED,
                                RemoteLogSegmentState.DELETE_SEGMENT_STARTED,
                                RemoteLogSegmentState.DELETE_SEGMENT_FINISHED);
                });
        for (RemoteLogSegmentState step : steps) {
            oldCluster
                    .updateRemoteLogSegmentMetadata(
                            new RemoteLogSegmentMetadataUpdate(id, 1_700_000_000_001L, Optional.empty(), step, 0))
                    .get();
        }
        return id.id();
    }

    private void archiveCurrent(TopicIdPartition partition, long start, Uuid segment, List<String> suffixes)
            throws Exception {
        for (String suffix : suffixes) {
            put(currentDirectory(partition) + "/" + String.format("%020d", start) + "-" + segment + "." + suffix);
        }
    }

    private void archiveLegacy(TopicIdPartition partition, Uuid segment) throws Exception {
        for (String artifact : List.of("log", "offset_index")) {
            put(legacyDirectory(partition) + "/" + hyphenated(segment) + "/" + artifact);
        }
    }

    private void put(String key) throws Exception {
        store.put("archive/" + key, ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8)));
    }

    private static String currentDirectory(TopicIdPartition partition) {
        return partition.topic() + "-" + partition.partition() + "-" + partition.topicId();
    }

    private static String legacyDirectory(TopicIdPartition partition) {
        return hyphenated(partition.topicId()) + "_" + partition.partition();
    }

    private static String hyphenated(Uuid id) {
        return new UUID(id.mostSignificantBits(), id.leastSignificantBits()).toString();
    }

    private DiscoveredArchive discover() throws Exception {
        return ArchiveDiscovery.discover(store, ArchiveLayout.underPrefix("archive"));
    }

    private MetadataDisagreementException disagreement() throws Exception {
        try (RemoteLogMetadataSnapshot metadata = RemoteLogMetadataSnapshot.load(plugins, snapshot)) {
            DiscoveredArchive archive = discover();
            return assertThrows(MetadataDisagreementException.class, () -> metadata.reconcile(archive));
        }
    }

    private static ArchivedPartition partition(List<ArchivedPartition> partitions, TopicIdPartition id) {
        return partitions.stream()
                .filter(p -> p.topicId().equals(id.topicId()))
                .findFirst()
                .orElseThrow();
    }

    /** The private copies in the temporary directory, to show that none is left behind. */
    private static List<Path> temporaryCopies() throws Exception {
        try (Stream<Path> entries = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return entries.filter(p -> p.getFileName().toString().startsWith("krabka-rlmm-snapshot-"))
                    .sorted()
                    .toList();
        }
    }
}
