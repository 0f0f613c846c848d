package io.krabka.spi.storage;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import java.util.Objects;

/**
 * The identity of one copy of a segment in the remote tier. Every copy attempt, retries included, gets a new
 * id, so a half-finished attempt can never be mistaken for a later one.
 *
 * @param topicIdPartition the partition the segment belongs to
 * @param id               the id of this copy
 */
public record RemoteLogSegmentId(TopicIdPartition topicIdPartition, Uuid id) {

    /** Validates the parts. */
    public RemoteLogSegmentId {
        Objects.requireNonNull(topicIdPartition, "topicIdPartition");
        Objects.requireNonNull(id, "id");
    }

    /**
     * A fresh id for a new copy attempt.
     *
     * @param topicIdPartition the partition the segment belongs to
     * @return the id, with a random {@link Uuid}
     */
    public static RemoteLogSegmentId generateNew(TopicIdPartition topicIdPartition) {
        return new RemoteLogSegmentId(topicIdPartition, Uuid.randomUuid());
    }
}
