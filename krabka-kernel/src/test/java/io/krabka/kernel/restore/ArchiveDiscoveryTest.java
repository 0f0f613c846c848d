package io.krabka.kernel.restore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.archive.ArchiveLayout;
import io.krabka.kernel.plugin.PluginDiscovery;
import io.krabka.objectstore.SegmentArtifact;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.objectstore.ObjectStore;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The discover stage over the real local store: both layouts grouped, everything else counted. */
class ArchiveDiscoveryTest {
    private static final String TOPIC_ID = "jF8s79t9SrG_PNqlwv7bAA";
    private static final String FIRST = "knnxbs3FSRyKdPcSAOQC-w";
    private static final String SECOND = "-AAAAAAAAAAAAAAAAAAAAA";

    @TempDir
    Path dir;

    private ObjectStore store;

    @BeforeEach
    void open() {
        store = PluginDiscovery.discover(Path.of("target/test-plugins"))
                .createObjectStore("local", Map.of("dir", dir.toString()));
    }

    @AfterEach
    void close() throws Exception {
        store.close();
    }

    private void put(String key) throws Exception {
        store.put(key, ByteBuffer.wrap(new byte[] {1}));
    }

    @Test
    void segmentsOfBothLayoutsAreGroupedByPartitionAndOrderedByStartOffset() throws Exception {
        String partition = "archive/or-ders-3-" + TOPIC_ID + "/";
        for (String suffix : List.of("log", "index", "timeindex", "snapshot", "leader_epoch_checkpoint", "manifest")) {
            put(partition + "00000000000000000100-" + FIRST + "." + suffix);
        }
        put(partition + "00000000000000000000-" + SECOND + ".log");
        put(partition + "00000000000000000000-" + SECOND + ".abandoned");
        String legacy = "archive/8c5f2cef-dc6d-4ab1-bf3c-f6a9c2f6edb0_1/0d3e4f5a-6b7c-4d8e-9fa0-b1c2d3e4f5a6/";
        put(legacy + "log");
        put(legacy + "offset_index");
        put("archive/notes.txt");
        put("archive/or-ders-3-" + TOPIC_ID + "/00000000000000000100-" + FIRST + ".unknown");
        put("elsewhere/or-ders-3-" + TOPIC_ID + "/00000000000000000100-" + FIRST + ".log");

        DiscoveredArchive archive = ArchiveDiscovery.discover(store, ArchiveLayout.underPrefix("/archive/"));

        assertEquals(2, archive.partitions().size());
        ArchivedPartition current = archive.partitions().stream()
                .filter(p -> p.topic().isPresent())
                .findFirst()
                .orElseThrow();
        assertEquals(Optional.of("or-ders"), current.topic());
        assertEquals(3, current.partition());
        assertEquals(Uuid.fromString(TOPIC_ID), current.topicId());
        assertEquals(
                List.of(OptionalLong.of(0), OptionalLong.of(100)),
                current.segments().stream().map(ArchivedSegment::startOffset).toList());
        ArchivedSegment abandoned = current.segments().getFirst();
        assertTrue(abandoned.abandoned().isPresent() && abandoned.manifest().isEmpty());
        ArchivedSegment sealed = current.segments().get(1);
        assertEquals(Uuid.fromString(FIRST), sealed.segmentId());
        assertEquals(
                Set.of(
                        SegmentArtifact.SEGMENT,
                        SegmentArtifact.OFFSET_INDEX,
                        SegmentArtifact.TIME_INDEX,
                        SegmentArtifact.PRODUCER_SNAPSHOT,
                        SegmentArtifact.LEADER_EPOCH_CHECKPOINT),
                sealed.objects().keySet());
        assertTrue(sealed.manifest().isPresent());

        ArchivedPartition old = archive.partitions().stream()
                .filter(p -> p.topic().isEmpty())
                .findFirst()
                .orElseThrow();
        assertEquals(1, old.partition());
        assertEquals(OptionalLong.empty(), old.segments().getFirst().startOffset());
        assertEquals(
                Set.of(SegmentArtifact.SEGMENT, SegmentArtifact.OFFSET_INDEX),
                old.segments().getFirst().objects().keySet());

        assertEquals(2, archive.unrecognizedKeys(), archive.unrecognizedSample().toString());
        assertTrue(archive.unrecognizedSample().contains("archive/notes.txt"));
    }

    @Test
    void anEmptyPrefixIsAnEmptyArchive() throws Exception {
        put("other/thing");
        DiscoveredArchive archive = ArchiveDiscovery.discover(store, ArchiveLayout.underPrefix("archive"));
        assertTrue(archive.isEmpty());
        assertEquals(0, archive.unrecognizedKeys());
    }

    @Test
    void theSampleOfUnrecognisedKeysIsBounded() throws Exception {
        for (int i = 0; i < ArchiveDiscovery.SAMPLE + 5; i++) {
            put("junk/" + i);
        }
        DiscoveredArchive archive = ArchiveDiscovery.discover(store, ArchiveLayout.underPrefix(""));
        assertEquals(ArchiveDiscovery.SAMPLE + 5, archive.unrecognizedKeys());
        assertEquals(ArchiveDiscovery.SAMPLE, archive.unrecognizedSample().size());
    }
}
