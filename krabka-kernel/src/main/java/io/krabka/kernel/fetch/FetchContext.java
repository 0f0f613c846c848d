package io.krabka.kernel.fetch;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchMetadata;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;

/**
 * How one fetch request relates to a fetch session (Kafka's {@code FetchContext}): which partitions to read, and
 * how the response is made from the reads.
 */
public sealed interface FetchContext {

    /** The partitions to read, in the order the response lists them. */
    LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitionsToRead();

    /**
     * The response for the partitions read (in {@link #partitionsToRead()} order); an incremental context drops
     * those with nothing new and remembers what it sent.
     */
    FetchResponse updateAndGenerateResponseData(LinkedHashMap<TopicIdPartition, FetchResponseData.PartitionData> reads);

    /**
     * A request the session cannot serve: the top-level error, no partitions.
     *
     * @param error FETCH_SESSION_ID_NOT_FOUND, INVALID_FETCH_SESSION_EPOCH or FETCH_SESSION_TOPIC_ID_ERROR
     */
    record SessionError(Errors error) implements FetchContext {
        @Override
        public LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitionsToRead() {
            return new LinkedHashMap<>();
        }

        @Override
        public FetchResponse updateAndGenerateResponseData(
                LinkedHashMap<TopicIdPartition, FetchResponseData.PartitionData> reads) {
            return FetchResponse.of(error, 0, FetchMetadata.INVALID_SESSION_ID, new LinkedHashMap<>(), List.of());
        }
    }

    /**
     * A full fetch without a session (epoch -1, or a follower of a broker that keeps none).
     *
     * @param fetchData the request's partitions
     */
    record Sessionless(LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> fetchData) implements FetchContext {
        @Override
        public LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitionsToRead() {
            return fetchData;
        }

        @Override
        public FetchResponse updateAndGenerateResponseData(
                LinkedHashMap<TopicIdPartition, FetchResponseData.PartitionData> reads) {
            return FetchResponse.of(Errors.NONE, 0, FetchMetadata.INVALID_SESSION_ID, reads, List.of());
        }
    }

    /**
     * A full fetch opening a session (epoch 0): every partition is answered, and the session is created from the
     * request and the response if the cache has room (else the response carries session id 0).
     *
     * @param cache        the session cache
     * @param fetchData    the request's partitions
     * @param usesTopicIds whether the request is v13+
     * @param privileged   whether a follower fetches
     */
    record Full(
            FetchSessionCache cache,
            LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> fetchData,
            boolean usesTopicIds,
            boolean privileged)
            implements FetchContext {
        @Override
        public LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitionsToRead() {
            return fetchData;
        }

        @Override
        public FetchResponse updateAndGenerateResponseData(
                LinkedHashMap<TopicIdPartition, FetchResponseData.PartitionData> reads) {
            int sessionId = cache.maybeCreateSession(privileged, usesTopicIds, reads.size(), () -> {
                LinkedHashMap<CachedPartition.Key, CachedPartition> partitions = new LinkedHashMap<>();
                reads.forEach((partition, response) -> {
                    CachedPartition cached = new CachedPartition(partition, fetchData.get(partition));
                    cached.maybeUpdateResponseData(response, true);
                    partitions.put(CachedPartition.key(partition, usesTopicIds), cached);
                });
                return partitions;
            });
            return FetchResponse.of(Errors.NONE, 0, sessionId, reads, List.of());
        }
    }

    /**
     * An incremental fetch in a session: every partition of the session is read, and only those with something
     * new (records, a moved high watermark or log start offset, an error) are answered; those that returned records
     * move to the end of the session's order.
     *
     * @param session       the session, already updated with the request and moved to the next epoch
     * @param expectedEpoch the epoch the session must still be at when the response is made
     * @param toRead        the session's partitions in order
     */
    record Incremental(
            FetchSession session, int expectedEpoch, LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> toRead)
            implements FetchContext {

        static Incremental of(FetchSession session, Map<org.apache.kafka.common.Uuid, String> topicNames) {
            return new Incremental(session, session.epoch(), session.partitionsToRead(topicNames));
        }

        @Override
        public LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitionsToRead() {
            return toRead;
        }

        @Override
        public FetchResponse updateAndGenerateResponseData(
                LinkedHashMap<TopicIdPartition, FetchResponseData.PartitionData> reads) {
            synchronized (session) {
                if (session.epoch() != expectedEpoch) {
                    // Another request of this session came in meanwhile: this one is out of date.
                    return FetchResponse.of(
                            Errors.INVALID_FETCH_SESSION_EPOCH, 0, session.id(), new LinkedHashMap<>(), List.of());
                }
                Iterator<Map.Entry<TopicIdPartition, FetchResponseData.PartitionData>> entries =
                        reads.entrySet().iterator();
                while (entries.hasNext()) {
                    Map.Entry<TopicIdPartition, FetchResponseData.PartitionData> entry = entries.next();
                    CachedPartition cached = session.find(entry.getKey());
                    if (cached == null || !cached.maybeUpdateResponseData(entry.getValue(), true)) {
                        entries.remove();
                    } else if (FetchResponse.recordsSize(entry.getValue()) > 0) {
                        session.moveToEnd(cached);
                    }
                }
                return FetchResponse.of(Errors.NONE, 0, session.id(), reads, List.of());
            }
        }
    }
}
