package io.krabka.plugin.rlmm.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.rlmm.cache.MetadataSnapshot;
import io.krabka.rlmm.cache.RemotePartitionMetadataStore;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local snapshot: what is written is read back whole, and a damaged file is refused, never half-loaded. */
class LocalSnapshotTest {

    private static final TopicIdPartition FOO = new TopicIdPartition(Uuid.randomUuid(), "foo", 0);
    private static final TopicIdPartition BAR = new TopicIdPartition(Uuid.randomUuid(), "bar", 7);

    @TempDir
    Path dir;

    @Test
    void readsBackTheOffsetsAndTheWholeCache() throws Exception {
        LocalSnapshot written = new LocalSnapshot(50, Map.of(3, 17L, 41, 0L), cache());
        Path file = dir.resolve("snapshot");
        written.write(file);

        assertEquals(written, LocalSnapshot.read(file).orElseThrow());
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList(), "no temporary file stays");
        }
    }

    @Test
    void noFileIsNoSnapshot() throws IOException {
        assertEquals(Optional.empty(), LocalSnapshot.read(dir.resolve("absent")));
    }

    @Test
    void aDamagedFileIsRefused() throws Exception {
        Path file = dir.resolve("snapshot");
        new LocalSnapshot(50, Map.of(3, 17L), cache()).write(file);
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 1;
        Files.write(file, bytes);
        assertTrue(assertThrows(IOException.class, () -> LocalSnapshot.read(file))
                .getMessage()
                .contains("checksum"));
        Files.write(file, new byte[] {1, 2});
        assertThrows(IOException.class, () -> LocalSnapshot.read(file));
    }

    /** A cache with a readable segment, one being deleted, and a partition whose deletion is marked. */
    private static MetadataSnapshot cache() throws Exception {
        RemotePartitionMetadataStore store = new RemotePartitionMetadataStore();
        RemoteLogSegmentId first = new RemoteLogSegmentId(FOO, Uuid.randomUuid());
        RemoteLogSegmentId second = new RemoteLogSegmentId(FOO, Uuid.randomUuid());
        store.addCopyInProgressSegment(
                new RemoteLogSegmentMetadata(first, 0, 99, 5, 1, 6, 1024, new TreeMap<>(Map.of(0, 0L, 2, 50L)), true));
        store.updateRemoteLogSegmentMetadata(new RemoteLogSegmentMetadataUpdate(
                first,
                7,
                Optional.of(new CustomMetadata(new byte[] {9})),
                RemoteLogSegmentState.COPY_SEGMENT_FINISHED,
                1));
        store.addCopyInProgressSegment(
                new RemoteLogSegmentMetadata(second, 100, 199, 5, 1, 8, 2048, new TreeMap<>(Map.of(2, 100L)), false));
        store.updateRemoteLogSegmentMetadata(new RemoteLogSegmentMetadataUpdate(
                second, 9, Optional.empty(), RemoteLogSegmentState.DELETE_SEGMENT_STARTED, 1));
        store.putRemotePartitionDeleteMetadata(
                new RemotePartitionDeleteMetadata(BAR, RemotePartitionDeleteState.DELETE_PARTITION_MARKED, 10, 0));
        return store.snapshot();
    }
}
