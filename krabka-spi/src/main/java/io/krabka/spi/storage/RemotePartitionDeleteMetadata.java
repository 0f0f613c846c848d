package io.krabka.spi.storage;

import io.krabka.spi.common.TopicIdPartition;
import java.util.Objects;

/**
 * A step in deleting a partition's remote data.
 *
 * @param topicIdPartition the partition being deleted
 * @param state            how far the deletion has come
 * @param eventTimestampMs when the step happened
 * @param brokerId         the broker that took the step
 */
public record RemotePartitionDeleteMetadata(
        TopicIdPartition topicIdPartition, RemotePartitionDeleteState state, long eventTimestampMs, int brokerId)
        implements RemoteLogMetadata {

    /** Validates the parts. */
    public RemotePartitionDeleteMetadata {
        Objects.requireNonNull(topicIdPartition, "topicIdPartition");
        Objects.requireNonNull(state, "state");
    }
}
