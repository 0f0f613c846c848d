package io.krabka.objectstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentState;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SegmentObjectKeysTest {
    private static final TopicIdPartition ORDERS = new TopicIdPartition(new Uuid(0, 1), "orders", 0);

    private static RemoteLogSegmentMetadata segment(TopicIdPartition partition, long startOffset) {
        TreeMap<Integer, Long> epochs = new TreeMap<>();
        epochs.put(0, startOffset);
        return new RemoteLogSegmentMetadata(
                new RemoteLogSegmentId(partition, new Uuid(0, 30)),
                startOffset,
                startOffset + 9,
                0L,
                1,
                0L,
                100,
                Optional.empty(),
                RemoteLogSegmentState.COPY_SEGMENT_STARTED,
                epochs,
                false);
    }

    /** The key of the original Krabka's layout test, which Kafka's LocalTieredStorage reads too. */
    @Test
    void keysFollowTheLocalTieredStorageLayoutUnderThePrefix() {
        assertEquals(
                "c/orders-0-AAAAAAAAAAAAAAAAAAAAAQ/00000000000000000000-AAAAAAAAAAAAAAAAAAAAHg.log",
                new SegmentObjectKeys("c").key(segment(ORDERS, 0), SegmentArtifact.SEGMENT));
        assertEquals(
                "a/b/orders-0-AAAAAAAAAAAAAAAAAAAAAQ/00000000000000001234-AAAAAAAAAAAAAAAAAAAAHg.leader_epoch_checkpoint",
                new SegmentObjectKeys("a/b").key(segment(ORDERS, 1234), SegmentArtifact.LEADER_EPOCH_CHECKPOINT));
    }

    @Test
    void anEmptyPrefixGivesKeysWithoutALeadingSlash() {
        assertEquals(
                "orders-0-AAAAAAAAAAAAAAAAAAAAAQ/00000000000000000000-AAAAAAAAAAAAAAAAAAAAHg.txnindex",
                SegmentObjectKeys.underPrefix("/").key(segment(ORDERS, 0), SegmentArtifact.TRANSACTION_INDEX));
        assertEquals("orders-0-AAAAAAAAAAAAAAAAAAAAAQ/", new SegmentObjectKeys("").partitionPrefix(ORDERS));
    }

    @Test
    void aUsersPrefixLosesItsSurroundingSlashes() {
        assertEquals(new SegmentObjectKeys("tier/x"), SegmentObjectKeys.underPrefix(" /tier/x// "));
    }

    @Test
    void malformedPrefixesAndTopicsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new SegmentObjectKeys("/a"));
        assertThrows(IllegalArgumentException.class, () -> new SegmentObjectKeys("a/"));
        assertThrows(IllegalArgumentException.class, () -> SegmentObjectKeys.underPrefix("a//b"));
        assertThrows(
                IllegalArgumentException.class,
                () -> new SegmentObjectKeys("t").partitionPrefix(new TopicIdPartition(new Uuid(0, 1), "a/b", 0)));
        assertThrows(
                IllegalArgumentException.class,
                () -> new SegmentObjectKeys("t").partitionPrefix(new TopicIdPartition(new Uuid(0, 1), "..", 0)));
    }
}
