package io.krabka.kernel.fetch;

import java.time.InstantSource;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.apache.kafka.common.requests.FetchMetadata;

/**
 * The incremental fetch sessions of this broker (Kafka's {@code FetchSessionCache}), at most
 * {@code max.incremental.fetch.session.cache.slots}. When it is full, a new session takes the place of a session
 * unused for the eviction time; failing that, of the least valuable session it may evict: a follower's session
 * may evict any consumer's, and any session may evict one older than the eviction time that is smaller (fewer
 * partitions) than itself. Otherwise the new fetch gets no session (id 0).
 */
public final class FetchSessionCache {

    private static final Comparator<EvictableKey> BY_VALUE = Comparator.comparing(EvictableKey::privileged)
            .thenComparingInt(EvictableKey::size)
            .thenComparingInt(EvictableKey::id);

    private final FetchSessionCacheConfig config;
    private final InstantSource time;
    private final Map<Integer, FetchSession> sessions = new HashMap<>();
    private final TreeMap<LastUsedKey, FetchSession> lastUsed =
            new TreeMap<>(Comparator.comparingLong(LastUsedKey::lastUsedMs).thenComparingInt(LastUsedKey::id));
    private final TreeMap<EvictableKey, FetchSession> evictableByAll = new TreeMap<>(BY_VALUE);
    private final TreeMap<EvictableKey, FetchSession> evictableByPrivileged = new TreeMap<>(BY_VALUE);
    private long evictions;

    /** An empty cache. */
    public FetchSessionCache(FetchSessionCacheConfig config, InstantSource time) {
        this.config = config;
        this.time = time;
    }

    InstantSource time() {
        return time;
    }

    /** The number of sessions. */
    public synchronized int size() {
        return sessions.size();
    }

    /** The number of sessions evicted so far. */
    public synchronized long evictions() {
        return evictions;
    }

    synchronized Optional<FetchSession> get(int sessionId) {
        return Optional.ofNullable(sessions.get(sessionId));
    }

    /**
     * Creates a session if there is room or one may be evicted for it.
     *
     * @return the new session's id, or {@link FetchMetadata#INVALID_SESSION_ID} for none
     */
    synchronized int maybeCreateSession(
            boolean privileged,
            boolean usesTopicIds,
            int size,
            Supplier<LinkedHashMap<CachedPartition.Key, CachedPartition>> partitions) {
        long now = time.millis();
        if (sessions.size() >= config.maxIncrementalFetchSessionCacheSlots()
                && !tryEvict(privileged, new EvictableKey(privileged, size, 0), now)) {
            return FetchMetadata.INVALID_SESSION_ID;
        }
        int id = newSessionId();
        FetchSession session = new FetchSession(
                id,
                privileged,
                usesTopicIds,
                now,
                FetchMetadata.nextEpoch(FetchMetadata.INITIAL_EPOCH),
                partitions.get());
        sessions.put(id, session);
        touch(session, now);
        return id;
    }

    private int newSessionId() {
        int id;
        do {
            id = ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE);
        } while (sessions.containsKey(id));
        return id;
    }

    private boolean tryEvict(boolean privileged, EvictableKey key, long now) {
        Map.Entry<LastUsedKey, FetchSession> stalest = lastUsed.firstEntry();
        if (stalest != null && now - stalest.getKey().lastUsedMs() > config.minIncrementalFetchSessionEvictionMs()) {
            remove(stalest.getValue());
            evictions++;
            return true;
        }
        Map.Entry<EvictableKey, FetchSession> candidate =
                (privileged ? evictableByPrivileged : evictableByAll).firstEntry();
        if (candidate == null || BY_VALUE.compare(key, candidate.getKey()) < 0) {
            return false;
        }
        remove(candidate.getValue());
        evictions++;
        return true;
    }

    /** Marks the session used now, and re-indexes it by its size and age. */
    synchronized void touch(FetchSession session, long now) {
        lastUsed.remove(new LastUsedKey(session.lastUsedMs(), session.id()));
        session.lastUsedMs(now);
        lastUsed.put(new LastUsedKey(now, session.id()), session);
        if (session.cachedSize() != -1) {
            EvictableKey old = evictableKey(session, session.cachedSize());
            evictableByPrivileged.remove(old);
            evictableByAll.remove(old);
        }
        int size = session.size();
        session.cachedSize(size);
        EvictableKey key = evictableKey(session, size);
        boolean old = now - session.creationMs() > config.minIncrementalFetchSessionEvictionMs();
        if (!session.privileged() || old) {
            evictableByPrivileged.put(key, session);
        }
        if (old) {
            evictableByAll.put(key, session);
        }
    }

    /** Removes a session; returns it if it was there. */
    synchronized Optional<FetchSession> remove(int sessionId) {
        FetchSession session = sessions.get(sessionId);
        if (session != null) {
            remove(session);
        }
        return Optional.ofNullable(session);
    }

    private void remove(FetchSession session) {
        EvictableKey key = evictableKey(session, session.cachedSize());
        evictableByAll.remove(key);
        evictableByPrivileged.remove(key);
        lastUsed.remove(new LastUsedKey(session.lastUsedMs(), session.id()));
        sessions.remove(session.id());
    }

    private static EvictableKey evictableKey(FetchSession session, int size) {
        return new EvictableKey(session.privileged(), size, session.id());
    }

    private record LastUsedKey(long lastUsedMs, int id) {}

    private record EvictableKey(boolean privileged, int size, int id) {}
}
