package io.krabka.kernel.group;

import io.krabka.spi.common.Uuid;
import java.util.Objects;

/**
 * One partition's offset in an OffsetCommit.
 *
 * @param topic       the topic name
 * @param topicId     the topic id, or {@link Uuid#ZERO_UUID} when the client named the topic
 * @param partition   the partition
 * @param offset      the offset
 * @param leaderEpoch the leader epoch of the record before the offset, or -1
 * @param metadata    the client's metadata, or null for none
 */
public record PartitionCommit(
        String topic, Uuid topicId, int partition, long offset, int leaderEpoch, String metadata) {

    /** Checks the names are present. */
    public PartitionCommit {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(topicId, "topicId");
    }
}
