package io.krabka.kernel.tiered;

import io.krabka.kernel.log.FetchIsolation;
import io.krabka.spi.common.TopicIdPartition;
import java.util.Objects;

/**
 * A fetch of one partition's records from the remote tier: Kafka's {@code RemoteStorageFetchInfo}.
 *
 * @param topicIdPartition the partition, with its topic id
 * @param fetchOffset      the offset to read from
 * @param maxBytes         the most bytes to return (the partition's and the response's limit)
 * @param minOneMessage    whether the first batch is returned whole even if larger than {@code maxBytes}
 * @param isolation        the fetch's isolation; {@link FetchIsolation#TXN_COMMITTED} adds the aborted transactions
 */
public record RemoteStorageFetchInfo(
        TopicIdPartition topicIdPartition,
        long fetchOffset,
        int maxBytes,
        boolean minOneMessage,
        FetchIsolation isolation) {

    /** Checks the parts. */
    public RemoteStorageFetchInfo {
        Objects.requireNonNull(topicIdPartition, "topicIdPartition");
        Objects.requireNonNull(isolation, "isolation");
        if (fetchOffset < 0 || maxBytes < 0) {
            throw new IllegalArgumentException("fetch offset " + fetchOffset + ", max bytes " + maxBytes);
        }
    }
}
