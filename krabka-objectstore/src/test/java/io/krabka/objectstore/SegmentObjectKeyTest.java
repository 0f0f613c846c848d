package io.krabka.objectstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SegmentObjectKeyTest {

    @Test
    void aKeyTheLayoutWritesIsReadBackWhateverDashesTheTopicAndTheIdsHold() {
        for (String topic : new String[] {"orders", "a-b-c", "x.y_z-1"}) {
            TopicIdPartition partition = new TopicIdPartition(Uuid.fromString("-AAAAAAAAAAAAAAAAAAA-A"), topic, 12);
            TreeMap<Integer, Long> epochs = new TreeMap<>();
            epochs.put(0, 42L);
            RemoteLogSegmentMetadata segment = new RemoteLogSegmentMetadata(
                    new RemoteLogSegmentId(partition, Uuid.fromString("B-BBBBBBBBBBBBBBBBBBB-")),
                    42,
                    99,
                    0,
                    1,
                    0,
                    10,
                    epochs,
                    true);
            String key = new SegmentObjectKeys("").key(segment, SegmentArtifact.LEADER_EPOCH_CHECKPOINT);
            SegmentObjectKey parsed = SegmentObjectKey.parse(key).orElseThrow();
            assertEquals(partition, parsed.partition());
            assertEquals(42, parsed.startOffset());
            assertEquals(segment.remoteLogSegmentId().id(), parsed.segmentId());
            assertEquals("leader_epoch_checkpoint", parsed.suffix());
            assertTrue(key.startsWith(parsed.partitionDirectory() + "/"), key);
        }
    }

    @Test
    void keysOutsideTheLayoutAreNotSegmentKeys() {
        for (String key : new String[] {
            "orders-0-AAAAAAAAAAAAAAAAAAAAAA",
            "x/y/z",
            "orders-0-AAAA/0-0.log",
            "orders-0-AAAAAAAAAAAAAAAAAAAAAA/00000000000000000000-AAAAAAAAAAAAAAAAAAAAAA",
            "orders-0-AAAAAAAAAAAAAAAAAAAAAA/0000000000000000000-AAAAAAAAAAAAAAAAAAAAAA.log",
            "orders-x-AAAAAAAAAAAAAAAAAAAAAA/00000000000000000000-AAAAAAAAAAAAAAAAAAAAAA.log"
        }) {
            assertEquals(Optional.empty(), SegmentObjectKey.parse(key), key);
        }
    }
}
