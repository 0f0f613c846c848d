package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.checkpoint.EpochEntry;
import io.krabka.kernel.log.checkpoint.LeaderEpochCheckpointFile;
import io.krabka.kernel.log.checkpoint.MalformedFileException;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka's LeaderEpochFileCacheTest scenarios, and the checkpoint file kept in step with every change. */
class LeaderEpochFileCacheTest {

    private static final TopicPartition TP = new TopicPartition("orders", 5);
    private static final EpochEndOffset UNDEFINED = EpochEndOffset.UNDEFINED;

    @TempDir
    Path dir;

    private LeaderEpochCheckpointFile checkpoint;
    private LeaderEpochFileCache cache;

    @BeforeEach
    void open() throws IOException {
        checkpoint = new LeaderEpochCheckpointFile(LeaderEpochCheckpointFile.newFile(dir));
        cache = new LeaderEpochFileCache(TP, checkpoint);
    }

    @Test
    void previousEpochIsTheOneBeforeTheLatest() throws IOException {
        assertEquals(OptionalInt.empty(), cache.previousEpoch());
        cache.assign(2, 10);
        assertEquals(OptionalInt.empty(), cache.previousEpoch());
        cache.assign(4, 15);
        assertEquals(OptionalInt.of(2), cache.previousEpoch());
        cache.assign(10, 20);
        assertEquals(OptionalInt.of(4), cache.previousEpoch());
        cache.truncateFromEnd(18);
        assertEquals(OptionalInt.of(2), cache.previousEpoch());
    }

    @Test
    void anAssignedEpochIsTheLatestAndEndsAtTheLogEnd() throws IOException {
        cache.assign(2, 10);
        assertEquals(OptionalInt.of(2), cache.latestEpoch());
        assertEquals(Optional.of(new EpochEntry(2, 10)), cache.latestEntry());
        assertEquals(List.of(new EpochEntry(2, 10)), cache.epochEntries());
        assertEquals(new EpochEndOffset(2, 11), cache.endOffsetFor(2, 11));
        assertTrue(cache.nonEmpty());
    }

    @Test
    void theLatestEpochIsNotMovedToALaterOffset() throws IOException {
        cache.assign(2, 6);
        cache.assign(2, 10);
        cache.assign(2, 7);
        assertEquals(List.of(new EpochEntry(2, 6)), cache.epochEntries());
        assertEquals(new EpochEndOffset(2, 14), cache.endOffsetFor(2, 14));
    }

    @Test
    void theLatestEpochAtAnEarlierOffsetReplacesItAndLaterConflicts() throws IOException {
        cache.assign(5, 11);
        cache.assign(6, 12);
        cache.assign(7, 13);
        cache.assign(7, 12);
        assertEquals(List.of(new EpochEntry(5, 11), new EpochEntry(7, 12)), cache.epochEntries());
        assertEquals(new EpochEndOffset(5, 12), cache.endOffsetFor(5, 0));
        assertEquals(new EpochEndOffset(5, 12), cache.endOffsetFor(6, 0));
    }

    @Test
    void aNewEpochAtTheSameOffsetReplacesTheOldOne() throws IOException {
        cache.assign(2, 9);
        cache.assign(3, 9);
        assertEquals(List.of(new EpochEntry(3, 9)), cache.epochEntries());
    }

    @Test
    void anOlderEpochRemovesTheLaterOnes() throws IOException {
        cache.assign(1, 5);
        cache.assign(2, 6);
        cache.assign(1, 7);
        assertEquals(OptionalInt.of(1), cache.latestEpoch());
        assertEquals(List.of(new EpochEntry(1, 7)), cache.epochEntries());
        assertEquals(new EpochEndOffset(1, 8), cache.endOffsetFor(1, 8));
        assertEquals(UNDEFINED, cache.endOffsetFor(2, 8));
    }

    @Test
    void aNewEpochAtAnEarlierOffsetRemovesTheEntriesAfterIt() throws IOException {
        cache.assign(2, 6);
        cache.assign(3, 5);
        assertEquals(List.of(new EpochEntry(3, 5)), cache.epochEntries());
    }

