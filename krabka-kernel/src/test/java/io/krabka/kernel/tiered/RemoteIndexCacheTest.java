package io.krabka.kernel.tiered;

import static io.krabka.kernel.tiered.TestSegments.ENTRY_SIZE;
import static io.krabka.kernel.tiered.TestSegments.abortedTxn;
import static io.krabka.kernel.tiered.TestSegments.files;
import static io.krabka.kernel.tiered.TestSegments.stored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.CorruptIndexException;
import io.krabka.kernel.log.OffsetPosition;
import io.krabka.kernel.log.TxnIndexSearchResult;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RemoteIndexCacheTest {

    @TempDir
    Path logDir;

    private final MapRemoteStorageManager rsm = new MapRemoteStorageManager();
    private RemoteIndexCache cache;

    @AfterEach
    void closeCache() {
        if (cache != null) {
            cache.close();
        }
    }

    private RemoteIndexCache open(long maxSizeBytes) throws IOException {
        cache = new RemoteIndexCache(maxSizeBytes, rsm, logDir);
        return cache;
    }

    @Test
    void aMissFetchesEachIndexOnceAndLaterRequestsHit() throws Exception {
        open(RemoteIndexCache.DEFAULT_REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES);
        RemoteLogSegmentMetadata segment = stored(rsm, 1_000);

        assertEquals(1_000, cache.lookupOffset(segment, 1_015));
        assertEquals(0, cache.lookupOffset(segment, 1_005));
        assertEquals(new OffsetPosition(1_010, 1_000), cache.lookupTimestamp(segment, 11_500, 1_000));
        assertEquals(
                new TxnIndexSearchResult(List.of(abortedTxn(1_000)), false),
                cache.collectAbortedTxns(segment, 1_000, 1_005));

        for (IndexType type : List.of(IndexType.OFFSET, IndexType.TIMESTAMP, IndexType.TRANSACTION)) {
            assertEquals(1, rsm.fetchCount(segment, type), type.toString());
        }
        assertEquals(new RemoteIndexCacheStats(3, 1, 0, 0, 1, ENTRY_SIZE), cache.stats());
    }

    @Test
    void timestampLookupStartsNoEarlierThanTheStartingOffset() throws Exception {
        open(RemoteIndexCache.DEFAULT_REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES);
        RemoteLogSegmentMetadata segment = stored(rsm, 1_000);
        assertEquals(new OffsetPosition(1_000, 0), cache.lookupTimestamp(segment, 5_000, 1_000));
        assertEquals(new OffsetPosition(1_020, 2_000), cache.lookupTimestamp(segment, 11_500, 1_025));
        assertEquals(new OffsetPosition(1_020, 2_000), cache.lookupTimestamp(segment, Long.MAX_VALUE, 1_000));
    }

    @Test
    void filesAreNamedAsKafkaNamesThemAndNoTemporaryFileRemains() throws Exception {
        open(RemoteIndexCache.DEFAULT_REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES);
        RemoteLogSegmentMetadata segment = stored(rsm, 1_234);
        cache.lookupOffset(segment, 1_234);

        Path dir = logDir.resolve("remote-log-index-cache");
        assertEquals(dir, cache.cacheDir());
        String prefix = "1234_" + segment.remoteLogSegmentId().id();
        assertEquals(List.of(prefix + ".index", prefix + ".timeindex", prefix + ".txnindex"), fileNames(dir));
        assertEquals(16, Files.size(dir.resolve(prefix + ".index")));
        assertEquals(24, Files.size(dir.resolve(prefix + ".timeindex")));
        assertEquals(34, Files.size(dir.resolve(prefix + ".txnindex")));
    }

    @Test
    void aMissingTransactionIndexIsAnEmptyOne() throws Exception {
        open(RemoteIndexCache.DEFAULT_REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES);
        RemoteLogSegmentMetadata segment = stored(rsm, 0);
        rsm.failWith(IndexType.TRANSACTION, new RemoteResourceNotFoundException("no transaction index"));

        assertEquals(new TxnIndexSearchResult(List.of(), false), cache.collectAbortedTxns(segment, 0, 100));
        assertEquals(0, Files.size(files(cache.cacheDir(), segment).txnIndex()));
        assertEquals(ENTRY_SIZE - 34, cache.stats().sizeBytes());
    }

    @Test
    void aMissingOffsetIndexFailsAndLeavesNoFile() throws Exception {
        open(RemoteIndexCache.DEFAULT_REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES);
        RemoteLogSegmentMetadata segment = TestSegments.segment(0);

        assertThrows(RemoteResourceNotFoundException.class, () -> cache.lookupOffset(segment, 0));
        assertEquals(List.of(), fileNames(cache.cacheDir()));
        assertEquals(new RemoteIndexCacheStats(0, 1, 0, 1, 0, 0), cache.stats());
    }

    @Test
    void aFetchFailureLeavesNoFileIsReportedAndIsRetriedOnTheNextRequest() throws Exception {
        open(RemoteIndexCache.DEFAULT_REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES);
        RemoteLogSegmentMetadata segment = stored(rsm, 0);
        RemoteStorageException outage = new RemoteStorageException("remote tier unavailable");
        // The offset index is already written to its .tmp file when the time index fails.
        rsm.failWith(IndexType.TIMESTAMP, outage);

        assertSame(outage, assertThrows(RemoteStorageException.class, () -> cache.lookupOffset(segment, 15)));
        assertEquals(List.of(), fileNames(cache.cacheDir()));
        assertEquals(new RemoteIndexCacheStats(0, 1, 0, 1, 0, 0), cache.stats());

        rsm.stopFailing();
        assertEquals(1_000, cache.lookupOffset(segment, 15));
        assertEquals(2, rsm.fetchCount(segment, IndexType.OFFSET));
        assertEquals(new RemoteIndexCacheStats(0, 2, 0, 1, 1, ENTRY_SIZE), cache.stats());
    }

    @Test
    void aCorruptRemoteIndexIsRejectedAndLeavesNoFile() throws Exception {
        open(RemoteIndexCache.DEFAULT_REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES);
        RemoteLogSegmentMetadata segment = stored(rsm, 0);
        rsm.put(segment, IndexType.OFFSET, ByteBuffer.wrap(new byte[13]));

        CorruptIndexException e = assertThrows(CorruptIndexException.class, () -> cache.lookupOffset(segment, 0));
        assertEquals(
                files(cache.cacheDir(), segment)
                        .withSuffix(".tmp")
                        .offsetIndex()
                        .toString(),
                e.source());
        assertEquals(8, e.bytePosition());
        assertEquals(List.of(), fileNames(cache.cacheDir()));
        assertEquals(1, cache.stats().loadFailureCount());
    }

    @Test
    void evictsTheLeastRecentlyUsedEntryToStayWithinTheBound() throws Exception {
        open(2 * ENTRY_SIZE);
        RemoteLogSegmentMetadata a = stored(rsm, 0);
        RemoteLogSegmentMetadata b = stored(rsm, 100);
        RemoteLogSegmentMetadata c = stored(rsm, 200);
        cache.lookupOffset(a, 0);
        cache.lookupOffset(b, 100);
        cache.lookupOffset(a, 0);
        cache.lookupOffset(c, 200);

        assertEquals(new RemoteIndexCacheStats(1, 3, 1, 0, 2, 2 * ENTRY_SIZE), cache.stats());
        assertEquals(6, fileNames(cache.cacheDir()).size());
        assertTrue(Files.exists(files(cache.cacheDir(), a).offsetIndex()));
        assertTrue(Files.exists(files(cache.cacheDir(), c).offsetIndex()));
        assertFalse(Files.exists(files(cache.cacheDir(), b).offsetIndex()));

        cache.lookupOffset(b, 100);
        assertEquals(2, rsm.fetchCount(b, IndexType.OFFSET));
        assertFalse(Files.exists(files(cache.cacheDir(), a).offsetIndex()), "a was the least recently used");
    }

    @Test
    void theFilesOnDiskNeverExceedTheBound() throws Exception {
        long bound = 3 * ENTRY_SIZE + ENTRY_SIZE / 2;
        open(bound);
        for (int i = 0; i < 20; i++) {
            RemoteLogSegmentMetadata segment = stored(rsm, i * 100L);
            cache.lookupOffset(segment, i * 100L);
            assertTrue(cache.stats().sizeBytes() <= bound);
            assertTrue(bytesOnDisk(cache.cacheDir()) <= bound);
        }
        assertEquals(new RemoteIndexCacheStats(0, 20, 17, 0, 3, 3 * ENTRY_SIZE), cache.stats());
    }

    @Test
    void anEntryLargerThanTheBoundIsServedThenDropped() throws Exception {
        open(1);
        RemoteLogSegmentMetadata segment = stored(rsm, 0);
        assertEquals(1_000, cache.lookupOffset(segment, 10));
        assertEquals(2_000, cache.lookupOffset(segment, 25));
        assertEquals(new RemoteIndexCacheStats(0, 2, 2, 0, 0, 0), cache.stats());
        assertEquals(List.of(), fileNames(cache.cacheDir()));
    }

    @Test
    void removeDropsTheEntryAndItsFiles() throws Exception {
        open(RemoteIndexCache.DEFAULT_REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES);
        RemoteLogSegmentMetadata segment = stored(rsm, 0);
        cache.lookupOffset(segment, 0);
        cache.remove(segment.remoteLogSegmentId().id());

        assertEquals(List.of(), fileNames(cache.cacheDir()));
        assertEquals(new RemoteIndexCacheStats(0, 1, 0, 0, 0, 0), cache.stats());
        cache.lookupOffset(segment, 0);
        assertEquals(2, rsm.fetchCount(segment, IndexType.OFFSET));
    }

    @Test
    void closeKeepsTheFilesAndRefusesLaterRequests() throws Exception {
        open(RemoteIndexCache.DEFAULT_REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES);
        RemoteLogSegmentMetadata segment = stored(rsm, 0);
        cache.lookupOffset(segment, 0);
        cache.close();
        cache.close();

        assertEquals(3, fileNames(cache.cacheDir()).size());
        assertThrows(IllegalStateException.class, () -> cache.lookupOffset(segment, 0));
    }

    @Test
    void theSizeBoundIsAtLeastOneByteAndDefaultsToOneGibibyte() {
        assertEquals(1_073_741_824L, RemoteIndexCache.DEFAULT_REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new RemoteIndexCache(0, rsm, logDir));
        assertEquals("remote.log.index.file.cache.total.size.bytes must be at least 1: 0", e.getMessage());
    }

    static List<String> fileNames(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }

    private static long bytesOnDisk(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            long total = 0;
            for (Path file : files.toList()) {
                total += Files.size(file);
            }
            return total;
        }
    }
}
