package io.krabka.kernel.tiered;

import io.krabka.kernel.log.OffsetPosition;
import io.krabka.kernel.log.TxnIndexSearchResult;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A bounded on-disk cache of remote segments' offset, time and transaction indexes, in
 * {@code <logDir>/remote-log-index-cache}, so that a fetch from the remote tier need not download them again. Named
 * and laid out as Kafka's {@code RemoteIndexCache}; an earlier run's files are reused after a restart.
 *
 * <p>Entries are fetched through the {@link RemoteStorageManager} on first use, once however many requests ask
 * at the same time, and served only once complete on disk. The total size of cached files stays within the bound
 * by evicting the least recently used entries (Kafka uses Caffeine's W-TinyLFU). An evicted entry's files are
 * renamed {@code .deleted} at once and deleted when its last reader is done, so a reader never loses its files.
 * Thread-safe.
 *
 * <p>Besides the declared exceptions, a lookup throws {@link io.krabka.kernel.log.CorruptIndexException} when the
 * remote tier serves an index Kafka could not have written (nothing of it is kept), and
 * {@link IllegalStateException} once the cache is closed.
 */
public final class RemoteIndexCache implements Closeable {

    /** The cache directory's name under a log directory. */
    public static final String DIR_NAME = "remote-log-index-cache";

    /** The suffix of a file being fetched. */
    public static final String TMP_FILE_SUFFIX = ".tmp";

    /** The broker setting for the size bound. */
    public static final String REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES_PROP =
            "remote.log.index.file.cache.total.size.bytes";

    /** Kafka's default size bound: 1 GiB. */
    public static final long DEFAULT_REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES = 1024L * 1024 * 1024;

    private final RemoteIndexFiles files;

    private final Object lock = new Object();
    // Guarded by lock.
    private final LruIndexEntries entries;
    private final Map<Uuid, CompletableFuture<IndexCacheEntry>> loading = new HashMap<>();
    private long hitCount;
    private long missCount;
    private long loadFailureCount;
    private boolean closed;

    /**
     * Opens the cache in {@code logDir}, creating its directory or reloading the complete entries an earlier run
     * left there, and deleting everything else it left.
     *
     * @param maxSizeBytes         the bound on the total size of cached files
     *                             ({@value #REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES_PROP}), at least 1
     * @param remoteStorageManager where missing indexes are fetched from
     * @param logDir               the log directory to keep the cache in
     * @throws IOException if the directory cannot be created or read
     */
    public RemoteIndexCache(long maxSizeBytes, RemoteStorageManager remoteStorageManager, Path logDir)
            throws IOException {
        if (maxSizeBytes < 1) {
            throw new IllegalArgumentException(
                    REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES_PROP + " must be at least 1: " + maxSizeBytes);
        }
        this.entries = new LruIndexEntries(maxSizeBytes);
        this.files = new RemoteIndexFiles(logDir.resolve(DIR_NAME), remoteStorageManager);
        List<IndexCacheEntry> reloaded = files.reload();
        List<IndexCacheEntry> unreferenced;
        synchronized (lock) {
            reloaded.forEach(entries::add);
            unreferenced = entries.evictIfNeeded();
        }
        unmap(unreferenced);
    }

    /**
     * The position in the segment from which to scan for {@code offset}.
     *
     * @throws RemoteStorageException if the indexes are not cached and could not be fetched
     * @throws IOException            if they could not be stored locally
     */
    public int lookupOffset(RemoteLogSegmentMetadata metadata, long offset) throws RemoteStorageException, IOException {
        IndexCacheEntry entry = acquire(metadata);
        try {
            return entry.lookupOffset(offset).position();
        } finally {
            release(entry);
        }
    }

    /**
     * The offset and position from which to scan for the first message at or after {@code timestamp}, not
     * before {@code startingOffset}.
     *
     * @throws RemoteStorageException if the indexes are not cached and could not be fetched
     * @throws IOException            if they could not be stored locally
     */
    public OffsetPosition lookupTimestamp(RemoteLogSegmentMetadata metadata, long timestamp, long startingOffset)
            throws RemoteStorageException, IOException {
        IndexCacheEntry entry = acquire(metadata);
        try {
            return entry.lookupTimestamp(timestamp, startingOffset);
        } finally {
            release(entry);
        }
    }

    /**
     * The first offset index entry at or past the end of {@code fetchSize} bytes read from {@code start}: an offset
     * certainly beyond what was read (Kafka's {@code fetchUpperBoundOffset}); empty if the index has none that far.
     *
     * @throws RemoteStorageException if the indexes are not cached and could not be fetched
     * @throws IOException            if they could not be stored locally
     */
    public Optional<OffsetPosition> fetchUpperBoundOffset(
            RemoteLogSegmentMetadata metadata, OffsetPosition start, int fetchSize)
            throws RemoteStorageException, IOException {
        IndexCacheEntry entry = acquire(metadata);
        try {
            return entry.fetchUpperBoundOffset(start, fetchSize);
        } finally {
            release(entry);
        }
    }

    /**
     * The segment's aborted transactions that overlap [{@code fetchOffset}, {@code upperBoundOffset}).
     *
     * @throws RemoteStorageException if the indexes are not cached and could not be fetched
     * @throws IOException            if they could not be stored locally
     */
    public TxnIndexSearchResult collectAbortedTxns(
            RemoteLogSegmentMetadata metadata, long fetchOffset, long upperBoundOffset)
            throws RemoteStorageException, IOException {
        IndexCacheEntry entry = acquire(metadata);
        try {
            return entry.collectAbortedTxns(fetchOffset, upperBoundOffset);
        } finally {
            release(entry);
        }
    }

    /** Drops a segment's entry, as when the segment is deleted from the remote tier. */
    public void remove(Uuid segmentId) {
        List<IndexCacheEntry> unreferenced;
        synchronized (lock) {
            unreferenced = entries.remove(segmentId);
        }
        unmap(unreferenced);
    }

    /** The counters so far. */
    public RemoteIndexCacheStats stats() {
        synchronized (lock) {
            return new RemoteIndexCacheStats(
                    hitCount,
                    missCount,
                    entries.evictionCount(),
                    loadFailureCount,
                    entries.size(),
                    entries.sizeBytes());
        }
    }

    /** The cache directory. */
    public Path cacheDir() {
        return files.dir();
    }

    /**
     * Unmaps the cached files, at once or as their last readers finish. The files stay on disk for the next run.
     * Later requests fail with {@link IllegalStateException}. Idempotent.
     */
    @Override
    public void close() {
        List<IndexCacheEntry> unreferenced;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            unreferenced = entries.releaseAll();
        }
        unmap(unreferenced);
    }

    /** The segment's entry with a reference taken for the caller, who must {@link #release} it. */
    IndexCacheEntry acquire(RemoteLogSegmentMetadata metadata) throws RemoteStorageException, IOException {
        Uuid segmentId = metadata.remoteLogSegmentId().id();
        boolean counted = false;
        while (true) {
            IndexCacheEntry cached;
            List<IndexCacheEntry> unreferenced = List.of();
            CompletableFuture<IndexCacheEntry> pending = null;
            boolean fetchHere = false;
            synchronized (lock) {
                if (closed) {
                    throw new IllegalStateException(
                            "RemoteIndexCache is closed; cannot serve the indexes of segment " + segmentId);
                }
                cached = entries.get(segmentId);
                if (cached != null) {
                    if (!counted) {
                        hitCount++;
                    }
                    cached.retain();
                    unreferenced = entries.evictIfNeeded();
                } else {
                    if (!counted) {
                        missCount++;
                        counted = true;
                    }
                    pending = loading.get(segmentId);
                    if (pending == null) {
                        pending = new CompletableFuture<>();
                        loading.put(segmentId, pending);
                        fetchHere = true;
                    }
                }
            }
            if (cached != null) {
                unmap(unreferenced);
                return cached;
            }
            if (fetchHere) {
                return fetch(metadata, pending);
            }
            IndexCacheEntry fetched = await(pending);
            synchronized (lock) {
                if (fetched.tryRetain()) {
                    return fetched;
                }
            }
            // Evicted and gone before this thread got to it: ask again.
        }
    }

    /** Gives back a reference from {@link #acquire}. */
    void release(IndexCacheEntry entry) {
        boolean last;
        synchronized (lock) {
            last = entries.release(entry);
        }
        if (last) {
            entry.unmap();
        }
    }

    private IndexCacheEntry fetch(RemoteLogSegmentMetadata metadata, CompletableFuture<IndexCacheEntry> pending)
            throws RemoteStorageException, IOException {
        Uuid segmentId = metadata.remoteLogSegmentId().id();
        IndexCacheEntry entry;
        try {
            entry = files.fetch(metadata);
        } catch (RemoteStorageException | IOException | RuntimeException | Error e) {
            synchronized (lock) {
                loading.remove(segmentId);
                loadFailureCount++;
            }
            pending.completeExceptionally(e);
            throw e;
        }
        boolean closedMeanwhile;
        List<IndexCacheEntry> unreferenced = List.of();
        synchronized (lock) {
            loading.remove(segmentId);
            closedMeanwhile = closed;
            if (!closedMeanwhile) {
                entries.add(entry);
                entry.retain();
                unreferenced = entries.evictIfNeeded();
            }
        }
        unmap(unreferenced);
        if (closedMeanwhile) {
            entry.unmap();
            IllegalStateException failure = new IllegalStateException(
                    "RemoteIndexCache closed while fetching the indexes of segment " + segmentId);
            pending.completeExceptionally(failure);
            throw failure;
        }
        pending.complete(entry);
        return entry;
    }

    // A request that waited for another thread's fetch fails with the same exception, so that a failing remote
    // tier is asked once, not once per waiting request.
    private static IndexCacheEntry await(CompletableFuture<IndexCacheEntry> pending)
            throws RemoteStorageException, IOException {
        try {
            return pending.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a concurrent fetch of the same indexes");
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case RemoteStorageException remote -> throw remote;
                case IOException io -> throw io;
                case RuntimeException runtime -> throw runtime;
                case Error error -> throw error;
                default -> throw new IllegalStateException("unexpected fetch failure", e.getCause());
            }
        }
    }

    private static void unmap(List<IndexCacheEntry> unreferenced) {
        unreferenced.forEach(IndexCacheEntry::unmap);
    }
}
