package io.krabka.kernel.fetch;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;

/**
 * A partition of a fetch session (Kafka's {@code CachedPartition}): what the client last asked for it, and what
 * it was last told, so an incremental response leaves it out while nothing changed.
 */
final class CachedPartition {

    private TopicIdPartition topicIdPartition;
    private long fetchOffset;
    private long logStartOffset;
    private int maxBytes;
    private Optional<Integer> currentLeaderEpoch;
    private Optional<Integer> lastFetchedEpoch;
    private long highWatermark = -1;
    private long localLogStartOffset = -1;

    CachedPartition(TopicIdPartition topicIdPartition, FetchRequest.PartitionData request) {
        this.topicIdPartition = Objects.requireNonNull(topicIdPartition, "topicIdPartition");
        updateRequestParams(request);
    }

    /** The partition, keyed as the session keys it (by topic id when the session uses ids). */
    TopicIdPartition topicIdPartition() {
        return topicIdPartition;
    }

    /** The client's request for the partition as the session holds it. */
    FetchRequest.PartitionData requestData() {
        return new FetchRequest.PartitionData(
                topicIdPartition.topicId(),
                fetchOffset,
                logStartOffset,
                maxBytes,
                currentLeaderEpoch,
                lastFetchedEpoch);
    }

    void updateRequestParams(FetchRequest.PartitionData request) {
        fetchOffset = request.fetchOffset;
        logStartOffset = request.logStartOffset;
        maxBytes = request.maxBytes;
        currentLeaderEpoch = request.currentLeaderEpoch;
        lastFetchedEpoch = request.lastFetchedEpoch;
    }

    /** A topic id unknown when the partition joined the session gets its name once the metadata has it. */
    void maybeResolveUnknownName(Map<Uuid, String> topicNames) {
        if (topicIdPartition.topic() == null) {
            String name = topicNames.get(topicIdPartition.topicId());
            if (name != null) {
                topicIdPartition = new TopicIdPartition(topicIdPartition.topicId(), topicIdPartition.partition(), name);
            }
        }
    }

    /**
     * Whether an incremental response must carry the partition (Kafka's {@code maybeUpdateResponseData}): records,
     * a changed high watermark or log start offset, or an error; with {@code update}, remembers what the client
     * is told (after an error, an unknown high watermark, so the partition is sent again once the error is gone).
     */
    boolean maybeUpdateResponseData(FetchResponseData.PartitionData response, boolean update) {
        boolean mustRespond = FetchResponse.recordsSize(response) > 0;
        if (highWatermark != response.highWatermark()) {
            mustRespond = true;
            if (update) {
                highWatermark = response.highWatermark();
            }
        }
        if (localLogStartOffset != response.logStartOffset()) {
            mustRespond = true;
            if (update) {
                localLogStartOffset = response.logStartOffset();
            }
        }
        if (response.errorCode() != Errors.NONE.code()) {
            mustRespond = true;
            if (update) {
                highWatermark = -1;
            }
        }
        return mustRespond || FetchResponse.isPreferredReplica(response) || FetchResponse.isDivergingEpoch(response);
    }

    /** The key of a partition in a session: the topic id and partition, or the name and partition without ids. */
    static Key key(TopicIdPartition topicIdPartition, boolean usesTopicIds) {
        return usesTopicIds
                ? new Key(topicIdPartition.topicId(), null, topicIdPartition.partition())
                : new Key(Uuid.ZERO_UUID, topicIdPartition.topic(), topicIdPartition.partition());
    }

    /**
     * A session's key for a partition.
     *
     * @param topicId   the topic id, zero when the session names topics
     * @param topic     the topic name, null when the session uses ids
     * @param partition the partition
     */
    record Key(Uuid topicId, String topic, int partition) {}
}
