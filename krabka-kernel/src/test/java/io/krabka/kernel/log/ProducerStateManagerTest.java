package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Truncation, expiration and the snapshot files of a partition's producer state. */
class ProducerStateManagerTest {

    private static final long PID = 1L;
    private static final short EPOCH = 0;

    @TempDir
    Path logDir;

    private ProducerStateFixture f;
    private ProducerStateManager psm;

    @BeforeEach
    void setUp() throws IOException {
        f = new ProducerStateFixture(logDir);
        psm = f.stateManager;
    }

    private Set<String> files() throws IOException {
        try (Stream<Path> list = Files.list(logDir)) {
            return list.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private Set<Long> snapshotOffsets() throws IOException {
        return files().stream().map(LogFileUtils::offsetFromFileName).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void aSnapshotIsNamedByTheMapEndOffsetAndTakenOncePerOffset() throws IOException {
        f.appendClient(PID, EPOCH, 0, 0L, false);
        f.appendClient(PID, EPOCH, 1, 1L, false);
        assertEquals(Optional.of(logDir.resolve("00000000000000000002.snapshot")), psm.takeSnapshot());
        assertEquals(Set.of("00000000000000000002.snapshot"), files());

        assertEquals(Optional.empty(), psm.takeSnapshot());
        assertEquals(Set.of("00000000000000000002.snapshot"), files());
        assertEquals(OptionalLong.of(2L), psm.latestSnapshotOffset());
        assertEquals(Optional.of(logDir.resolve("00000000000000000002.snapshot")), psm.fetchSnapshot(2L));
        assertEquals(Optional.empty(), psm.fetchSnapshot(1L));
    }

    @Test
    void truncateAndReloadDeletesSnapshotsOutsideTheLog() throws IOException {
        for (int n = 0; n < 5; n++) {
            f.appendClient(PID, EPOCH, n, n, false);
            psm.takeSnapshot();
        }
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L), snapshotOffsets());
        psm.truncateAndReload(1L, 3L, f.now);
        assertEquals(OptionalLong.of(2L), psm.oldestSnapshotOffset());
        assertEquals(OptionalLong.of(3L), psm.latestSnapshotOffset());
        assertEquals(Set.of(2L, 3L), snapshotOffsets());
        // The state is the snapshot's: producer 1 up to offset 2, exclusive.
        assertEquals(3L, psm.mapEndOffset());
        assertEquals(2L, f.entry(PID).lastDataOffset());
        assertEquals(2, f.entry(PID).lastSeq());
    }

    @Test
    void anUnfinishedTransactionIsRecoveredFromASnapshot() throws IOException {
        f.appendClient(PID, EPOCH, 0, 0L, true);
        f.appendClient(PID, EPOCH, 1, 1L, true);
        psm.takeSnapshot();

        ProducerStateManager recovered = f.newStateManager();
        recovered.truncateAndReload(0L, 3L, f.now);
        // A snapshot keeps only the newest batch.
        ProducerStateEntry loaded = f.entry(recovered, PID);
        assertEquals(1L, loaded.firstDataOffset());
        assertEquals(1, loaded.firstSeq());
        assertEquals(1L, loaded.lastDataOffset());
        assertEquals(1, loaded.lastSeq());
        assertEquals(OptionalLong.of(0L), loaded.currentTxnFirstOffset());
        assertEquals(Optional.of(new LogOffsetMetadata(0L)), recovered.firstUnstableOffset());

        f.appendClient(recovered, PID, EPOCH, 2, 2L, true);
        assertEquals(2, f.entry(recovered, PID).lastSeq());
    }

    @Test
    void aFinishedTransactionIsRecoveredFromASnapshot() throws IOException {
        f.appendClient(PID, EPOCH, 0, 0L, true);
        f.appendClient(PID, EPOCH, 1, 1L, true);
        f.appendMarker(PID, EPOCH, TransactionResult.ABORT, 2L);
        psm.takeSnapshot();

        ProducerStateManager recovered = f.newStateManager();
        recovered.truncateAndReload(0L, 3L, f.now);
        ProducerStateEntry loaded = f.entry(recovered, PID);
        assertEquals(1L, loaded.firstDataOffset());
        assertEquals(1, loaded.lastSeq());
        assertEquals(OptionalLong.empty(), loaded.currentTxnFirstOffset());
        assertEquals(Optional.empty(), recovered.firstUnstableOffset());
    }

    @Test
    void aProducerWithOnlyAMarkerIsRecoveredWithItsTimestamp() throws IOException {
        f.appendMarker(PID, EPOCH, TransactionResult.ABORT, 0L);
        psm.takeSnapshot();

        ProducerStateManager recovered = f.newStateManager();
        recovered.truncateAndReload(0L, 1L, f.now);
        ProducerStateEntry loaded = f.entry(recovered, PID);
        assertEquals(f.now, loaded.lastTimestamp());
        assertEquals(OptionalLong.empty(), loaded.currentTxnFirstOffset());
        assertTrue(loaded.isEmpty());
    }

    @Test
    void anOlderCoordinatorIsFencedAfterReload() throws IOException {
        f.appendClient(PID, EPOCH, 0, 99L, true);
        f.appendMarker(psm, PID, EPOCH, TransactionResult.COMMIT, 100L, 1);
        psm.takeSnapshot();

        ProducerStateManager recovered = f.newStateManager();
        recovered.truncateAndReload(0L, 101L, f.now);
        assertThrows(
                TransactionCoordinatorFencedException.class,
                () -> f.appendMarker(recovered, PID, EPOCH, TransactionResult.COMMIT, 101L, 0));
    }

    @Test
    void theFirstUnstableOffsetFollowsTruncation() throws IOException {
        f.appendClient(PID, EPOCH, 0, 99L, true);
        assertEquals(Optional.of(new LogOffsetMetadata(99L)), psm.firstUnstableOffset());
        psm.takeSnapshot();

        f.appendMarker(PID, EPOCH, TransactionResult.COMMIT, 105L);
        psm.onHighWatermarkUpdated(106L);
        assertEquals(Optional.empty(), psm.firstUnstableOffset());
        psm.takeSnapshot();

        f.appendClient(PID, EPOCH, 1, 106L, false);
        psm.truncateAndReload(0L, 106L, f.now);
        assertEquals(Optional.empty(), psm.firstUnstableOffset());

        psm.truncateAndReload(0L, 100L, f.now);
        assertEquals(Optional.of(new LogOffsetMetadata(99L)), psm.firstUnstableOffset());
    }

    @Test
    void reloadKeepsProducersThatHaveNotExpired() throws IOException {
        f.appendClient(1L, EPOCH, 0, 0L, false);
        f.appendClient(2L, EPOCH, 0, 1L, false);
        psm.takeSnapshot();
        assertEquals(2, psm.activeProducers().size());

        psm.truncateAndReload(1L, 2L, f.now);
        assertEquals(2, psm.activeProducers().size());
        assertEquals(2, psm.producerIdCount());
        assertEquals(0L, f.entry(1L).lastDataOffset());
        assertEquals(1L, f.entry(2L).lastDataOffset());
    }

    @Test
    void reloadDropsExpiredProducersButNotOpenTransactions() throws IOException {
        f.appendClient(1L, EPOCH, 0, 0L, false);
        f.appendClient(2L, EPOCH, 0, 1L, true);
        psm.takeSnapshot();

        ProducerStateManager recovered = f.newStateManager();
        recovered.truncateAndReload(0L, 2L, f.now + f.config.producerIdExpirationMs());
        assertEquals(Set.of(2L), recovered.activeProducers().keySet());
    }

    @Test
    void aProducerForgottenByTruncationMayStartAnywhere() throws IOException {
        f.appendClient(PID, EPOCH, 0, 0L, false);
        f.appendClient(PID, EPOCH, 1, 1L, false);
        psm.takeSnapshot();

        // The snapshot at 2 is above the log end: deleted, and the state starts empty.
        ProducerStateManager recovered = f.newStateManager();
        recovered.truncateAndReload(0L, 1L, f.now);
        assertFalse(recovered.activeProducers().containsKey(PID));
        f.appendClient(recovered, PID, EPOCH, 2, 2L, false);
        assertEquals(1, recovered.activeProducers().size());
        assertEquals(2, f.entry(recovered, PID).lastSeq());
        assertEquals(3L, recovered.mapEndOffset());
    }

    @Test
    void producersExpireAfterTheExpirationTime() {
        short epoch = 5;
        f.appendClient(PID, epoch, 0, 1L, false);
        f.sleep(f.config.producerIdExpirationMs() - 1);
        psm.removeExpiredProducers(f.now);
        assertTrue(psm.lastEntry(PID).isPresent());

        f.sleep(1);
        psm.removeExpiredProducers(f.now);
        assertEquals(Optional.empty(), psm.lastEntry(PID));
        assertEquals(0, psm.producerIdCount());
        // Forgotten, the producer may go on at any sequence.
        f.appendClient(PID, epoch, 7, 2L, false);
        assertEquals(7, f.entry(PID).lastSeq());
        assertEquals(3L, psm.mapEndOffset());
    }

    @Test
    void theExpirationTimeIsADynamicSetting() {
        f.appendClient(PID, EPOCH, 0, 1L, false);
        f.sleep(1000);
        psm.removeExpiredProducers(f.now);
        assertTrue(psm.lastEntry(PID).isPresent());
        f.config.setProducerIdExpirationMs(1000);
        psm.removeExpiredProducers(f.now);
        assertEquals(Optional.empty(), psm.lastEntry(PID));
        assertThrows(IllegalArgumentException.class, () -> f.config.setProducerIdExpirationMs(0));
    }

    @Test
    void producersWithAnOpenTransactionDoNotExpire() {
        f.appendClient(PID, (short) 5, 0, 99L, true);
        f.sleep(f.config.producerIdExpirationMs() + 1);
        psm.removeExpiredProducers(f.now);
        assertTrue(psm.lastEntry(PID).isPresent());
        assertEquals(OptionalLong.of(99L), psm.firstUndecidedOffset());
    }

    @Test
    void aFencingAbortMarkerLeavesAnEpochButNoBatches() {
        f.appendClient(PID, EPOCH, 0, 0L, true);
        f.appendMarker(PID, (short) (EPOCH + 1), TransactionResult.ABORT, 1L);
        ProducerStateEntry entry = f.entry(PID);
        assertEquals(OptionalLong.empty(), entry.currentTxnFirstOffset());
        assertEquals(-1L, entry.lastDataOffset());
        assertEquals(-1L, entry.firstDataOffset());
        psm.removeExpiredProducers(f.now);
        assertTrue(psm.lastEntry(PID).isPresent());
        assertEquals(Map.of(PID, new LastRecord(OptionalLong.empty(), (short) 1)), psm.lastRecordsOfActiveProducers());
    }

    @Test
    void lastRecordsNameEachProducersLastDataOffset() {
        f.appendClient(1L, EPOCH, 0, 0L, false);
        f.appendClient(2L, (short) 3, 0, 1L, false);
        f.appendClient(1L, EPOCH, 1, 2L, false);
        assertEquals(
                Map.of(1L, new LastRecord(OptionalLong.of(2L), EPOCH), 2L, new LastRecord(OptionalLong.of(1L), (short)
                        3)),
                psm.lastRecordsOfActiveProducers());
    }

    @Test
    void deleteSnapshotsBeforeAnOffset() throws IOException {
        f.appendClient(PID, EPOCH, 0, 0L, false);
        f.appendClient(PID, EPOCH, 1, 1L, false);
        psm.takeSnapshot();
        f.appendClient(PID, EPOCH, 2, 2L, false);
        psm.takeSnapshot();
        assertEquals(Set.of(2L, 3L), snapshotOffsets());

        psm.deleteSnapshotsBefore(3L);
        assertEquals(Set.of(3L), snapshotOffsets());
        assertEquals(OptionalLong.of(3L), psm.oldestSnapshotOffset());
        psm.deleteSnapshotsBefore(4L);
        assertEquals(Set.of(), snapshotOffsets());
        assertEquals(OptionalLong.empty(), psm.latestSnapshotOffset());
    }

    @Test
    void truncateFullyForgetsEverythingAndStartsAgain() throws IOException {
        f.appendClient(PID, EPOCH, 0, 0L, true);
        f.appendClient(PID, EPOCH, 1, 1L, true);
        psm.takeSnapshot();
        f.appendClient(PID, EPOCH, 2, 2L, true);
        psm.takeSnapshot();
        assertEquals(Set.of(2L, 3L), snapshotOffsets());

        psm.truncateFullyAndStartAt(0L);
        assertEquals(Set.of(), snapshotOffsets());
        assertTrue(psm.isEmpty());
        assertEquals(Optional.empty(), psm.firstUnstableOffset());
        assertEquals(0L, psm.mapEndOffset());

        f.appendClient(PID, EPOCH, 0, 0L, false);
        psm.takeSnapshot();
        assertEquals(Set.of(1L), snapshotOffsets());
    }

    @Test
    void truncateFullyAndReloadSnapshotsReadsTheDirectoryAgain() throws IOException {
        f.appendClient(PID, EPOCH, 1, 1L, false);
        f.appendClient(PID, EPOCH, 2, 2L, false);
        psm.takeSnapshot();
        Path first = logDir.resolve("00000000000000000003.snapshot");
        byte[] firstBytes = Files.readAllBytes(first);
        f.appendClient(PID, EPOCH, 3, 3L, false);
        f.appendClient(PID, EPOCH, 4, 4L, false);
        psm.takeSnapshot();
        assertEquals(Set.of(3L, 5L), snapshotOffsets());

        psm.truncateAndReload(3L, 5L, f.now);
        assertEquals(Set.of(5L), snapshotOffsets());

        Files.write(first, firstBytes);
        psm.truncateFullyAndReloadSnapshots();
        assertEquals(OptionalLong.of(3L), psm.latestSnapshotOffset());
        assertEquals(Set.of(3L), snapshotOffsets());
    }

    @ParameterizedTest
    @ValueSource(strings = {"empty", "truncated", "garbage"})
    void aCorruptSnapshotIsDeletedAndTheOlderOneLoaded(String damage) throws IOException {
        f.appendClient(PID, EPOCH, 0, 0L, false);
        psm.takeSnapshot();
        f.appendClient(PID, EPOCH, 1, 1L, false);
        psm.takeSnapshot();
        assertEquals(OptionalLong.of(2L), psm.latestSnapshotOffset());

        Path latest = LogFileUtils.producerSnapshotFile(logDir, 2L);
        try (FileChannel channel = FileChannel.open(latest, StandardOpenOption.WRITE)) {
            switch (damage) {
                case "empty" -> channel.truncate(0L);
                case "truncated" -> channel.truncate(channel.size() / 2);
                default -> channel.write(java.nio.ByteBuffer.wrap(new byte[37]), 3);
            }
        }
        CorruptSnapshotException e =
                assertThrows(CorruptSnapshotException.class, () -> ProducerStateManager.readSnapshot(latest));
        assertEquals(latest, e.file());
        assertTrue(e.getMessage().contains(latest.toString()), e.getMessage());

        ProducerStateManager reloaded = f.newStateManager();
        reloaded.truncateAndReload(0L, 20L, f.now);
        assertFalse(Files.exists(latest));
        assertEquals(0L, f.entry(reloaded, PID).lastDataOffset());
        assertEquals(1L, reloaded.mapEndOffset());
    }

    @Test
    void strayDeletionKeepsTheSnapshotOfACleanShutdown() throws IOException {
        for (long offset : new long[] {5L, 2L, 42L}) {
            Files.createFile(LogFileUtils.producerSnapshotFile(logDir, offset));
        }
        psm.removeStraySnapshots(List.of(5L));
        assertEquals(OptionalLong.of(42L), psm.latestSnapshotOffset());
        assertEquals(OptionalLong.of(5L), psm.oldestSnapshotOffset());
        assertEquals(
                List.of(5L, 42L),
                ProducerStateManager.listSnapshotFiles(logDir).stream()
                        .map(SnapshotFile::offset)
                        .toList());
    }

    @Test
    void strayDeletionRemovesSnapshotsBelowTheLastSegment() throws IOException {
        for (long offset : new long[] {5L, 2L, 42L}) {
            Files.createFile(LogFileUtils.producerSnapshotFile(logDir, offset));
        }
        psm.removeStraySnapshots(List.of(42L));
        assertEquals(
                List.of(42L),
                ProducerStateManager.listSnapshotFiles(logDir).stream()
                        .map(SnapshotFile::offset)
                        .toList());
        assertEquals(OptionalLong.of(42L), psm.oldestSnapshotOffset());
    }

    @Test
    void strayDeletionWithoutSegmentsKeepsOnlyTheLargest() throws IOException {
        for (long offset : new long[] {5L, 2L, 42L}) {
            Files.createFile(LogFileUtils.producerSnapshotFile(logDir, offset));
        }
        psm.removeStraySnapshots(List.of());
        assertEquals(Set.of(42L), snapshotOffsets());
    }

    @Test
    void markingASnapshotForDeletionRenamesIt() throws IOException {
        Files.createFile(LogFileUtils.producerSnapshotFile(logDir, 5L));
        ProducerStateManager manager = f.newStateManager();
        assertEquals(OptionalLong.of(5L), manager.latestSnapshotOffset());

        SnapshotFile marked = manager.removeAndMarkSnapshotForDeletion(5L).orElseThrow();
        assertEquals(logDir.resolve("00000000000000000005.snapshot.deleted"), marked.file());
        assertEquals(Set.of("00000000000000000005.snapshot.deleted"), files());
        assertEquals(OptionalLong.empty(), manager.latestSnapshotOffset());
        assertEquals(Optional.empty(), manager.removeAndMarkSnapshotForDeletion(5L));
    }

    @Test
    void markingASnapshotDeletedAlreadyForgetsIt() throws IOException {
        Path file = LogFileUtils.producerSnapshotFile(logDir, 5L);
        Files.createFile(file);
        ProducerStateManager manager = f.newStateManager();
        Files.delete(file);
        assertEquals(Optional.empty(), manager.removeAndMarkSnapshotForDeletion(5L));
        assertEquals(OptionalLong.empty(), manager.latestSnapshotOffset());
    }

    @Test
    void snapshotsFollowARenamedDirectory() throws IOException {
        f.appendClient(PID, EPOCH, 0, 0L, false);
        psm.takeSnapshot();
        Path moved = Files.move(logDir, logDir.resolveSibling(logDir.getFileName() + "-moved"));
        try {
            psm.updateParentDir(moved);
            assertEquals(Optional.of(moved.resolve("00000000000000000001.snapshot")), psm.fetchSnapshot(1L));
            f.appendClient(PID, EPOCH, 1, 1L, false);
            assertEquals(Optional.of(moved.resolve("00000000000000000002.snapshot")), psm.takeSnapshot());
            psm.deleteSnapshotsBefore(2L);
            assertFalse(Files.exists(moved.resolve("00000000000000000001.snapshot")));
        } finally {
            Files.move(moved, logDir);
        }
    }

    @Test
    void theTemporaryFileOfAnInterruptedWriteIsRemovedAndNeverLoaded() throws IOException {
        Path interrupted = logDir.resolve("00000000000000000007.snapshot.tmp");
        Files.write(interrupted, new byte[] {0, 1, 2});
        Path foreign = logDir.resolve("notes.snapshot");
        Files.write(foreign, new byte[] {9});

        ProducerStateManager manager = f.newStateManager();
        assertFalse(Files.exists(interrupted));
        assertTrue(Files.exists(foreign));
        assertEquals(OptionalLong.empty(), manager.latestSnapshotOffset());
        assertEquals(List.of(), ProducerStateManager.listSnapshotFiles(logDir));
    }

    @Test
    void aMissingDirectoryHasNoSnapshots() throws IOException {
        ProducerStateManager manager = new ProducerStateManager(
                ProducerStateFixture.PARTITION,
                logDir.resolve("absent"),
                ProducerStateFixture.MAX_TRANSACTION_TIMEOUT_MS,
                f.config);
        assertEquals(OptionalLong.empty(), manager.latestSnapshotOffset());
        manager.truncateAndReload(0L, 10L, f.now);
        assertEquals(0L, manager.mapEndOffset());
    }

    @Test
    void theLogStartMovingUpForgetsCompletedTransactionsBelowIt() {
        f.appendClient(PID, EPOCH, 0, 10L, true);
        f.appendMarker(PID, EPOCH, TransactionResult.COMMIT, 11L);
        assertFalse(psm.isEmpty());
        assertEquals(Optional.of(new LogOffsetMetadata(10L)), psm.firstUnstableOffset());
        psm.onLogStartOffsetIncremented(12L);
        assertEquals(Optional.empty(), psm.firstUnstableOffset());
        assertEquals(12L, psm.mapEndOffset());
        psm.onLogStartOffsetIncremented(20L);
        assertEquals(20L, psm.mapEndOffset());
    }
}
