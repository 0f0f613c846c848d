package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.log.checkpoint.EpochEntry;
import io.krabka.kernel.log.checkpoint.LeaderEpochCheckpointFile;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import org.apache.kafka.server.util.KafkaScheduler;
import org.apache.kafka.storage.internals.epoch.LeaderEpochFileCache;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kafka 4.4's own LeaderEpochFileCache judges Krabka's: the same random assignments and truncations, applied to
 * both, leave the same entries and give the same answers; Kafka reads the checkpoint Krabka keeps.
 */
class KafkaLeaderEpochCacheCompatibilityTest {

    private static final int OPERATIONS = 300;
    private static final int MAX_OFFSET = 60;

    @TempDir
    Path dir;

    private final LogDirFailureChannel failures = new LogDirFailureChannel(10);
    private final KafkaScheduler scheduler = new KafkaScheduler(1);

    @BeforeEach
    void start() {
        scheduler.startup();
    }

    @AfterEach
    void stop() throws InterruptedException {
        scheduler.shutdown();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void randomOperationsLeaveTheSameCache(long seed) throws IOException {
        Path ourFile = LeaderEpochCheckpointFile.newFile(Files.createDirectories(dir.resolve("ours-5")));
        io.krabka.kernel.log.LeaderEpochFileCache ours = new io.krabka.kernel.log.LeaderEpochFileCache(
                new TopicPartition("orders", 5), new LeaderEpochCheckpointFile(ourFile));
        Path theirFile = Files.createDirectories(dir.resolve("theirs-5")).resolve("leader-epoch-checkpoint");
        LeaderEpochFileCache theirs = new LeaderEpochFileCache(
                new org.apache.kafka.common.TopicPartition("orders", 5),
                new org.apache.kafka.storage.internals.checkpoint.LeaderEpochCheckpointFile(
                        theirFile.toFile(), failures),
                scheduler);

        Random random = new Random(seed);
        for (int n = 0; n < OPERATIONS; n++) {
            int choice = random.nextInt(20);
            long offset = random.nextInt(MAX_OFFSET + 2) - 1L;
            String operation;
            if (choice < 14) {
                // Mostly what a log sees (the latest epoch or a newer one, further on); sometimes anything.
                int latest = ours.latestEpoch().orElse(0);
                int epoch = random.nextInt(4) > 0 ? Math.min(8, latest + random.nextInt(2)) : random.nextInt(9);
                long startOffset = random.nextInt(4) > 0
                        ? ours.latestEntry().map(e -> e.startOffset()).orElse(0L) + random.nextInt(6)
                        : Math.max(0, offset);
                operation = "assign(" + epoch + ", " + startOffset + ")";
                ours.assign(epoch, startOffset);
                theirs.assign(epoch, startOffset);
            } else if (choice < 17) {
                operation = "truncateFromEnd(" + offset + ")";
                ours.truncateFromEnd(offset);
                theirs.truncateFromEndAsyncFlush(offset);
            } else if (choice < 19) {
                operation = "truncateFromStart(" + offset + ")";
                ours.truncateFromStart(offset);
                theirs.truncateFromStartAsyncFlush(offset);
            } else {
                operation = "clearAndFlush()";
                ours.clearAndFlush();
                theirs.clearAndFlush();
            }
            assertSame(theirs, ours, "seed " + seed + ", operation " + n + ": " + operation);
        }
        List<EpochEntry> inOurFile = new org.apache.kafka.storage.internals.checkpoint.LeaderEpochCheckpointFile(
                        ourFile.toFile(), failures)
                .read().stream()
                        .map(e -> new EpochEntry(e.epoch(), e.startOffset()))
                        .toList();
        assertEquals(entries(theirs), inOurFile, "Kafka reads Krabka's checkpoint as its own cache's entries");
    }

    private static void assertSame(
            LeaderEpochFileCache theirs, io.krabka.kernel.log.LeaderEpochFileCache ours, String after) {
        assertEquals(entries(theirs), ours.epochEntries(), after);
        assertEquals(theirs.latestEpoch().map(OptionalInt::of).orElse(OptionalInt.empty()), ours.latestEpoch(), after);
        assertEquals(theirs.previousEpoch(), ours.previousEpoch(), after);
        assertEquals(
                theirs.earliestEntry().map(e -> new EpochEntry(e.epoch(), e.startOffset())),
                ours.earliestEntry(),
                after);
        assertEquals(theirs.epochWithOffsets(), ours.epochWithOffsets(), after);
        for (int epoch = -1; epoch <= 9; epoch++) {
            Map.Entry<Integer, Long> end = theirs.endOffsetFor(epoch, MAX_OFFSET + 5);
            assertEquals(
                    new EpochEndOffset(end.getKey(), end.getValue()),
                    ours.endOffsetFor(epoch, MAX_OFFSET + 5),
                    after + ", endOffsetFor(" + epoch + ")");
            assertEquals(theirs.previousEpoch(epoch), ours.previousEpoch(epoch), after);
            assertEquals(theirs.nextEpoch(epoch), ours.nextEpoch(epoch), after);
        }
        for (long offset = -1; offset <= MAX_OFFSET + 1; offset += 3) {
            assertEquals(
                    theirs.epochForOffset(offset),
                    ours.epochForOffset(offset),
                    after + ", epochForOffset(" + offset + ")");
            for (long end = offset; end <= MAX_OFFSET + 1; end += 7) {
                assertEquals(
                        theirs.epochEntriesInRange(offset, end).stream()
                                .map(e -> new EpochEntry(e.epoch(), e.startOffset()))
                                .toList(),
                        ours.epochEntriesInRange(offset, end),
                        after + ", epochEntriesInRange(" + offset + ", " + end + ")");
            }
        }
    }

    private static List<EpochEntry> entries(LeaderEpochFileCache cache) {
        return cache.epochEntries().stream()
                .map(e -> new EpochEntry(e.epoch(), e.startOffset()))
                .toList();
    }
}
