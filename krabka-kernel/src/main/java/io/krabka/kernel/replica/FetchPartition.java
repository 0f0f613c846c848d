package io.krabka.kernel.replica;

import io.krabka.spi.common.TopicIdPartition;
import java.util.Objects;
import java.util.Optional;

/**
 * One partition of a fetch: Kafka's {@code FetchRequest.PartitionData}.
 *
 * @param topicIdPartition   the partition; a zero topic id when the request named the topic (before v13)
 * @param fetchOffset        the offset to read from
 * @param maxBytes           the most bytes to read from the partition
 * @param currentLeaderEpoch the leader epoch the client knows, to check; empty or -1 for no check
 */
public record FetchPartition(
        TopicIdPartition topicIdPartition, long fetchOffset, int maxBytes, Optional<Integer> currentLeaderEpoch) {

    /** Checks the parts. */
    public FetchPartition {
        Objects.requireNonNull(topicIdPartition, "topicIdPartition");
        Objects.requireNonNull(currentLeaderEpoch, "currentLeaderEpoch");
    }
}
