package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.plugin.PluginRegistry;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a broker's remote tier holds, read as an operator would: the {@code inmemory} metadata manager's snapshot
 * and its journal (loaded by the distribution's own plugin, from copies) and the {@code local} tier's files.
 */
final class RemoteTier {
    private static final PluginRegistry PLUGINS = DistributionPlugins.discover();

    private RemoteTier() {}

    /** Every segment the snapshot in a broker's {@code tieredStorageDir} records for the partition, by start offset. */
    static List<RemoteLogSegmentMetadata> segments(Path tieredStorageDir, TopicIdPartition partition, Path workDir)
            throws IOException, RemoteStorageException {
        Path snapshot = tieredStorageDir.resolve("remote-log-metadata/snapshot.json");
        if (!Files.exists(snapshot)) {
            return List.of();
        }
        Path copy = Files.createTempFile(Files.createDirectories(workDir), "rlmm-", ".json");
        // The changes since the snapshot are in its journal beside it: copied first, so that a compaction in
        // between leaves a newer snapshot holding them (the journal then names another snapshot and is ignored).
        Path journal = snapshot.resolveSibling(snapshot.getFileName() + ".journal");
        Path journalCopy = copy.resolveSibling(copy.getFileName() + ".journal");
        try {
            Files.copy(journal, journalCopy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (java.nio.file.NoSuchFileException none) {
            // No change since the last snapshot, or the broker closed it into the snapshot.
        }
        Files.copy(snapshot, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (RemoteLogMetadataManager rlmm =
                PLUGINS.createRemoteLogMetadataManager("inmemory", Map.of("snapshot.path", copy.toString()))) {
            List<RemoteLogSegmentMetadata> segments = new ArrayList<>();
            try {
                rlmm.listRemoteLogSegments(partition).forEachRemaining(segments::add);
            } catch (io.krabka.spi.storage.RemoteResourceNotFoundException unknown) {
                return List.of();
            }
            segments.sort(Comparator.comparingLong(RemoteLogSegmentMetadata::startOffset));
            return segments;
        } finally {
            Files.deleteIfExists(copy);
            Files.deleteIfExists(journalCopy);
        }
    }

    /** The segments in a state. */
    static List<RemoteLogSegmentMetadata> inState(
            List<RemoteLogSegmentMetadata> segments, RemoteLogSegmentState state) {
        return segments.stream().filter(s -> s.state() == state).toList();
    }

    /**
     * Checks that the finished segments cover exactly [{@code from}, {@code to}] with neither gap nor overlap, that
     * no other segment is left, and that the tier's files are exactly theirs: nothing half-copied, nothing orphaned.
     */
    static void assertExactlyCovers(
            List<RemoteLogSegmentMetadata> segments, long from, long to, Path tierDir, TopicIdPartition partition)
            throws IOException {
        List<RemoteLogSegmentMetadata> finished = inState(segments, RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
        assertEquals(
                finished.size(),
                segments.stream()
                        .filter(s -> s.state() != RemoteLogSegmentState.DELETE_SEGMENT_FINISHED)
                        .count(),
                () -> "segments left copying or deleting: " + segments);
        long next = from;
        for (RemoteLogSegmentMetadata segment : finished) {
            assertEquals(
                    next, segment.startOffset(), () -> "a gap or an overlap before " + segment + " in " + finished);
            next = segment.endOffset() + 1;
        }
        assertEquals(to + 1, next, () -> "the tier ends at " + finished.getLast());
        Set<String> onDisk = TierSegment.scan(tierDir).stream()
                .filter(s -> s.partition().equals(partition))
                .map(s -> s.segmentId() + "@" + s.startOffset())
                .collect(Collectors.toSet());
        Set<String> recorded = finished.stream()
                .map(s -> s.remoteLogSegmentId().id() + "@" + s.startOffset())
                .collect(Collectors.toSet());
        assertEquals(recorded, onDisk, "the tier's files are exactly the finished segments'");
    }
}
