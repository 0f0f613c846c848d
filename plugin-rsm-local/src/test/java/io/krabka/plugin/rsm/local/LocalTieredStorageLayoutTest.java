package io.krabka.plugin.rsm.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.IndexType;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalTieredStorageLayoutTest {
    private final LocalTieredStorageLayout layout = new LocalTieredStorageLayout(Path.of("/data/tier"));

    @Test
    void namesEveryFileAsKafkasLocalTieredStorage() {
        SegmentFiles files = layout.files(Segments.metadata(Segments.SEGMENT_ID, 0, 10));
        String directory = "/data/tier/kafka-tiered-storage/tieredTopic-0-jF8s79t9SrG_PNqlwv7bAA";
        String prefix = directory + "/00000000000000000000-knnxbs3FSRyKdPcSAOQC-w";
        assertEquals(Path.of(directory), files.directory());
        assertEquals(
                Map.of(
                        SegmentFileType.SEGMENT, Path.of(prefix + ".log"),
                        SegmentFileType.OFFSET_INDEX, Path.of(prefix + ".index"),
                        SegmentFileType.TIME_INDEX, Path.of(prefix + ".timeindex"),
                        SegmentFileType.TRANSACTION_INDEX, Path.of(prefix + ".txnindex"),
                        SegmentFileType.LEADER_EPOCH_CHECKPOINT, Path.of(prefix + ".leader_epoch_checkpoint"),
                        SegmentFileType.PRODUCER_SNAPSHOT, Path.of(prefix + ".snapshot")),
                files.paths());
    }

    @Test
    void padsTheStartOffsetToTwentyDigits() {
        TopicIdPartition partition = new TopicIdPartition(Segments.TOPIC_ID, "orders.v2_eu-west", 17);
        SegmentFiles files = layout.files(Segments.metadata(partition, Segments.SEGMENT_ID, 1_234_567_890_123L, 10));
        assertEquals(
                Path.of("/data/tier/kafka-tiered-storage/orders.v2_eu-west-17-jF8s79t9SrG_PNqlwv7bAA/"
                        + "00000001234567890123-knnxbs3FSRyKdPcSAOQC-w.log"),
                files.path(SegmentFileType.SEGMENT));
        assertEquals(
                "09223372036854775807-knnxbs3FSRyKdPcSAOQC-w.snapshot",
                LocalTieredStorageLayout.fileName(
                        Long.MAX_VALUE, Segments.SEGMENT_ID, SegmentFileType.PRODUCER_SNAPSHOT));
    }

    @Test
    void mapsEachIndexToItsFile() {
        assertEquals(SegmentFileType.OFFSET_INDEX, SegmentFileType.of(IndexType.OFFSET));
        assertEquals(SegmentFileType.TIME_INDEX, SegmentFileType.of(IndexType.TIMESTAMP));
        assertEquals(SegmentFileType.PRODUCER_SNAPSHOT, SegmentFileType.of(IndexType.PRODUCER_SNAPSHOT));
        assertEquals(SegmentFileType.TRANSACTION_INDEX, SegmentFileType.of(IndexType.TRANSACTION));
        assertEquals(SegmentFileType.LEADER_EPOCH_CHECKPOINT, SegmentFileType.of(IndexType.LEADER_EPOCH));
    }

    @Test
    void refusesTopicNamesThatCouldLeaveTheTier() {
        for (String topic : new String[] {"..", ".", "../etc", "a/b", "caf\u00e9"}) {
            TopicIdPartition partition = new TopicIdPartition(Segments.TOPIC_ID, topic, 0);
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> layout.partitionDirectory(partition));
            assertEquals("not a legal Kafka topic name: \"" + topic + "\"", e.getMessage());
        }
    }
}
