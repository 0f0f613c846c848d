package io.krabka.kernel.fetch;

/**
 * The fetch session cache's settings.
 *
 * @param maxIncrementalFetchSessionCacheSlots {@code max.incremental.fetch.session.cache.slots}: the most
 *                                             sessions kept (Kafka's default 1000; 0 turns sessions off)
 * @param minIncrementalFetchSessionEvictionMs how long a session is safe from eviction by a newer, larger one
 *                                             after its creation (Kafka's fixed 120000 ms)
 */
public record FetchSessionCacheConfig(
        int maxIncrementalFetchSessionCacheSlots, long minIncrementalFetchSessionEvictionMs) {

    /** Kafka's defaults. */
    public static final FetchSessionCacheConfig DEFAULTS = new FetchSessionCacheConfig(1000, 120_000);

    /** Checks the values. */
    public FetchSessionCacheConfig {
        if (maxIncrementalFetchSessionCacheSlots < 0 || minIncrementalFetchSessionEvictionMs < 0) {
            throw new IllegalArgumentException("max.incremental.fetch.session.cache.slots "
                    + maxIncrementalFetchSessionCacheSlots + " and eviction ms " + minIncrementalFetchSessionEvictionMs
                    + " must be at least 0");
        }
    }
}
