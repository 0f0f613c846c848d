package io.krabka.kernel.fetch;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.requests.FetchRequest;

/**
 * An incremental fetch session (KIP-227, Kafka's {@code FetchSession}): its partitions in the order they are read
 * (a partition that returned records moves to the end, so every partition gets its turn at the byte budget), the
 * epoch the next request must carry, and when it was last used. Guarded by its own monitor.
 */
final class FetchSession {

    private final int id;
    private final boolean privileged;
    private final boolean usesTopicIds;
    private final long creationMs;
    private final LinkedHashMap<CachedPartition.Key, CachedPartition> partitions;
    private long lastUsedMs;
    private int epoch;
    /** The size the cache last indexed this session under; -1 before it was. */
    private int cachedSize = -1;

    FetchSession(
            int id,
            boolean privileged,
            boolean usesTopicIds,
            long creationMs,
            int epoch,
            LinkedHashMap<CachedPartition.Key, CachedPartition> partitions) {
        this.id = id;
        this.privileged = privileged;
        this.usesTopicIds = usesTopicIds;
        this.creationMs = creationMs;
        this.lastUsedMs = creationMs;
        this.epoch = epoch;
        this.partitions = partitions;
    }

    int id() {
        return id;
    }

    boolean privileged() {
        return privileged;
    }

    boolean usesTopicIds() {
        return usesTopicIds;
    }

    long creationMs() {
        return creationMs;
    }

    synchronized long lastUsedMs() {
        return lastUsedMs;
    }

    synchronized void lastUsedMs(long value) {
        lastUsedMs = value;
    }

    synchronized int epoch() {
        return epoch;
    }

    synchronized void epoch(int value) {
        epoch = value;
    }

    synchronized int size() {
        return partitions.size();
    }

    synchronized int cachedSize() {
        return cachedSize;
    }

    synchronized void cachedSize(int value) {
        cachedSize = value;
    }

    /** Applies an incremental request: new partitions join at the end, known ones take the new offsets. */
    synchronized void update(
            Map<TopicIdPartition, FetchRequest.PartitionData> fetchData, List<TopicIdPartition> toForget) {
        fetchData.forEach((partition, request) -> {
            CachedPartition.Key key = CachedPartition.key(partition, usesTopicIds);
            CachedPartition cached = partitions.get(key);
            if (cached == null) {
                partitions.put(key, new CachedPartition(partition, request));
            } else {
                cached.updateRequestParams(request);
            }
        });
        for (TopicIdPartition partition : toForget) {
            partitions.remove(CachedPartition.key(partition, usesTopicIds));
        }
    }

    /** The partitions to read, in session order, names resolved where the metadata now has them. */
    synchronized LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> partitionsToRead(
            Map<org.apache.kafka.common.Uuid, String> topicNames) {
        LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> toRead = new LinkedHashMap<>();
        for (CachedPartition cached : partitions.values()) {
            cached.maybeResolveUnknownName(topicNames);
            toRead.put(cached.topicIdPartition(), cached.requestData());
        }
        return toRead;
    }

    synchronized CachedPartition find(TopicIdPartition partition) {
        return partitions.get(CachedPartition.key(partition, usesTopicIds));
    }

    /** Moves a partition that returned records to the end of the read order. */
    synchronized void moveToEnd(CachedPartition partition) {
        CachedPartition.Key key = CachedPartition.key(partition.topicIdPartition(), usesTopicIds);
        partitions.remove(key);
        partitions.put(key, partition);
    }
}
