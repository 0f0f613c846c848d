package io.krabka.plugin.rsm.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StagingAreaTest {
    @TempDir
    Path dir;

    @TempDir
    Path local;

    /** What a process killed in the middle of a copy leaves: its directory, its unlocked lock file, half a file. */
    private Path deadInstance(String name) throws IOException {
        Path dead = Files.createDirectories(dir.resolve(StagingArea.DIR_NAME).resolve(name));
        Files.createFile(dead.resolve(StagingArea.LOCK_FILE));
        Path attempt = Files.createDirectories(dead.resolve(Segments.SEGMENT_ID + "-123"));
        Files.write(attempt.resolve("00000000000000000000-" + Segments.SEGMENT_ID + ".log"), new byte[4096]);
        return dead;
    }

    private Set<Path> instances() throws IOException {
        try (Stream<Path> children = Files.list(dir.resolve(StagingArea.DIR_NAME))) {
            return children.collect(Collectors.toSet());
        }
    }

    @Test
    void configureDeletesWhatDeadInstancesLeft() throws Exception {
        Path dead = deadInstance("instance-dead");
        Path unlockedEmpty =
                Files.createDirectories(dir.resolve(StagingArea.DIR_NAME).resolve("instance-empty"));

        try (LocalRemoteStorageManager rsm = new LocalRemoteStorageManager()) {
            rsm.configure(Map.of("dir", dir.toString()));
            assertFalse(Files.exists(dead));
            assertFalse(Files.exists(unlockedEmpty));
            assertEquals(1, instances().size(), "only the new instance's own directory: " + instances());
            try (Stream<Path> tier = Files.list(new LocalTieredStorageLayout(dir).root())) {
                assertEquals(0, tier.count(), "nothing of the dead copy reaches the tier");
            }
        }
        assertEquals(Set.of(), instances());
    }

    @Test
    void aLiveInstanceKeepsItsDirectoryWhenAnotherStarts() throws Exception {
        try (LocalRemoteStorageManager first = new LocalRemoteStorageManager();
                LocalRemoteStorageManager second = new LocalRemoteStorageManager()) {
            first.configure(Map.of("dir", dir.toString()));
            Set<Path> firstOnly = instances();
            second.configure(Map.of("dir", dir.toString()));

            assertEquals(2, instances().size());
            assertTrue(instances().containsAll(firstOnly));
            RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, 10);
            first.copyLogSegmentData(
                    metadata,
                    Segments.write(local, "s", Segments.bytes(1, 10), false).data());
            try (var in = second.fetchLogSegment(metadata, 0)) {
                assertEquals(10, in.readAllBytes().length);
            }
        }
        assertEquals(Set.of(), instances());
    }
}
