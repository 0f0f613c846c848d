package io.krabka.spi.storage;

import io.krabka.spi.common.TopicIdPartition;

/**
 * An event in the remote log metadata of a partition: a segment added, a segment's state changed, or the
 * partition's deletion progressing. The three kinds are the whole set, so code that stores or replays events
 * can switch over them exhaustively.
 */
public sealed interface RemoteLogMetadata
        permits RemoteLogSegmentMetadata, RemoteLogSegmentMetadataUpdate, RemotePartitionDeleteMetadata {

    /** {@return the partition the event is about} */
    TopicIdPartition topicIdPartition();

    /** {@return the id of the broker that produced the event} */
    int brokerId();

    /** {@return when the event happened, in milliseconds since the epoch} */
    long eventTimestampMs();
}
