package io.krabka.plugin.rlmm.inmemory;

import static io.krabka.plugin.rlmm.inmemory.Fixtures.TP0;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.TP1;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.started;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.update;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.upsert;
import static io.krabka.spi.storage.RemoteLogSegmentState.COPY_SEGMENT_FINISHED;
import static io.krabka.spi.storage.RemoteLogSegmentState.DELETE_SEGMENT_FINISHED;
import static io.krabka.spi.storage.RemoteLogSegmentState.DELETE_SEGMENT_STARTED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The change journal: every change durable at O(1), a crash at any point losing no change that returned. */
class JournalTest {

    @TempDir
    Path dir;

    private Path snapshot;
    private Path journal;

    private InMemoryRemoteLogMetadataManager configured() {
        snapshot = dir.resolve("rlmm.json");
        journal = ChangeJournal.pathOf(snapshot);
        InMemoryRemoteLogMetadataManager manager = new InMemoryRemoteLogMetadataManager();
        manager.configure(Map.of("snapshot.path", snapshot.toString()));
        return manager;
    }

    /** Every kind of change, one call per element, so that a test can stop after any of them. */
    private static List<Consumer<InMemoryRemoteLogMetadataManager>> changes() {
        RemoteLogSegmentMetadata withCustom = started(TP0, 0, 100, Map.of(0, 0L, 1, 20L), false);
        RemoteLogSegmentMetadata deleted = started(TP0, 101, 200, Map.of(1, 101L));
        RemoteLogSegmentMetadata finished = started(TP0, 201, 300, Map.of(2, 201L));
        RemoteLogSegmentMetadata copying = started(TP0, 301, 400, Map.of(2, 301L));
        List<Consumer<InMemoryRemoteLogMetadataManager>> changes = new ArrayList<>();
        changes.add(manager -> manager.addRemoteLogSegmentMetadata(withCustom));
        changes.add(manager -> unchecked(() -> manager.updateRemoteLogSegmentMetadata(
                update(withCustom, COPY_SEGMENT_FINISHED, (byte) 7, (byte) -1))));
        changes.add(manager -> unchecked(() -> upsert(manager, deleted, DELETE_SEGMENT_STARTED)));
        changes.add(manager ->
                unchecked(() -> manager.updateRemoteLogSegmentMetadata(update(deleted, DELETE_SEGMENT_FINISHED))));
        changes.add(manager -> unchecked(() -> upsert(manager, finished, COPY_SEGMENT_FINISHED)));
        changes.add(manager -> manager.putRemotePartitionDeleteMetadata(
                new RemotePartitionDeleteMetadata(TP1, RemotePartitionDeleteState.DELETE_PARTITION_MARKED, 5L, 2)));
        changes.add(manager -> manager.addRemoteLogSegmentMetadata(copying));
        return changes;
    }

    private interface Change {
        void run() throws Exception;
    }

