package io.krabka.kernel.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.testservers.SmallFileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller on a real full disk, a small tmpfs: a metadata write that finds no room fails with
 * KAFKA_STORAGE_ERROR and leaves the metadata log as it was, and the next write succeeds once there is room again,
 * without a restart; a restart then replays exactly what was committed.
 */
class QuorumControllerFullDiskTest {

    @TempDir
    Path dir;

    @Test
    void aMetadataWriteOnAFullDiskFailsAloneAndTheNextSucceedsOnceThereIsRoom() throws Exception {
        try (SmallFileSystem disk = SmallFileSystem.mount(dir.resolve("disk"), 2 * 1024 * 1024)) {
            Path logDir = disk.root().resolve("data");
            try (Controllers controllers = Controllers.formatAndStart(logDir, Map.of())) {
                create(controllers, "before", 1);
                long segmentBytes = segmentBytes(logDir);
                disk.fill();

                // Thousands of partition records: far more than the room left in the segment's last page.
                ExecutionException full =
                        assertThrows(ExecutionException.class, () -> create(controllers, "full", 2000));
                assertInstanceOf(KafkaStorageException.class, full.getCause());
                assertTrue(controllers.controller().image().topic("full").isEmpty());
                assertEquals(segmentBytes, segmentBytes(logDir), "nothing of the failed write is left");

                disk.free();
                create(controllers, "after", 2000);
                assertTrue(controllers.controller().image().topic("after").isPresent());

                controllers.restart();
                assertTrue(controllers.controller().image().topic("before").isPresent());
                assertTrue(controllers.controller().image().topic("after").isPresent());
                assertTrue(controllers.controller().image().topic("full").isEmpty());
            }
        }
    }

    private static void create(Controllers controllers, String name, int partitions) throws Exception {
        CreateTopicsRequestData request = new CreateTopicsRequestData();
        request.topics().add(QuorumControllerTestTopics.topic(name, partitions));
        controllers
                .controller()
                .createTopics(request)
                .get()
                .topics()
                .forEach(result -> assertEquals(Errors.NONE.code(), result.errorCode(), result.errorMessage()));
    }

    private static long segmentBytes(Path logDir) throws Exception {
        try (Stream<Path> files = Files.list(logDir.resolve("__cluster_metadata-0"))) {
            List<Path> logs = files.filter(f -> f.toString().endsWith(".log")).toList();
            long total = 0;
            for (Path log : logs) {
                total += Files.size(log);
            }
            return total;
        }
    }
}
