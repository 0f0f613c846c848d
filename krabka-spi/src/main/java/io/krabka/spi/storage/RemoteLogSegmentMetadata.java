package io.krabka.spi.storage;

import io.krabka.spi.common.TopicIdPartition;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the remote tier knows about one copied segment: its offsets, leader epochs, size and lifecycle state.
 *
 * @param remoteLogSegmentId  the identity of this copy
 * @param startOffset         the first offset in the segment, at least 0
 * @param endOffset           the last offset in the segment, inclusive, at least {@code startOffset}
 * @param maxTimestampMs      the largest record timestamp in the segment
 * @param brokerId            the broker that produced this metadata
 * @param eventTimestampMs    when this metadata was produced
 * @param segmentSizeInBytes  the size of the {@code .log} file, at least 0
 * @param customMetadata      what the remote storage manager returned from the copy, if anything
 * @param state               where the segment is in its lifecycle
 * @param segmentLeaderEpochs leader epoch to the first offset written in it, for every epoch the segment
 *                            holds records of; never empty
 * @param txnIdxEmpty         whether the segment's transaction index is empty or absent (KIP-1058)
 */
public record RemoteLogSegmentMetadata(
        RemoteLogSegmentId remoteLogSegmentId,
        long startOffset,
        long endOffset,
        long maxTimestampMs,
        int brokerId,
        long eventTimestampMs,
        int segmentSizeInBytes,
        Optional<CustomMetadata> customMetadata,
        RemoteLogSegmentState state,
        NavigableMap<Integer, Long> segmentLeaderEpochs,
        boolean txnIdxEmpty)
        implements RemoteLogMetadata {

    /** Validates the invariants and freezes the epoch map. */
    public RemoteLogSegmentMetadata {
        Objects.requireNonNull(remoteLogSegmentId, "remoteLogSegmentId");
        Objects.requireNonNull(customMetadata, "customMetadata");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(segmentLeaderEpochs, "segmentLeaderEpochs");
        if (startOffset < 0) {
            throw new IllegalArgumentException("startOffset must be at least 0: " + startOffset);
        }
        if (endOffset < startOffset) {
            throw new IllegalArgumentException("endOffset " + endOffset + " is below startOffset " + startOffset);
        }
        if (segmentSizeInBytes < 0) {
            throw new IllegalArgumentException("segmentSizeInBytes must be at least 0: " + segmentSizeInBytes);
        }
        if (segmentLeaderEpochs.isEmpty()) {
            throw new IllegalArgumentException("segmentLeaderEpochs must not be empty");
        }
        for (Map.Entry<Integer, Long> entry : segmentLeaderEpochs.entrySet()) {
            if (entry.getKey() == null || entry.getKey() < 0 || entry.getValue() == null || entry.getValue() < 0) {
                throw new IllegalArgumentException("segmentLeaderEpochs holds an invalid entry: " + entry);
            }
        }
        segmentLeaderEpochs = Collections.unmodifiableNavigableMap(new TreeMap<>(segmentLeaderEpochs));
    }

    /**
     * The metadata of a copy about to start: state {@link RemoteLogSegmentState#COPY_SEGMENT_STARTED}, no custom
     * metadata yet.
     *
     * @param remoteLogSegmentId  the identity of this copy
     * @param startOffset         the first offset in the segment, at least 0
     * @param endOffset           the last offset in the segment, inclusive, at least {@code startOffset}
     * @param maxTimestampMs      the largest record timestamp in the segment
     * @param brokerId            the broker that produced this metadata
     * @param eventTimestampMs    when this metadata was produced
     * @param segmentSizeInBytes  the size of the {@code .log} file, at least 0
     * @param segmentLeaderEpochs leader epoch to the first offset written in it, for every epoch the segment
     *                            holds records of; never empty
     * @param txnIdxEmpty         whether the segment's transaction index is empty or absent (KIP-1058)
     */
    public RemoteLogSegmentMetadata(
            RemoteLogSegmentId remoteLogSegmentId,
            long startOffset,
            long endOffset,
            long maxTimestampMs,
            int brokerId,
            long eventTimestampMs,
            int segmentSizeInBytes,
            NavigableMap<Integer, Long> segmentLeaderEpochs,
            boolean txnIdxEmpty) {
        this(
                remoteLogSegmentId,
                startOffset,
                endOffset,
                maxTimestampMs,
                brokerId,
                eventTimestampMs,
                segmentSizeInBytes,
                Optional.empty(),
                RemoteLogSegmentState.COPY_SEGMENT_STARTED,
                segmentLeaderEpochs,
                txnIdxEmpty);
    }

    @Override
    public TopicIdPartition topicIdPartition() {
        return remoteLogSegmentId.topicIdPartition();
    }

    /**
     * This segment after an update: offsets, epochs and size stay; broker, event time, custom metadata and
     * state come from the update.
     *
     * @param update the update, about this segment
     * @return the segment's metadata after the update
     * @throws IllegalArgumentException        if the update is about another segment
     * @throws InvalidStateTransitionException if Kafka's lifecycle does not allow the new state
     */
    public RemoteLogSegmentMetadata createWithUpdates(RemoteLogSegmentMetadataUpdate update) {
        if (!remoteLogSegmentId.equals(update.remoteLogSegmentId())) {
            throw new IllegalArgumentException(
                    "update for " + update.remoteLogSegmentId() + " cannot apply to segment " + remoteLogSegmentId);
        }
        state.checkTransitionTo(update.state());
        return new RemoteLogSegmentMetadata(
                remoteLogSegmentId,
                startOffset,
                endOffset,
                maxTimestampMs,
                update.brokerId(),
                update.eventTimestampMs(),
                segmentSizeInBytes,
                update.customMetadata(),
                update.state(),
                segmentLeaderEpochs,
                txnIdxEmpty);
    }
}
