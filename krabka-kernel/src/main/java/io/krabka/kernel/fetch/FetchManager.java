package io.krabka.kernel.fetch;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchMetadata;
import org.apache.kafka.common.requests.FetchRequest;

/**
 * Finds the fetch context of a request (Kafka's {@code FetchManager.newContext}): a full request closes the session
 * it names, and opens a new one unless its epoch is -1; an incremental request must name a session in the cache
 * ({@code FETCH_SESSION_ID_NOT_FOUND}), at the session's epoch ({@code INVALID_FETCH_SESSION_EPOCH}), using topic
 * ids exactly when the session does ({@code FETCH_SESSION_TOPIC_ID_ERROR}); it then updates the session (added,
 * changed and forgotten partitions) and moves it to the next epoch.
 */
public final class FetchManager {

    private final FetchSessionCache cache;

    /** A manager of the sessions in {@code cache}. */
    public FetchManager(FetchSessionCache cache) {
        this.cache = Objects.requireNonNull(cache, "cache");
    }

    /** The session cache. */
    public FetchSessionCache cache() {
        return cache;
    }

    /**
     * The context of one fetch request.
     *
     * @param version    the request's version (13+ uses topic ids)
     * @param metadata   the request's session id and epoch
     * @param isFollower whether a replica fetches (its sessions are privileged)
     * @param fetchData  the request's partitions, names resolved where known
     * @param toForget   the partitions the request removes from its session
     * @param topicNames the topic names by id, to resolve ids a session could not resolve before
     */
    public FetchContext newContext(
            short version,
            FetchMetadata metadata,
            boolean isFollower,
            LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> fetchData,
            List<TopicIdPartition> toForget,
            Map<Uuid, String> topicNames) {
        boolean usesTopicIds = version >= 13;
        if (metadata.isFull()) {
            if (metadata.sessionId() != FetchMetadata.INVALID_SESSION_ID) {
                cache.remove(metadata.sessionId());
            }
            return metadata.epoch() == FetchMetadata.FINAL_EPOCH
                    ? new FetchContext.Sessionless(fetchData)
                    : new FetchContext.Full(cache, fetchData, usesTopicIds, isFollower);
        }
        synchronized (cache) {
            Optional<FetchSession> found = cache.get(metadata.sessionId());
            if (found.isEmpty()) {
                return new FetchContext.SessionError(Errors.FETCH_SESSION_ID_NOT_FOUND);
            }
            FetchSession session = found.get();
            synchronized (session) {
                if (session.epoch() != metadata.epoch()) {
                    return new FetchContext.SessionError(Errors.INVALID_FETCH_SESSION_EPOCH);
                }
                if (session.usesTopicIds() != usesTopicIds) {
                    return new FetchContext.SessionError(Errors.FETCH_SESSION_TOPIC_ID_ERROR);
                }
                session.update(fetchData, toForget);
                cache.touch(session, cache.time().millis());
                session.epoch(FetchMetadata.nextEpoch(session.epoch()));
                return FetchContext.Incremental.of(session, topicNames);
            }
        }
    }
}
