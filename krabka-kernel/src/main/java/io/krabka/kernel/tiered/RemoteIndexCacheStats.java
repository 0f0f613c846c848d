package io.krabka.kernel.tiered;

/**
 * Counters of a {@link RemoteIndexCache} since it was made.
 *
 * @param hitCount         requests served from local files, without a remote fetch
 * @param missCount        requests that found no local entry and fetched it or waited for a concurrent fetch
 * @param evictionCount    entries evicted to keep within the size bound
 * @param loadFailureCount fetches that failed (remote error, local I/O error or corrupt index)
 * @param entryCount       entries cached now
 * @param sizeBytes        bytes of the files of the entries cached now
 */
public record RemoteIndexCacheStats(
        long hitCount, long missCount, long evictionCount, long loadFailureCount, int entryCount, long sizeBytes) {}
