package io.krabka.kernel.tiered;

import static io.krabka.kernel.tiered.RemoteIndexCacheTest.fileNames;
import static io.krabka.kernel.tiered.TestSegments.ENTRY_SIZE;
import static io.krabka.kernel.tiered.TestSegments.abortedTxn;
import static io.krabka.kernel.tiered.TestSegments.files;
import static io.krabka.kernel.tiered.TestSegments.stored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.OffsetPosition;
import io.krabka.kernel.log.TxnIndexSearchResult;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

// The timeouts only keep a deadlock from hanging the build.
@Timeout(120)
class RemoteIndexCacheConcurrencyTest {

    @TempDir
    Path logDir;

    private final MapRemoteStorageManager rsm = new MapRemoteStorageManager();
    private final ExecutorService threads = Executors.newFixedThreadPool(8);
    private RemoteIndexCache cache;

    @AfterEach
    void stop() {
        rsm.openGate();
        threads.shutdownNow();
        if (cache != null) {
            cache.close();
        }
    }

    @Test
    void anEvictedEntryKeepsItsFilesUntilItsLastReaderIsDone() throws Exception {
        cache = new RemoteIndexCache(2 * ENTRY_SIZE, rsm, logDir);
        RemoteLogSegmentMetadata a = stored(rsm, 0);
        IndexCacheEntry held = cache.acquire(a);
        cache.lookupOffset(stored(rsm, 100), 100);
        cache.lookupOffset(stored(rsm, 200), 200);

        IndexFileSet deleted = files(cache.cacheDir(), a).withSuffix(".deleted");
        assertEquals(1, cache.stats().evictionCount());
        assertFalse(Files.exists(files(cache.cacheDir(), a).offsetIndex()));
        for (Path file : deleted.all()) {
            assertTrue(Files.exists(file), file + " is still read");
        }
        assertEquals(new OffsetPosition(20, 2_000), held.lookupOffset(25));
        assertEquals(new TxnIndexSearchResult(List.of(abortedTxn(0)), false), held.collectAbortedTxns(0, 2));

        cache.release(held);
        for (Path file : deleted.all()) {
            assertFalse(Files.exists(file), file + " outlived its last reader");
        }
        assertEquals(6, fileNames(cache.cacheDir()).size());
        assertThrows(IllegalStateException.class, () -> held.lookupOffset(25), "unmapped after the last release");
    }

    @Test
    void anEvictedEntryStillReadIsRestoredInsteadOfFetchedAgain() throws Exception {
        cache = new RemoteIndexCache(2 * ENTRY_SIZE, rsm, logDir);
        RemoteLogSegmentMetadata a = stored(rsm, 0);
        IndexCacheEntry held = cache.acquire(a);
        cache.lookupOffset(stored(rsm, 100), 100);
        cache.lookupOffset(stored(rsm, 200), 200);

        assertEquals(1_000, cache.lookupOffset(a, 15));
        assertEquals(1, rsm.fetchCount(a, IndexType.OFFSET));
        for (Path file : files(cache.cacheDir(), a).all()) {
            assertTrue(Files.exists(file), file + " is live again");
        }
        cache.release(held);
        assertTrue(Files.exists(files(cache.cacheDir(), a).offsetIndex()), "a cached entry keeps its files");
        assertEquals(new RemoteIndexCacheStats(1, 3, 2, 0, 2, 2 * ENTRY_SIZE), cache.stats());
    }

    @Test
    void concurrentMissesForOneEntryFetchItOnce() throws Exception {
        cache = new RemoteIndexCache(
                RemoteIndexCache.DEFAULT_REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES, rsm, logDir);
        RemoteLogSegmentMetadata segment = stored(rsm, 0);
        rsm.closeGate();
        List<Future<Integer>> lookups = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            lookups.add(threads.submit(() -> cache.lookupOffset(segment, 15)));
        }
        awaitMisses(8);
        rsm.openGate();

        for (Future<Integer> lookup : lookups) {
            assertEquals(1_000, lookup.get());
        }
        for (IndexType type : List.of(IndexType.OFFSET, IndexType.TIMESTAMP, IndexType.TRANSACTION)) {
            assertEquals(1, rsm.fetchCount(segment, type), type.toString());
        }
        assertEquals(new RemoteIndexCacheStats(0, 8, 0, 0, 1, ENTRY_SIZE), cache.stats());
    }

    @Test
    void concurrentMissesShareOneFetchFailure() throws Exception {
        cache = new RemoteIndexCache(
                RemoteIndexCache.DEFAULT_REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES, rsm, logDir);
        RemoteLogSegmentMetadata segment = stored(rsm, 0);
        RemoteStorageException outage = new RemoteStorageException("remote tier unavailable");
        rsm.failWith(IndexType.OFFSET, outage);
        rsm.closeGate();
        List<Future<Integer>> lookups = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            lookups.add(threads.submit(() -> cache.lookupOffset(segment, 15)));
        }
        awaitMisses(8);
        rsm.openGate();

        for (Future<Integer> lookup : lookups) {
            ExecutionException e = assertThrows(ExecutionException.class, lookup::get);
            assertSame(outage, e.getCause());
        }
        assertEquals(1, rsm.fetchCount(segment, IndexType.OFFSET));
        assertEquals(new RemoteIndexCacheStats(0, 8, 0, 1, 0, 0), cache.stats());
        assertEquals(List.of(), fileNames(cache.cacheDir()));
    }

    @Test
    void readersGetCorrectAnswersWhileEntriesAreEvictedAroundThem() throws Exception {
        int segmentCount = 12;
        cache = new RemoteIndexCache(3 * ENTRY_SIZE, rsm, logDir);
        List<RemoteLogSegmentMetadata> segments = new ArrayList<>();
        for (int i = 0; i < segmentCount; i++) {
            segments.add(stored(rsm, i * 1_000L));
        }
        List<Future<Integer>> readers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            long seed = t;
            readers.add(threads.submit(() -> {
                Random random = new Random(seed);
                int checked = 0;
                for (int i = 0; i < 150; i++) {
                    RemoteLogSegmentMetadata segment = segments.get(random.nextInt(segmentCount));
                    long start = segment.startOffset();
                    assertEquals(1_000, cache.lookupOffset(segment, start + 15));
                    assertEquals(
                            new OffsetPosition(start + 20, 2_000),
                            cache.lookupTimestamp(segment, 25_000 + start, start));
                    assertEquals(
                            new TxnIndexSearchResult(List.of(abortedTxn(start)), false),
                            cache.collectAbortedTxns(segment, start, start + 2));
                    checked += 3;
                }
                return checked;
            }));
        }
        for (Future<Integer> reader : readers) {
            assertEquals(450, reader.get());
        }

        RemoteIndexCacheStats stats = cache.stats();
        assertEquals(3_600, stats.hitCount() + stats.missCount());
        assertTrue(stats.evictionCount() > 0, "the bound forced evictions: " + stats);
        assertTrue(stats.sizeBytes() <= 3 * ENTRY_SIZE);
        List<String> left = fileNames(cache.cacheDir());
        assertEquals(3 * stats.entryCount(), left.size(), "only live entries' files remain: " + left);
        assertTrue(
                left.stream().noneMatch(name -> name.endsWith(".deleted") || name.endsWith(".tmp")), left.toString());
    }

    private void awaitMisses(long count) throws InterruptedException {
        while (cache.stats().missCount() < count) {
            Thread.sleep(1);
        }
    }
}
