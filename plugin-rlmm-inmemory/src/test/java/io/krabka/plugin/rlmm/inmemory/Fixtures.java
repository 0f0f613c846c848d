package io.krabka.plugin.rlmm.inmemory;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemoteStorageException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Builders shared by the tests: segments, updates and a configured manager, with Kafka's test values. */
final class Fixtures {

    static final TopicIdPartition TP0 = new TopicIdPartition(Uuid.randomUuid(), "foo", 0);
    static final TopicIdPartition TP1 = new TopicIdPartition(Uuid.randomUuid(), "bar", 3);
    static final int SEG_SIZE = 1024 * 1024;
    static final int BROKER_ID_0 = 0;
    static final int BROKER_ID_1 = 1;
    static final long TIME = 1_700_000_000_000L;

    private Fixtures() {}

    /** A manager configured without a snapshot. */
    static InMemoryRemoteLogMetadataManager manager() {
        InMemoryRemoteLogMetadataManager manager = new InMemoryRemoteLogMetadataManager();
        manager.configure(Map.of());
        return manager;
    }

    /** A segment of {@code partition} whose copy is starting, with an empty transaction index. */
    static RemoteLogSegmentMetadata started(
            TopicIdPartition partition, long startOffset, long endOffset, Map<Integer, Long> leaderEpochs) {
        return started(partition, startOffset, endOffset, leaderEpochs, true);
    }

    static RemoteLogSegmentMetadata started(
            TopicIdPartition partition,
            long startOffset,
            long endOffset,
            Map<Integer, Long> leaderEpochs,
            boolean txnIdxEmpty) {
        return new RemoteLogSegmentMetadata(
                new RemoteLogSegmentId(partition, Uuid.randomUuid()),
                startOffset,
                endOffset,
                -1L,
                BROKER_ID_0,
                TIME,
                SEG_SIZE,
                new TreeMap<>(leaderEpochs),
                txnIdxEmpty);
    }

    /** An update of the segment to {@code state} by broker 1, with no custom metadata. */
    static RemoteLogSegmentMetadataUpdate update(RemoteLogSegmentMetadata segment, RemoteLogSegmentState state) {
        return new RemoteLogSegmentMetadataUpdate(
                segment.remoteLogSegmentId(), TIME + 1, Optional.empty(), state, BROKER_ID_1);
    }

    /** An update of the segment to {@code state} carrying custom metadata. */
    static RemoteLogSegmentMetadataUpdate update(
            RemoteLogSegmentMetadata segment, RemoteLogSegmentState state, byte... customMetadata) {
        return new RemoteLogSegmentMetadataUpdate(
                segment.remoteLogSegmentId(),
                TIME + 1,
                Optional.of(new CustomMetadata(customMetadata)),
                state,
                BROKER_ID_1);
    }

    /**
     * Adds the segment and applies one update to {@code state}, as Kafka's tests' {@code upsertSegmentState} does;
     * returns the metadata the manager then holds.
     */
    static RemoteLogSegmentMetadata upsert(
            InMemoryRemoteLogMetadataManager manager, RemoteLogSegmentMetadata segment, RemoteLogSegmentState state)
            throws RemoteStorageException {
        manager.addRemoteLogSegmentMetadata(segment);
        if (state == RemoteLogSegmentState.COPY_SEGMENT_STARTED) {
            return segment;
        }
        RemoteLogSegmentMetadataUpdate update = update(segment, state);
        manager.updateRemoteLogSegmentMetadata(update);
        return segment.createWithUpdates(update);
    }

    /** A finished copy of {@code [startOffset, endOffset]} in {@link #TP0}, all in {@code epoch}. */
    static RemoteLogSegmentMetadata finished(
            InMemoryRemoteLogMetadataManager manager, int epoch, long startOffset, long endOffset)
            throws RemoteStorageException {
        return upsert(
                manager,
                started(TP0, startOffset, endOffset, Map.of(epoch, startOffset)),
                RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
    }

    static <T> List<T> list(Iterator<T> iterator) {
        List<T> values = new ArrayList<>();
        iterator.forEachRemaining(values::add);
        return values;
    }
}
