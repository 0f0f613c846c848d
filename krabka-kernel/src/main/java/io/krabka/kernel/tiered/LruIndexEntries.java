package io.krabka.kernel.tiered;

import io.krabka.kernel.log.LogFileUtils;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cached entries, least recently used first, within a bound on their total size, and the evicted ones that
 * readers still hold. Not thread-safe: the owning cache calls it under its lock, which also guards the entries'
 * reference counts and file names. Methods that may drop an entry's last reference return such entries, for the
 * caller to unmap outside the lock.
 */
final class LruIndexEntries {

    private static final System.Logger LOG = System.getLogger(LruIndexEntries.class.getName());

    private final long maxSizeBytes;
    private final LinkedHashMap<Uuid, IndexCacheEntry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<Uuid, IndexCacheEntry> pendingDeletion = new HashMap<>();
    private long sizeBytes;
    private long evictionCount;

    LruIndexEntries(long maxSizeBytes) {
        this.maxSizeBytes = maxSizeBytes;
    }

    /**
     * The segment's entry, now the most recently used, or null. An evicted entry that readers still hold is put
     * back rather than fetched again, so that at most one copy of a segment's files exists and names never clash.
     *
     * @throws IOException if an evicted entry's files could not be renamed back
     */
    IndexCacheEntry get(Uuid segmentId) throws IOException {
        IndexCacheEntry cached = entries.get(segmentId);
        IndexCacheEntry evicted = pendingDeletion.get(segmentId);
        if (cached == null && evicted != null) {
            evicted.rename(evicted.liveFiles());
            pendingDeletion.remove(segmentId);
            add(evicted);
            return evicted;
        }
        return cached;
    }

    /** Caches an entry, taking a reference for the cache. */
    void add(IndexCacheEntry entry) {
        entries.put(entry.segmentId(), entry);
        sizeBytes += entry.sizeBytes();
        entry.retain();
    }

    /** Evicts least recently used entries until the bound holds. */
    List<IndexCacheEntry> evictIfNeeded() {
        List<IndexCacheEntry> unreferenced = new ArrayList<>();
        Iterator<IndexCacheEntry> leastRecentlyUsedFirst = entries.values().iterator();
        while (sizeBytes > maxSizeBytes && leastRecentlyUsedFirst.hasNext()) {
            IndexCacheEntry eldest = leastRecentlyUsedFirst.next();
            leastRecentlyUsedFirst.remove();
            evictionCount++;
            discard(eldest, unreferenced);
        }
        return unreferenced;
    }

    /** Drops a segment's entry, if cached. */
    List<IndexCacheEntry> remove(Uuid segmentId) {
        List<IndexCacheEntry> unreferenced = new ArrayList<>();
        IndexCacheEntry entry = entries.remove(segmentId);
        if (entry != null) {
            discard(entry, unreferenced);
        }
        return unreferenced;
    }

    /** Drops a reader's reference; true when it was the last, after deleting the files of an evicted entry. */
    boolean release(IndexCacheEntry entry) {
        if (!entry.release()) {
            return false;
        }
        if (pendingDeletion.remove(entry.segmentId(), entry)) {
            try {
                entry.deleteFiles();
            } catch (IOException e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "Could not delete the files of " + entry + "; the next start will",
                        e);
            }
        }
        return true;
    }

    /** Drops the cache's references to all entries, keeping their files, as the cache closes. */
    List<IndexCacheEntry> releaseAll() {
        List<IndexCacheEntry> unreferenced = new ArrayList<>();
        for (IndexCacheEntry entry : entries.values()) {
            if (entry.release()) {
                unreferenced.add(entry);
            }
        }
        entries.clear();
        sizeBytes = 0;
        return unreferenced;
    }

    int size() {
        return entries.size();
    }

    long sizeBytes() {
        return sizeBytes;
    }

    long evictionCount() {
        return evictionCount;
    }

    // For an entry just taken out of entries: renamed .deleted now, deleted with its last reference.
    private void discard(IndexCacheEntry entry, List<IndexCacheEntry> unreferenced) {
        sizeBytes -= entry.sizeBytes();
        try {
            entry.rename(entry.liveFiles().withSuffix(LogFileUtils.DELETED_FILE_SUFFIX));
        } catch (IOException e) {
            // The files keep their names until deleted; get() still finds the entry by its id.
            LOG.log(System.Logger.Level.WARNING, "Could not mark " + entry + " for deletion", e);
        }
        pendingDeletion.put(entry.segmentId(), entry);
        if (release(entry)) {
            unreferenced.add(entry);
        }
    }
}
