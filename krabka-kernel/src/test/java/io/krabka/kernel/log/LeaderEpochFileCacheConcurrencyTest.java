package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.checkpoint.EpochEntry;
import io.krabka.kernel.log.checkpoint.LeaderEpochCheckpointFile;
import io.krabka.spi.common.TopicPartition;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Readers never see the cache between the steps of a change, while a writer assigns and truncates. */
class LeaderEpochFileCacheConcurrencyTest {

    private static final int CHANGES = 200;
    private static final int READERS = 3;

    @TempDir
    Path dir;

    @Test
    void readersSeeOnlyOrderedEntriesWhileAWriterChangesThem() throws Exception {
        LeaderEpochCheckpointFile checkpoint = new LeaderEpochCheckpointFile(LeaderEpochCheckpointFile.newFile(dir));
        LeaderEpochFileCache cache = new LeaderEpochFileCache(new TopicPartition("orders", 0), checkpoint);
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        CountDownLatch readersStarted = new CountDownLatch(READERS);
        try (ExecutorService threads = Executors.newFixedThreadPool(READERS + 1)) {
            for (int r = 0; r < READERS; r++) {
                threads.submit(() -> {
                    readersStarted.countDown();
                    while (writing.get()) {
                        check(cache.epochEntries(), violations);
                        cache.latestEntry().ifPresent(latest -> {
                            EpochEndOffset end = cache.endOffsetFor(latest.epoch(), Long.MAX_VALUE);
                            if (end.leaderEpoch() > latest.epoch()) {
                                violations.add("endOffsetFor(" + latest.epoch() + ") = " + end);
                            }
                        });
                    }
                    return null;
                });
            }
            Future<?> writer = threads.submit(() -> {
                readersStarted.await();
                long offset = 0;
                for (int n = 1; n <= CHANGES; n++) {
                    offset += 1 + n % 5;
                    cache.assign(n, offset);
                    if (n % 7 == 0) {
                        cache.truncateFromEnd(offset - 3);
                    }
                    if (n % 11 == 0) {
                        cache.truncateFromStart(offset - 20);
                    }
                }
                return null;
            });
            try {
                writer.get();
            } finally {
                writing.set(false);
            }
        }
        assertTrue(
                violations.isEmpty(),
                () -> violations.stream().limit(5).toList().toString());
        assertEquals(cache.epochEntries(), checkpoint.read(), "the file holds the last change");
    }

    private static void check(List<EpochEntry> entries, ConcurrentLinkedQueue<String> violations) {
        for (int i = 1; i < entries.size(); i++) {
            EpochEntry before = entries.get(i - 1);
            EpochEntry after = entries.get(i);
            if (after.epoch() <= before.epoch() || after.startOffset() <= before.startOffset()) {
                violations.add("out of order: " + entries);
                return;
            }
        }
    }
}
