package io.krabka.plugin.rsm.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Many threads copying, fetching and deleting different segments of a few partitions at once. */
class ConcurrentSegmentsTest {
    private static final int THREADS = 8;
    private static final int SEGMENTS_PER_PARTITION = 24;

    @TempDir
    Path dir;

    @TempDir
    Path local;

    private record Case(RemoteLogSegmentMetadata metadata, Segments.Local segment, boolean deleted) {}

    @Test
    void differentSegmentsDoNotDisturbEachOther() throws Exception {
        // Partition "kept" keeps half its segments; in "emptied" every segment is deleted, so its directory is
        // removed and re-created while other threads copy into it.
        List<TopicIdPartition> partitions = List.of(
                new TopicIdPartition(Uuid.randomUuid(), "kept", 0),
                new TopicIdPartition(Uuid.randomUuid(), "emptied", 1));
        List<Case> cases = new ArrayList<>();
        for (TopicIdPartition partition : partitions) {
            for (int i = 0; i < SEGMENTS_PER_PARTITION; i++) {
                byte[] log = Segments.bytes(cases.size(), 1_000 + 37 * i);
                Segments.Local segment = Segments.write(local.resolve("s" + cases.size()), "s", log, i % 2 == 0);
                boolean deleted = partition.topic().equals("emptied") || i % 2 == 1;
                cases.add(new Case(
                        Segments.metadata(partition, Uuid.randomUuid(), 100L * i, log.length), segment, deleted));
            }
        }

        try (LocalRemoteStorageManager rsm = new LocalRemoteStorageManager();
                ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            rsm.configure(Map.of("dir", dir.toString()));
            List<Callable<Void>> tasks = cases.stream()
                    .<Callable<Void>>map(c -> () -> {
                        rsm.copyLogSegmentData(c.metadata(), c.segment().data());
                        try (InputStream in = rsm.fetchLogSegment(c.metadata(), 0)) {
                            assertArrayEquals(c.segment().log(), in.readAllBytes());
                        }
                        try (InputStream in = rsm.fetchIndex(c.metadata(), IndexType.TIMESTAMP)) {
                            assertArrayEquals(c.segment().timeIndex(), in.readAllBytes());
                        }
                        if (c.deleted()) {
                            rsm.deleteLogSegmentData(c.metadata());
                        }
                        return null;
                    })
                    .toList();
            for (Future<Void> result : pool.invokeAll(tasks)) {
                result.get();
            }

            for (Case c : cases) {
                if (c.deleted()) {
                    assertThrows(RemoteResourceNotFoundException.class, () -> rsm.fetchLogSegment(c.metadata(), 0));
                } else {
                    try (InputStream in = rsm.fetchLogSegment(c.metadata(), 0)) {
                        assertArrayEquals(c.segment().log(), in.readAllBytes());
                    }
                }
            }
            LocalTieredStorageLayout layout = new LocalTieredStorageLayout(dir);
            try (var files = Files.list(layout.partitionDirectory(partitions.get(0)))) {
                assertEquals(
                        SEGMENTS_PER_PARTITION / 2 * 5 + SEGMENTS_PER_PARTITION / 2,
                        files.count(),
                        "five files per kept segment, plus a transaction index for every kept one with an even number");
            }
            assertEquals(false, Files.exists(layout.partitionDirectory(partitions.get(1))));
        }
    }
}