    private static void unchecked(Change change) {
        try {
            change.run();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** The bytes of the snapshot of a manager's whole content: equal bytes, equal content. */
    private byte[] content(InMemoryRemoteLogMetadataManager manager, String name) throws Exception {
        Path file = dir.resolve(name);
        manager.writeSnapshot(file);
        return Files.readAllBytes(file);
    }

    private byte[] expected(List<Consumer<InMemoryRemoteLogMetadataManager>> changes, int count) throws Exception {
        InMemoryRemoteLogMetadataManager reference = Fixtures.manager();
        changes.subList(0, count).forEach(change -> change.accept(reference));
        return content(reference, "expected.json");
    }

    @Test
    void changesAfterTheFirstGoToTheJournalAndAllSurviveAKill() throws Exception {
        List<Consumer<InMemoryRemoteLogMetadataManager>> changes = changes();
        InMemoryRemoteLogMetadataManager killed = configured();
        changes.getFirst().accept(killed);
        byte[] firstSnapshot = Files.readAllBytes(snapshot);
        changes.subList(1, changes.size()).forEach(change -> change.accept(killed));

        assertArrayEquals(firstSnapshot, Files.readAllBytes(snapshot), "the snapshot is not rewritten per change");
        assertTrue(Files.size(journal) > 0);
        InMemoryRemoteLogMetadataManager reopened = configured();
        assertArrayEquals(expected(changes, changes.size()), content(reopened, "reopened.json"));
        reopened.close();
        assertFalse(Files.exists(journal), "closing writes everything to the snapshot");
        assertArrayEquals(expected(changes, changes.size()), Files.readAllBytes(snapshot));
    }

    @Test
    void aRecordCutShortByACrashIsIgnoredWithNothingAfterIt() throws Exception {
        List<Consumer<InMemoryRemoteLogMetadataManager>> changes = changes();
        InMemoryRemoteLogMetadataManager killed = configured();
        changes.subList(0, changes.size() - 1).forEach(change -> change.accept(killed));
        long beforeLast = Files.size(journal);
        changes.getLast().accept(killed);
        try (FileChannel channel = FileChannel.open(journal, StandardOpenOption.WRITE)) {
            channel.truncate(channel.size() - 3);
        }
        assertArrayEquals(expected(changes, changes.size() - 1), content(configured(), "torn.json"));

        // Half a length field is a torn record too.
        try (FileChannel channel = FileChannel.open(journal, StandardOpenOption.WRITE)) {
            channel.truncate(beforeLast + 2);
        }
        assertEquals(beforeLast + 2, Files.size(journal));
        assertArrayEquals(expected(changes, changes.size() - 1), content(configured(), "torn-length.json"));
    }

    @Test
    void aDamagedRecordEndsTheJournal() throws Exception {
        List<Consumer<InMemoryRemoteLogMetadataManager>> changes = changes();
        InMemoryRemoteLogMetadataManager killed = configured();
        changes.forEach(change -> change.accept(killed));
        byte[] bytes = Files.readAllBytes(journal);
        bytes[bytes.length - 2] ^= 1;
        Files.write(journal, bytes);
        assertArrayEquals(expected(changes, changes.size() - 1), content(configured(), "damaged.json"));
    }

    @Test
    void aJournalFollowingAnOlderSnapshotIsIgnored() throws Exception {
        List<Consumer<InMemoryRemoteLogMetadataManager>> changes = changes();
        InMemoryRemoteLogMetadataManager killed = configured();
        changes.forEach(change -> change.accept(killed));
        // A compaction that wrote its snapshot and crashed before starting the journal after it.
        killed.writeSnapshot(snapshot);
        assertTrue(Files.size(journal) > 0);
        assertArrayEquals(
                expected(changes, changes.size()),
                content(configured(), "compacted.json"),
                "each change once: none is replayed over the snapshot holding it");
    }

    @Test
    void theJournalIsCompactedIntoTheSnapshotOnceItOutgrowsIt() throws Exception {
        InMemoryRemoteLogMetadataManager manager = configured();
        InMemoryRemoteLogMetadataManager reference = Fixtures.manager();
        long largestJournal = 0;
        for (int i = 0; i < 400; i++) {
            RemoteLogSegmentMetadata segment = started(TP0, i * 100L, i * 100L + 99, Map.of(0, i * 100L));
            upsert(manager, segment, COPY_SEGMENT_FINISHED);
            upsert(reference, segment, COPY_SEGMENT_FINISHED);
            largestJournal = Math.max(largestJournal, Files.size(journal));
        }
        assertTrue(
                largestJournal < Math.max(DurableMetadata.MIN_COMPACTION_BYTES, Files.size(snapshot)) + 4096,
                "the journal never grows much past the snapshot: " + largestJournal);
        assertArrayEquals(content(reference, "reference.json"), content(configured(), "reopened.json"));
    }

    @Test
    void aFileThatIsNoJournalStopsConfigureAndIsLeftAlone() throws Exception {
        InMemoryRemoteLogMetadataManager first = configured();
        changes().getFirst().accept(first);
        Files.writeString(journal, "not a journal");
        InMemoryRemoteLogMetadataManager manager = new InMemoryRemoteLogMetadataManager();
        ConfigException e = assertThrows(
                ConfigException.class, () -> manager.configure(Map.of("snapshot.path", snapshot.toString())));
        assertInstanceOf(InvalidSnapshotException.class, e.getCause());
        assertArrayEquals(
                "not a journal".getBytes(java.nio.charset.StandardCharsets.US_ASCII), Files.readAllBytes(journal));
    }

    @Test
    void aLoadedSnapshotIsWrittenWholeAtTheNextChange() throws Exception {
        List<Consumer<InMemoryRemoteLogMetadataManager>> changes = changes();
        InMemoryRemoteLogMetadataManager source = Fixtures.manager();
        changes.subList(0, 3).forEach(change -> change.accept(source));
        Path loaded = dir.resolve("loaded.json");
        source.writeSnapshot(loaded);

        InMemoryRemoteLogMetadataManager manager = configured();
        changes.get(5).accept(manager);
        manager.loadSnapshot(loaded);
        changes.get(3).accept(manager);
        changes.get(4).accept(manager);
        changes.get(3).accept(source);
        changes.get(4).accept(source);
        assertArrayEquals(content(source, "source.json"), content(configured(), "reopened.json"));
    }
}
