package io.krabka.plugin.rlmm.inmemory;

import static io.krabka.plugin.rlmm.inmemory.Fixtures.TP0;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.TP1;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.finished;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.list;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.manager;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.started;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.update;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.upsert;
import static io.krabka.spi.storage.RemoteLogSegmentState.COPY_SEGMENT_FINISHED;
import static io.krabka.spi.storage.RemoteLogSegmentState.COPY_SEGMENT_STARTED;
import static io.krabka.spi.storage.RemoteLogSegmentState.DELETE_SEGMENT_FINISHED;
import static io.krabka.spi.storage.RemoteLogSegmentState.DELETE_SEGMENT_STARTED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.storage.InvalidStateTransitionException;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writing and loading the JSON snapshot of the whole cache. */
class SnapshotTest {

    private static final TopicIdPartition LEADERSHIP_ONLY = new TopicIdPartition(Uuid.randomUuid(), "idle", 0);
    private static final TopicIdPartition BEING_DELETED = new TopicIdPartition(Uuid.randomUuid(), "gone", 2);

    @TempDir
    Path dir;

    private RemoteLogSegmentMetadata withCustomMetadata;

    @Test
    void aLoadedSnapshotAnswersExactlyAsTheOriginal() throws Exception {
        InMemoryRemoteLogMetadataManager original = richManager();
        Path file = dir.resolve("first.json");
        original.writeSnapshot(file);
        InMemoryRemoteLogMetadataManager loaded = manager();
        loaded.loadSnapshot(file);

        assertEquals(original.partitions(), loaded.partitions());
        for (TopicIdPartition partition : original.partitions()) {
            assertSameAnswers(original, loaded, partition);
        }
        Path again = dir.resolve("again.json");
        loaded.writeSnapshot(again);
        assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(again), "the same content gives the same bytes");
        assertEquals(SnapshotFile.read(file), SnapshotFile.read(again));
    }

    @Test
    void aLoadedSnapshotCarriesOnWhereTheOriginalWas() throws Exception {
        InMemoryRemoteLogMetadataManager original = richManager();
        Path file = dir.resolve("snapshot.json");
        original.writeSnapshot(file);
        InMemoryRemoteLogMetadataManager loaded = manager();
        loaded.loadSnapshot(file);
        // The deletion of TP1 was marked, the one of BEING_DELETED started; LEADERSHIP_ONLY has none.
        putDelete(loaded, TP1, RemotePartitionDeleteState.DELETE_PARTITION_STARTED);
        putDelete(loaded, BEING_DELETED, RemotePartitionDeleteState.DELETE_PARTITION_FINISHED);
        assertThrows(
                InvalidStateTransitionException.class,
                () -> putDelete(loaded, LEADERSHIP_ONLY, RemotePartitionDeleteState.DELETE_PARTITION_STARTED));
        // The copy still running in TP0 can finish, and becomes readable.
        RemoteLogSegmentMetadata copying = list(loaded.listRemoteLogSegments(TP0)).stream()
                .filter(segment -> segment.state() == COPY_SEGMENT_STARTED)
                .findFirst()
                .orElseThrow();
        loaded.updateRemoteLogSegmentMetadata(update(copying, COPY_SEGMENT_FINISHED));
        assertEquals(
                copying.remoteLogSegmentId(),
                loaded.remoteLogSegmentMetadata(TP0, 6, copying.startOffset())
                        .orElseThrow()
                        .remoteLogSegmentId());
    }

    @Test
    void theFileIsJsonInKafkasTerms() throws Exception {
        InMemoryRemoteLogMetadataManager original = richManager();
        Path file = dir.resolve("snapshot.json");
        original.writeSnapshot(file);
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        assertEquals(1, root.get("version").intValue());
        JsonNode tp0 = partition(root, TP0);
        assertEquals(TP0.topicId().toString(), tp0.get("topicId").textValue());
        assertEquals("foo", tp0.get("topic").textValue());
        assertTrue(tp0.get("deleteState").isNull());
        JsonNode segment = null;
        for (JsonNode candidate : tp0.get("segments")) {
            if (candidate
                    .get("segmentId")
                    .textValue()
                    .equals(withCustomMetadata.remoteLogSegmentId().id().toString())) {
                segment = candidate;
            }
        }
        assertEquals(
                Base64.getEncoder().encodeToString(new byte[] {-1, 0, 42}),
                segment.get("customMetadata").textValue());
        assertEquals("COPY_SEGMENT_FINISHED", segment.get("state").textValue());
        assertEquals(
                Map.of("0", 0L, "1", 20L, "2", 80L),
                Map.of(
                        "0", segment.get("segmentLeaderEpochs").get("0").longValue(),
                        "1", segment.get("segmentLeaderEpochs").get("1").longValue(),
                        "2", segment.get("segmentLeaderEpochs").get("2").longValue()));
        assertEquals(3, segment.get("segmentLeaderEpochs").size());
        assertFalse(segment.get("txnIdxEmpty").booleanValue());
        assertEquals(
                "DELETE_PARTITION_MARKED",
                partition(root, TP1).get("deleteState").get("state").textValue());
        assertEquals(0, partition(root, LEADERSHIP_ONLY).get("segments").size());
    }

    @Test
    void theConfiguredSnapshotIsLoadedAtConfigureAndWrittenAfterEveryChange() throws Exception {
        Path file = dir.resolve("rlmm.json");
        InMemoryRemoteLogMetadataManager first = configured(file);
        assertFalse(Files.exists(file), "nothing to load yet");
        RemoteLogSegmentMetadata segment = finished(first, 0, 0, 99);

        // Never closed, as a broker killed: the file has every change.
        InMemoryRemoteLogMetadataManager second = configured(file);
        assertEquals(segment, second.remoteLogSegmentMetadata(TP0, 0, 10).orElseThrow());
        second.updateRemoteLogSegmentMetadata(update(segment, DELETE_SEGMENT_STARTED));
        InMemoryRemoteLogMetadataManager third = configured(file);
        assertEquals(
                DELETE_SEGMENT_STARTED,
                list(third.listRemoteLogSegments(TP0)).getFirst().state());
        first.close();
        second.close();
        third.close();
    }

    @Test
    void aChangeThatCannotBeWrittenFailsItsFuture() throws Exception {
        Path directory = Files.createDirectory(dir.resolve("gone"));
        InMemoryRemoteLogMetadataManager manager = configured(directory.resolve("rlmm.json"));
        Files.delete(directory);
        java.util.concurrent.ExecutionException e = assertThrows(
                java.util.concurrent.ExecutionException.class,
                () -> manager.addRemoteLogSegmentMetadata(started(TP0, 0, 99, Map.of(0, 0L)))
                        .get());
        assertInstanceOf(io.krabka.spi.storage.RemoteStorageException.class, e.getCause());
        assertTrue(
                e.getCause().getMessage().contains("could not be written"),
                e.getCause().getMessage());
    }

    @Test
    void theBrokersTieredStorageDirHoldsTheSnapshotWhenNoPathIsSet() throws Exception {
        InMemoryRemoteLogMetadataManager manager = new InMemoryRemoteLogMetadataManager();
        manager.configure(Map.of("tiered.storage.dir", dir.toString()));
        RemoteLogSegmentMetadata segment = finished(manager, 0, 0, 99);
        InMemoryRemoteLogMetadataManager reopened = new InMemoryRemoteLogMetadataManager();
        reopened.configure(Map.of("tiered.storage.dir", dir.toString()));
        assertTrue(Files.exists(dir.resolve("remote-log-metadata/snapshot.json")));
        assertEquals(segment, reopened.remoteLogSegmentMetadata(TP0, 0, 10).orElseThrow());
    }

    @Test
    void aCloseThatCannotWriteCanBeRetried() throws Exception {
        Path directory = Files.createDirectory(dir.resolve("sub"));
        Path file = directory.resolve("rlmm.json");
        InMemoryRemoteLogMetadataManager manager = configured(file);
        RemoteLogSegmentMetadata segment = finished(manager, 0, 0, 99);
        Files.delete(file);
        Files.delete(ChangeJournal.pathOf(file));
        Files.delete(directory);
        assertThrows(NoSuchFileException.class, manager::close);
        assertThrows(IllegalStateException.class, () -> manager.listRemoteLogSegments(TP0), "closed all the same");
        Files.createDirectory(directory);
        manager.close();
        InMemoryRemoteLogMetadataManager reopened = configured(file);
        assertEquals(List.of(segment), list(reopened.listRemoteLogSegments(TP0)));
    }

    @Test
    void aBadConfiguredSnapshotStopsConfigureAndIsLeftAlone() throws Exception {
        Path file = dir.resolve("rlmm.json");
        Files.writeString(file, "{\"version\": 1, \"partitions\": [");
        InMemoryRemoteLogMetadataManager manager = new InMemoryRemoteLogMetadataManager();
        ConfigException e =
                assertThrows(ConfigException.class, () -> manager.configure(Map.of("snapshot.path", file.toString())));
        assertTrue(
                e.getMessage().contains("snapshot.path") && e.getMessage().contains(file.toString()), e.getMessage());
        assertInstanceOf(InvalidSnapshotException.class, e.getCause());
        manager.close();
        assertEquals("{\"version\": 1, \"partitions\": [", Files.readString(file), "not overwritten");
    }

    @Test
    void aSnapshotFromANewerKrabkaIsRefusedAsSuch() throws Exception {
        Path file = dir.resolve("future.json");
        Files.writeString(file, "{\"version\": 2, \"partitions\": [], \"tiers\": {}}");
        UnsupportedSnapshotVersionException e = assertThrows(
                UnsupportedSnapshotVersionException.class, () -> manager().loadSnapshot(file));
        assertEquals(2, e.version());
        assertEquals(file, e.file());
        assertTrue(e.getMessage().startsWith(file.toString()) && e.getMessage().contains("newer"), e.getMessage());
    }

    @Test
    void aMissingFileIsNotFound() {
        assertThrows(NoSuchFileException.class, () -> manager().loadSnapshot(dir.resolve("absent.json")));
    }

    /** Every kind of state a snapshot must carry, in four partitions. */
    private InMemoryRemoteLogMetadataManager richManager() throws Exception {
        InMemoryRemoteLogMetadataManager manager = manager();
        // TP0: Kafka's lifecycle scenario with custom metadata and a transaction index on segment 0...
        RemoteLogSegmentMetadata segment0 = started(TP0, 0, 100, Map.of(0, 0L, 1, 20L, 2, 80L), false);
        manager.addRemoteLogSegmentMetadata(segment0);
        manager.updateRemoteLogSegmentMetadata(update(segment0, COPY_SEGMENT_FINISHED, (byte) -1, (byte) 0, (byte) 42));
        withCustomMetadata = segment0;
        upsert(manager, started(TP0, 101, 200, Map.of(2, 101L)), COPY_SEGMENT_FINISHED);
        upsert(manager, started(TP0, 201, 300, Map.of(2, 201L, 3, 240L)), COPY_SEGMENT_FINISHED);
        upsert(manager, started(TP0, 250, 400, Map.of(3, 250L, 4, 370L), false), COPY_SEGMENT_FINISHED);
        // ...an upload superseded by a later one, a deletion under way, one finished (its epoch keeps its highest
        // offset), and a copy still running.
        finished(manager, 5, 401, 450);
        finished(manager, 5, 401, 480);
        upsert(manager, started(TP0, 481, 490, Map.of(5, 481L)), DELETE_SEGMENT_STARTED);
        RemoteLogSegmentMetadata gone =
                upsert(manager, started(TP0, 500, 510, Map.of(7, 500L)), DELETE_SEGMENT_STARTED);
        manager.updateRemoteLogSegmentMetadata(update(gone, DELETE_SEGMENT_FINISHED));
        manager.addRemoteLogSegmentMetadata(started(TP0, 520, 530, Map.of(6, 520L)));
        // TP1 marked for deletion, BEING_DELETED started, LEADERSHIP_ONLY known without segments.
        upsert(manager, started(TP1, 0, 99, Map.of(0, 0L)), COPY_SEGMENT_FINISHED);
        putDelete(manager, TP1, RemotePartitionDeleteState.DELETE_PARTITION_MARKED);
        putDelete(manager, BEING_DELETED, RemotePartitionDeleteState.DELETE_PARTITION_MARKED);
        putDelete(manager, BEING_DELETED, RemotePartitionDeleteState.DELETE_PARTITION_STARTED);
        manager.onPartitionLeadershipChanges(Set.of(LEADERSHIP_ONLY), Set.of());
        return manager;
    }

    private static void assertSameAnswers(
            InMemoryRemoteLogMetadataManager expected,
            InMemoryRemoteLogMetadataManager actual,
            TopicIdPartition partition)
            throws Exception {
        assertEquals(list(expected.listRemoteLogSegments(partition)), list(actual.listRemoteLogSegments(partition)));
        List<String> differences = new ArrayList<>();
        for (int epoch = 0; epoch <= 8; epoch++) {
            assertEquals(
                    list(expected.listRemoteLogSegments(partition, epoch)),
                    list(actual.listRemoteLogSegments(partition, epoch)));
            assertEquals(
                    expected.highestOffsetForEpoch(partition, epoch), actual.highestOffsetForEpoch(partition, epoch));
            assertEquals(expected.remoteLogSize(partition, epoch), actual.remoteLogSize(partition, epoch));
            for (long offset = 0; offset <= 540; offset++) {
                if (!expected.remoteLogSegmentMetadata(partition, epoch, offset)
                                .equals(actual.remoteLogSegmentMetadata(partition, epoch, offset))
                        || !expected.nextSegmentWithTxnIndex(partition, epoch, offset)
                                .equals(actual.nextSegmentWithTxnIndex(partition, epoch, offset))) {
                    differences.add(partition + " epoch " + epoch + " offset " + offset);
                }
            }
        }
        assertEquals(List.of(), differences);
    }

    private static JsonNode partition(JsonNode root, TopicIdPartition partition) {
        for (JsonNode candidate : root.get("partitions")) {
            if (candidate.get("topicId").textValue().equals(partition.topicId().toString())) {
                return candidate;
            }
        }
        throw new AssertionError("no partition " + partition);
    }

    private static void putDelete(
            InMemoryRemoteLogMetadataManager manager, TopicIdPartition partition, RemotePartitionDeleteState state) {
        manager.putRemotePartitionDeleteMetadata(new RemotePartitionDeleteMetadata(partition, state, 5L, 2));
    }

    private static InMemoryRemoteLogMetadataManager configured(Path snapshot) {
        InMemoryRemoteLogMetadataManager manager = new InMemoryRemoteLogMetadataManager();
        manager.configure(Map.of("snapshot.path", snapshot.toString()));
        return manager;
    }
}
