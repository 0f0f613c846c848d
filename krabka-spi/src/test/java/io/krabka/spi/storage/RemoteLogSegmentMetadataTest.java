package io.krabka.spi.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RemoteLogSegmentMetadataTest {
    private final TopicIdPartition partition = new TopicIdPartition(Uuid.randomUuid(), "orders", 0);
    private final RemoteLogSegmentId id = RemoteLogSegmentId.generateNew(partition);

    private static NavigableMap<Integer, Long> epochs(long... pairs) {
        NavigableMap<Integer, Long> map = new TreeMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((int) pairs[i], pairs[i + 1]);
        }
        return map;
    }

    @Test
    void newMetadataStartsACopy() {
        RemoteLogSegmentMetadata metadata =
                new RemoteLogSegmentMetadata(id, 0, 99, 1000, 1, 2000, 4096, epochs(0, 0), false);
        assertEquals(RemoteLogSegmentState.COPY_SEGMENT_STARTED, metadata.state());
        assertEquals(Optional.empty(), metadata.customMetadata());
        assertEquals(partition, metadata.topicIdPartition());
    }

    @Test
    void rejectsBrokenInvariants() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new RemoteLogSegmentMetadata(id, -1, 99, 0, 1, 0, 1, epochs(0, 0), false));
        assertThrows(
                IllegalArgumentException.class,
                () -> new RemoteLogSegmentMetadata(id, 100, 99, 0, 1, 0, 1, epochs(0, 100), false));
        assertThrows(
                IllegalArgumentException.class,
                () -> new RemoteLogSegmentMetadata(id, 0, 99, 0, 1, 0, -1, epochs(0, 0), false));
        assertThrows(
                IllegalArgumentException.class,
                () -> new RemoteLogSegmentMetadata(id, 0, 99, 0, 1, 0, 1, epochs(), false));
        assertThrows(
                IllegalArgumentException.class,
                () -> new RemoteLogSegmentMetadata(id, 0, 99, 0, 1, 0, 1, epochs(-1, 0), false));
        assertThrows(
                NullPointerException.class,
                () -> new RemoteLogSegmentMetadata(null, 0, 99, 0, 1, 0, 1, epochs(0, 0), false));
    }

    @Test
    void epochMapIsFrozenAtConstruction() {
        NavigableMap<Integer, Long> map = epochs(0, 0, 3, 50);
        RemoteLogSegmentMetadata metadata = new RemoteLogSegmentMetadata(id, 0, 99, 0, 1, 0, 1, map, false);
        map.put(7, 70L);
        assertEquals(epochs(0, 0, 3, 50), metadata.segmentLeaderEpochs());
        assertThrows(
                UnsupportedOperationException.class,
                () -> metadata.segmentLeaderEpochs().put(9, 90L));
    }

    @Test
    void updatesKeepOffsetsAndTakeStateBrokerTimeAndCustomMetadata() {
        RemoteLogSegmentMetadata started =
                new RemoteLogSegmentMetadata(id, 10, 99, 500, 1, 2000, 4096, epochs(2, 10), true);
        CustomMetadata custom = new CustomMetadata(new byte[] {1, 2, 3});
        RemoteLogSegmentMetadata finished = started.createWithUpdates(new RemoteLogSegmentMetadataUpdate(
                id, 3000, Optional.of(custom), RemoteLogSegmentState.COPY_SEGMENT_FINISHED, 2));
        assertEquals(RemoteLogSegmentState.COPY_SEGMENT_FINISHED, finished.state());
        assertEquals(2, finished.brokerId());
        assertEquals(3000, finished.eventTimestampMs());
        assertEquals(Optional.of(custom), finished.customMetadata());
        assertEquals(10, finished.startOffset());
        assertEquals(99, finished.endOffset());
        assertEquals(4096, finished.segmentSizeInBytes());
        assertEquals(true, finished.txnIdxEmpty());
    }

    @Test
    void updatesRefuseIllegalTransitionsAndOtherSegments() {
        RemoteLogSegmentMetadata started = new RemoteLogSegmentMetadata(id, 0, 99, 0, 1, 0, 1, epochs(0, 0), false);
        RemoteLogSegmentMetadata deleted = started.createWithUpdates(new RemoteLogSegmentMetadataUpdate(
                        id, 1, Optional.empty(), RemoteLogSegmentState.DELETE_SEGMENT_STARTED, 1))
                .createWithUpdates(new RemoteLogSegmentMetadataUpdate(
                        id, 2, Optional.empty(), RemoteLogSegmentState.DELETE_SEGMENT_FINISHED, 1));
        assertThrows(
                InvalidStateTransitionException.class,
                () -> deleted.createWithUpdates(new RemoteLogSegmentMetadataUpdate(
                        id, 3, Optional.empty(), RemoteLogSegmentState.COPY_SEGMENT_FINISHED, 1)));
        RemoteLogSegmentId other = RemoteLogSegmentId.generateNew(partition);
        assertThrows(
                IllegalArgumentException.class,
                () -> started.createWithUpdates(new RemoteLogSegmentMetadataUpdate(
                        other, 3, Optional.empty(), RemoteLogSegmentState.COPY_SEGMENT_FINISHED, 1)));
        assertThrows(
                IllegalArgumentException.class,
                () -> new RemoteLogSegmentMetadataUpdate(
                        id, 3, Optional.empty(), RemoteLogSegmentState.COPY_SEGMENT_STARTED, 1));
    }

    @Test
    void customMetadataIsImmutableComparesByContentAndHasASizeCap() throws Exception {
        byte[] bytes = {1, 2, 3};
        CustomMetadata custom = new CustomMetadata(bytes);
        bytes[0] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, custom.value());
        custom.value()[1] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, custom.value());
        assertEquals(new CustomMetadata(new byte[] {1, 2, 3}), custom);
        assertNotEquals(new CustomMetadata(new byte[] {1, 2}), custom);
        custom.checkSize(3);
        CustomMetadataSizeLimitExceededException e =
                assertThrows(CustomMetadataSizeLimitExceededException.class, () -> custom.checkSize(2));
        assertEquals("custom metadata of 3 bytes exceeds the limit of 2 bytes", e.getMessage());
    }

    @Test
    void logSegmentDataHandsOutIndependentReadOnlyEpochViews() {
        ByteBuffer epochs = ByteBuffer.wrap("0\n1\n0 0\n".getBytes(StandardCharsets.UTF_8));
        LogSegmentData data = new LogSegmentData(
                Path.of("a.log"),
                Path.of("a.index"),
                Path.of("a.timeindex"),
                Optional.empty(),
                Path.of("a.snapshot"),
                epochs);
        ByteBuffer first = data.leaderEpochIndex();
        first.get(new byte[first.remaining()]);
        assertEquals(8, data.leaderEpochIndex().remaining());
        assertEquals(true, data.leaderEpochIndex().isReadOnly());
    }
}
