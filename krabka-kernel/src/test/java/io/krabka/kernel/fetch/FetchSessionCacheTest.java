package io.krabka.kernel.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Optional;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.requests.FetchMetadata;
import org.apache.kafka.common.requests.FetchRequest;
import org.junit.jupiter.api.Test;

/** Kafka's eviction rules of the fetch session cache, on a clock the test moves. */
class FetchSessionCacheTest {

    private static final long EVICTION_MS = 100;

    private long now;
    private final InstantSource clock = () -> Instant.ofEpochMilli(now);
    private final FetchSessionCache cache = new FetchSessionCache(new FetchSessionCacheConfig(1, EVICTION_MS), clock);

    private int create(boolean privileged, int size) {
        return cache.maybeCreateSession(privileged, false, size, () -> {
            LinkedHashMap<CachedPartition.Key, CachedPartition> partitions = new LinkedHashMap<>();
            for (int p = 0; p < size; p++) {
                TopicIdPartition partition = new TopicIdPartition(Uuid.ZERO_UUID, p, "orders");
                partitions.put(
                        CachedPartition.key(partition, false),
                        new CachedPartition(
                                partition,
                                new FetchRequest.PartitionData(Uuid.ZERO_UUID, 0, -1, 100, Optional.empty())));
            }
            return partitions;
        });
    }

    private void use(int sessionId) {
        cache.touch(cache.get(sessionId).orElseThrow(), now);
    }

    @Test
    void aYoungSessionInUseIsKeptFromAnotherConsumer() {
        int first = create(false, 1);
        now = 50;
        assertEquals(FetchMetadata.INVALID_SESSION_ID, create(false, 5));
        assertTrue(cache.get(first).isPresent());
    }

    @Test
    void aSessionUnusedForTheEvictionTimeIsEvicted() {
        int first = create(false, 5);
        now = EVICTION_MS + 1;
        int second = create(false, 1);
        assertNotEquals(FetchMetadata.INVALID_SESSION_ID, second);
        assertTrue(cache.get(first).isEmpty());
        assertEquals(1, cache.evictions());
    }

    @Test
    void anOldSessionInUseIsEvictedOnlyByALargerOne() {
        int small = create(false, 2);
        now = EVICTION_MS + 50;
        use(small);
        now += 10;
        assertEquals(FetchMetadata.INVALID_SESSION_ID, create(false, 1), "smaller sessions do not evict");
        int larger = create(false, 3);
        assertNotEquals(FetchMetadata.INVALID_SESSION_ID, larger);
        assertTrue(cache.get(small).isEmpty());
    }

    @Test
    void aFollowerEvictsAYoungConsumerSessionButNotAYoungFollowerSession() {
        int consumer = create(false, 10);
        now = 10;
        int follower = create(true, 1);
        assertNotEquals(FetchMetadata.INVALID_SESSION_ID, follower);
        assertTrue(cache.get(consumer).isEmpty());
        now = 20;
        assertEquals(FetchMetadata.INVALID_SESSION_ID, create(true, 50));
        assertEquals(FetchMetadata.INVALID_SESSION_ID, create(false, 50));
    }

    @Test
    void noSlotsNoSessions() {
        FetchSessionCache none = new FetchSessionCache(new FetchSessionCacheConfig(0, EVICTION_MS), clock);
        assertEquals(FetchMetadata.INVALID_SESSION_ID, none.maybeCreateSession(true, false, 1, LinkedHashMap::new));
        assertEquals(0, none.size());
    }
}
