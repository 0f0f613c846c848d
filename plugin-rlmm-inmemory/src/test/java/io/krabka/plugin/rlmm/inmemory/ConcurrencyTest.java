package io.krabka.plugin.rlmm.inmemory;

import static io.krabka.plugin.rlmm.inmemory.Fixtures.TP0;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.list;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.manager;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.started;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.update;
import static io.krabka.spi.storage.RemoteLogSegmentState.COPY_SEGMENT_FINISHED;
import static io.krabka.spi.storage.RemoteLogSegmentState.DELETE_SEGMENT_FINISHED;
import static io.krabka.spi.storage.RemoteLogSegmentState.DELETE_SEGMENT_STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers add, finish and delete segments in one shared partition and in partitions of their own while readers
 * look up, list and snapshot; every answer a reader gets must be one the cache could give, and the end state must
 * hold every change.
 */
class ConcurrencyTest {

    private static final int WRITERS = 4;
    private static final int READERS = 3;
    private static final int SEGMENTS_PER_WRITER = 300;
    private static final int EPOCHS = 2;

    private final InMemoryRemoteLogMetadataManager manager = manager();
    private final Map<Uuid, RemoteLogSegmentMetadata> readable = new ConcurrentHashMap<>();

    @TempDir
    Path dir;

    @Test
    void concurrentChangesLookupsAndSnapshots() throws Exception {
        manager.onPartitionLeadershipChanges(Set.of(TP0), Set.of());
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean writing = new AtomicBoolean(true);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.add(pool.submit(() -> write(writer, start)));
            }
            List<Future<Integer>> readers = new ArrayList<>();
            for (int r = 0; r < READERS; r++) {
                int reader = r;
                readers.add(pool.submit((Callable<Integer>) () -> read(reader, start, writing)));
            }
            start.countDown();
            for (Future<?> writer : writers) {
                writer.get(2, TimeUnit.MINUTES);
            }
            writing.set(false);
            for (Future<Integer> reader : readers) {
                assertTrue(reader.get(2, TimeUnit.MINUTES) > 0, "the reader checked something");
            }
        } finally {
            pool.shutdownNow();
        }
        checkEndState();
    }

    private Void write(int writer, CountDownLatch start) throws Exception {
        start.await();
        TopicIdPartition own = new TopicIdPartition(Uuid.randomUuid(), "writer", writer);
        for (int i = 0; i < SEGMENTS_PER_WRITER; i++) {
            long base = offsetBase(writer, i);
            RemoteLogSegmentMetadata shared = started(TP0, base, base + 99, Map.of(writer % EPOCHS, base));
            manager.addRemoteLogSegmentMetadata(shared);
            manager.addRemoteLogSegmentMetadata(started(own, i * 100L, i * 100L + 99, Map.of(0, i * 100L)));
            RemoteLogSegmentMetadataUpdate finish = update(shared, COPY_SEGMENT_FINISHED);
            manager.updateRemoteLogSegmentMetadata(finish);
            if (i % 3 == 0) {
                manager.updateRemoteLogSegmentMetadata(update(shared, DELETE_SEGMENT_STARTED));
                manager.updateRemoteLogSegmentMetadata(update(shared, DELETE_SEGMENT_FINISHED));
            } else {
                readable.put(shared.remoteLogSegmentId().id(), shared.createWithUpdates(finish));
            }
        }
        return null;
    }

    private int read(int reader, CountDownLatch start, AtomicBoolean writing) throws Exception {
        start.await();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int checks = 0;
        do {
            int epoch = random.nextInt(EPOCHS);
            int writer = epoch + EPOCHS * random.nextInt(WRITERS / EPOCHS);
            long offset = offsetBase(writer, random.nextInt(SEGMENTS_PER_WRITER)) + random.nextInt(100);
            Optional<RemoteLogSegmentMetadata> found = manager.remoteLogSegmentMetadata(TP0, epoch, offset);
            found.ifPresent(segment -> {
                assertEquals(COPY_SEGMENT_FINISHED, segment.state());
                assertTrue(
                        segment.startOffset() <= offset && offset <= segment.endOffset(), segment + " for " + offset);
            });
            List<RemoteLogSegmentMetadata> listed = list(manager.listRemoteLogSegments(TP0, epoch));
            for (int i = 1; i < listed.size(); i++) {
                assertTrue(listed.get(i - 1).startOffset() < listed.get(i).startOffset(), "listed by start offset");
            }
            if (checks % 50 == 0) {
                // A snapshot taken mid-flight is consistent, or loading it would fail its checks.
                Path file = dir.resolve("reader-" + reader + ".json");
                manager.writeSnapshot(file);
                InMemoryRemoteLogMetadataManager copy = manager();
                copy.loadSnapshot(file);
                copy.close();
            }
            checks++;
        } while (writing.get());
        return checks;
    }

    private void checkEndState() throws Exception {
        for (int writer = 0; writer < WRITERS; writer++) {
            for (int i = 0; i < SEGMENTS_PER_WRITER; i++) {
                long offset = offsetBase(writer, i) + 50;
                Optional<RemoteLogSegmentMetadata> found =
                        manager.remoteLogSegmentMetadata(TP0, writer % EPOCHS, offset);
                if (i % 3 == 0) {
                    assertEquals(Optional.empty(), found, "deleted");
                } else {
                    assertEquals(
                            Optional.of(readable.get(
                                    found.orElseThrow().remoteLogSegmentId().id())),
                            found);
                }
            }
        }
        assertEquals(readable.size(), list(manager.listRemoteLogSegments(TP0)).size());
        for (int epoch = 0; epoch < EPOCHS; epoch++) {
            long highest = offsetBase(epoch + EPOCHS * (WRITERS / EPOCHS - 1), SEGMENTS_PER_WRITER - 1) + 99;
            assertEquals(Optional.of(highest), manager.highestOffsetForEpoch(TP0, epoch));
        }
        assertEquals(WRITERS + 1, manager.partitions().size());
    }

    private static long offsetBase(int writer, int segment) {
        return writer * 1_000_000L + segment * 100L;
    }
}
