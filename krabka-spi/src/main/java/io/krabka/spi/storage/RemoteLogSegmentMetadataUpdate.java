package io.krabka.spi.storage;

import io.krabka.spi.common.TopicIdPartition;
import java.util.Objects;
import java.util.Optional;

/**
 * A change of state of a segment already known to the metadata manager.
 *
 * @param remoteLogSegmentId the segment copy the update is about
 * @param eventTimestampMs   when the change happened
 * @param customMetadata     what the remote storage manager returned from the copy, if anything
 * @param state              the new state; never {@link RemoteLogSegmentState#COPY_SEGMENT_STARTED}, which only a
 *                           new {@link RemoteLogSegmentMetadata} can carry
 * @param brokerId           the broker that made the change
 */
public record RemoteLogSegmentMetadataUpdate(
        RemoteLogSegmentId remoteLogSegmentId,
        long eventTimestampMs,
        Optional<CustomMetadata> customMetadata,
        RemoteLogSegmentState state,
        int brokerId)
        implements RemoteLogMetadata {

    /** Validates the parts. */
    public RemoteLogSegmentMetadataUpdate {
        Objects.requireNonNull(remoteLogSegmentId, "remoteLogSegmentId");
        Objects.requireNonNull(customMetadata, "customMetadata");
        Objects.requireNonNull(state, "state");
        if (state == RemoteLogSegmentState.COPY_SEGMENT_STARTED) {
            throw new IllegalArgumentException(
                    "an update cannot carry " + state + "; add the segment's metadata instead");
        }
    }

    @Override
    public TopicIdPartition topicIdPartition() {
        return remoteLogSegmentId.topicIdPartition();
    }
}