    @Test
    void negativeEpochsAndOffsetsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> cache.assign(-1, 5));
        assertThrows(IllegalArgumentException.class, () -> cache.assign(1, -5));
        assertFalse(cache.nonEmpty());
    }

    @Test
    void endOffsetForFollowsOffsetsForLeaderEpoch() throws IOException {
        assertEquals(UNDEFINED, cache.endOffsetFor(0, 0));
        assertEquals(UNDEFINED, cache.endOffsetFor(EpochEndOffset.UNDEFINED_EPOCH, 73));
        cache.assign(0, 10);
        cache.assign(2, 13);
        cache.assign(4, 17);
        assertEquals(UNDEFINED, cache.endOffsetFor(EpochEndOffset.UNDEFINED_EPOCH, 0));
        assertEquals(new EpochEndOffset(0, 13), cache.endOffsetFor(1, 0), "an unknown epoch: the largest below it");
        assertEquals(new EpochEndOffset(2, 17), cache.endOffsetFor(2, 0));
        assertEquals(new EpochEndOffset(2, 17), cache.endOffsetFor(3, 0));
        assertEquals(new EpochEndOffset(4, 20), cache.endOffsetFor(4, 20), "the latest epoch ends at the log end");
        assertEquals(UNDEFINED, cache.endOffsetFor(5, 20), "an epoch above every known one");
    }

    @Test
    void anEpochBelowTheFirstEndsWhereTheFirstStarts() throws IOException {
        cache.assign(5, 11);
        cache.assign(6, 12);
        cache.assign(7, 13);
        assertEquals(new EpochEndOffset(4, 11), cache.endOffsetFor(4, 0));
    }

    @Test
    void epochsAreTrackedAsLeadersChange() throws IOException {
        cache.assign(0, 0);
        cache.assign(1, 0);
        assertEquals(List.of(new EpochEntry(1, 0)), cache.epochEntries());
        assertEquals(new EpochEndOffset(1, 0), cache.endOffsetFor(1, 0));
        assertEquals(new EpochEndOffset(0, 0), cache.endOffsetFor(0, 0));
        assertEquals(new EpochEndOffset(1, 5), cache.endOffsetFor(1, 5));
        cache.assign(2, 5);
        assertEquals(new EpochEndOffset(2, 10), cache.endOffsetFor(2, 10));
        assertEquals(new EpochEndOffset(1, 5), cache.endOffsetFor(1, 10));
        assertEquals(new EpochEndOffset(0, 0), cache.endOffsetFor(0, 10));
    }

    @Test
    void epochsAreTrackedAsAFollowerAppends() throws IOException {
        for (int offset = 0; offset < 9; offset++) {
            cache.assign(offset / 3, offset);
        }
        assertEquals(List.of(new EpochEntry(0, 0), new EpochEntry(1, 3), new EpochEntry(2, 6)), cache.epochEntries());
        assertEquals(new EpochEndOffset(2, 9), cache.endOffsetFor(2, 9));
        assertEquals(new EpochEndOffset(0, 3), cache.endOffsetFor(0, 9));
        assertEquals(new EpochEndOffset(1, 6), cache.endOffsetFor(1, 9));
    }

    @Test
    void truncateFromEndRemovesTheEntriesStartingAtOrAfterTheOffset() throws IOException {
        assign268And11();
        cache.truncateFromEnd(9);
        assertEquals(List.of(new EpochEntry(2, 6), new EpochEntry(3, 8)), cache.epochEntries());
        assertEquals(OptionalInt.of(3), cache.latestEpoch());
        cache.truncateFromEnd(8);
        assertEquals(List.of(new EpochEntry(2, 6)), cache.epochEntries());
        cache.truncateFromEnd(EpochEndOffset.UNDEFINED_EPOCH_OFFSET);
        assertEquals(List.of(new EpochEntry(2, 6)), cache.epochEntries());
    }

    @Test
    void truncateFromStartMovesTheLastRemovedEpochToTheNewStart() throws IOException {
        assign268And11();
        cache.truncateFromStart(1);
        assertEquals(entries268And11(), cache.epochEntries(), "an offset before every entry");
        cache.truncateFromStart(6);
        assertEquals(entries268And11(), cache.epochEntries(), "the first entry's own offset");
        cache.truncateFromStart(EpochEndOffset.UNDEFINED_EPOCH_OFFSET);
        assertEquals(entries268And11(), cache.epochEntries());
        cache.truncateFromStart(9);
        assertEquals(List.of(new EpochEntry(3, 9), new EpochEntry(4, 11)), cache.epochEntries());
        cache.truncateFromStart(11);
        assertEquals(List.of(new EpochEntry(4, 11)), cache.epochEntries());
        cache.truncateFromStart(15);
        assertEquals(List.of(new EpochEntry(4, 15)), cache.epochEntries());
    }

    @Test
    void truncateFromStartOnABoundaryKeepsThatEntry() throws IOException {
        assign268And11();
        cache.truncateFromStart(8);
        assertEquals(List.of(new EpochEntry(3, 8), new EpochEntry(4, 11)), cache.epochEntries());
    }

    @Test
    void truncateFromStartBetweenTheFirstTwoEntries() throws IOException {
        cache.assign(0, 0);
        cache.assign(1, 7);
        cache.assign(2, 10);
        cache.truncateFromStart(5);
        assertEquals(List.of(new EpochEntry(0, 5), new EpochEntry(1, 7), new EpochEntry(2, 10)), cache.epochEntries());
    }

    @Test
    void truncationsOfAnEmptyCacheChangeNothing() throws IOException {
        cache.truncateFromStart(7);
        cache.truncateFromEnd(7);
        assertEquals(List.of(), cache.epochEntries());
        assertFalse(Files.exists(checkpoint.file()), "nothing changed, nothing written");
        assertEquals(OptionalInt.empty(), cache.latestEpoch());
    }

    @Test
    void clearAndFlushRemovesEverything() throws IOException {
        assign268And11();
        cache.clearAndFlush();
        assertEquals(List.of(), cache.epochEntries());
        assertEquals(List.of(), checkpoint.read());
    }

    @Test
    void neighboursOfAnEpoch() throws IOException {
        assertEquals(OptionalInt.empty(), cache.previousEpoch(2));
        assertEquals(Optional.empty(), cache.previousEntry(2));
        cache.assign(2, 10);
        assertEquals(OptionalInt.empty(), cache.previousEpoch(2));
        cache.assign(4, 15);
        assertEquals(OptionalInt.of(2), cache.previousEpoch(4));
        assertEquals(Optional.of(new EpochEntry(2, 10)), cache.previousEntry(4));
        cache.assign(10, 20);
        assertEquals(Optional.of(new EpochEntry(4, 15)), cache.previousEntry(10));
        assertEquals(OptionalInt.of(2), cache.nextEpoch(-1));
        assertEquals(OptionalInt.of(4), cache.nextEpoch(2));
        assertEquals(OptionalInt.of(10), cache.nextEpoch(5));
        assertEquals(OptionalInt.empty(), cache.nextEpoch(10));
        assertEquals(Optional.of(new EpochEntry(4, 15)), cache.epochEntry(4));
        assertEquals(Optional.empty(), cache.epochEntry(3));
        assertEquals(Optional.of(new EpochEntry(2, 10)), cache.earliestEntry());
        assertEquals(Map.of(2, 10L, 4, 15L, 10, 20L), cache.epochWithOffsets());
        cache.truncateFromEnd(18);
        assertEquals(OptionalInt.of(2), cache.previousEpoch(cache.latestEpoch().orElseThrow()));
    }

    @Test
    void epochForOffsetIsTheLastEntryStartingAtOrBeforeIt() throws IOException {
        assertEquals(OptionalInt.empty(), cache.epochForOffset(0));
        cache.assign(0, 10);
        cache.assign(1, 20);
        cache.assign(5, 30);
        assertEquals(OptionalInt.empty(), cache.epochForOffset(5));
        assertEquals(OptionalInt.of(0), cache.epochForOffset(10));
        assertEquals(OptionalInt.of(1), cache.epochForOffset(20));
        assertEquals(OptionalInt.of(1), cache.epochForOffset(25));
        assertEquals(OptionalInt.of(5), cache.epochForOffset(30));
        assertEquals(OptionalInt.of(5), cache.epochForOffset(50));
    }

    @Test
    void epochEntriesInRangeIsATieredSegmentsEpochIndex() throws IOException {
        assign268And11();
        assertEquals(
                List.of(new EpochEntry(2, 6), new EpochEntry(3, 8)),
                cache.epochEntriesInRange(-1, 11),
                "from the log start up to the next segment's base offset");
        assertEquals(List.of(new EpochEntry(3, 9), new EpochEntry(4, 11)), cache.epochEntriesInRange(9, 20));
        assertEquals(List.of(new EpochEntry(2, 7)), cache.epochEntriesInRange(7, 8));
        assertEquals(List.of(new EpochEntry(4, 11)), cache.epochEntriesInRange(11, 12));
        assertEquals(entries268And11(), cache.epochEntries(), "the cache does not change");
    }

    @Test
    void everyChangeIsInTheCheckpointAndAReloadGetsTheSameCache() throws IOException {
        assign268And11();
        assertEquals(entries268And11(), checkpoint.read());
        cache.truncateFromEnd(11);
        assertEquals(List.of(new EpochEntry(2, 6), new EpochEntry(3, 8)), checkpoint.read());
        cache.truncateFromStart(8);
        assertEquals(List.of(new EpochEntry(3, 8)), checkpoint.read());
        cache.truncateFromStart(9);
        assertEquals(List.of(new EpochEntry(3, 9)), checkpoint.read());
        cache.assign(7, 12);
        assertEquals("0\n2\n3 9\n7 12\n", Files.readString(checkpoint.file()));

        LeaderEpochFileCache reloaded =
                new LeaderEpochFileCache(TP, new LeaderEpochCheckpointFile(LeaderEpochCheckpointFile.newFile(dir)));
        assertEquals(cache.epochEntries(), reloaded.epochEntries());
        assertEquals(new EpochEndOffset(3, 12), reloaded.endOffsetFor(3, 20));
        try (Stream<Path> files = Files.list(dir)) {
            assertTrue(files.noneMatch(file -> file.getFileName().toString().endsWith(".tmp")));
        }
    }

    @Test
    void aCheckpointOutOfOrderLoadsAsAssignWouldHaveLeftIt() throws IOException {
        checkpoint.write(List.of(new EpochEntry(1, 0), new EpochEntry(3, 10), new EpochEntry(2, 20)));
        LeaderEpochFileCache loaded = new LeaderEpochFileCache(TP, checkpoint);
        assertEquals(List.of(new EpochEntry(1, 0), new EpochEntry(2, 20)), loaded.epochEntries());
    }

    @Test
    void aMalformedCheckpointIsATypedErrorNamingTheFile() throws IOException {
        Files.writeString(checkpoint.file(), "0\n2\n1 0\n");
        MalformedFileException e =
                assertThrows(MalformedFileException.class, () -> new LeaderEpochFileCache(TP, checkpoint));
        assertTrue(e.getMessage().contains(checkpoint.file().toString()), e.getMessage());
    }

    @Test
    void aFailedWriteIsReportedAndTheNextWriteCatchesUp() throws IOException {
        cache.assign(1, 0);
        Path blocker = dir.resolve(checkpoint.file().getFileName() + ".tmp");
        Files.createDirectory(blocker); // the temporary file cannot be created where a directory is
        Files.writeString(blocker.resolve("keep"), "x");
        assertThrows(IOException.class, () -> cache.assign(2, 5));
        assertEquals(List.of(new EpochEntry(1, 0)), checkpoint.read(), "the old file is intact");
        Files.delete(blocker.resolve("keep"));
        Files.delete(blocker);
        cache.assign(3, 9);
        assertEquals(List.of(new EpochEntry(1, 0), new EpochEntry(2, 5), new EpochEntry(3, 9)), checkpoint.read());
    }

    private void assign268And11() throws IOException {
        cache.assign(2, 6);
        cache.assign(3, 8);
        cache.assign(4, 11);
    }

    private static List<EpochEntry> entries268And11() {
        return List.of(new EpochEntry(2, 6), new EpochEntry(3, 8), new EpochEntry(4, 11));
    }
}
