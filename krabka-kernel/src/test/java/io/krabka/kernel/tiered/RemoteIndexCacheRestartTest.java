package io.krabka.kernel.tiered;

import static io.krabka.kernel.tiered.RemoteIndexCacheTest.fileNames;
import static io.krabka.kernel.tiered.TestSegments.ENTRY_SIZE;
import static io.krabka.kernel.tiered.TestSegments.files;
import static io.krabka.kernel.tiered.TestSegments.stored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RemoteIndexCacheRestartTest {

    @TempDir
    Path logDir;

    private final MapRemoteStorageManager rsm = new MapRemoteStorageManager();

    @Test
    void aRestartServesTheEntriesOfTheEarlierRunWithoutFetching() throws Exception {
        RemoteLogSegmentMetadata a = stored(rsm, 0);
        RemoteLogSegmentMetadata b = stored(rsm, 100);
        try (RemoteIndexCache first = new RemoteIndexCache(10 * ENTRY_SIZE, rsm, logDir)) {
            first.lookupOffset(a, 0);
            first.lookupOffset(b, 100);
        }
        for (IndexType type : IndexType.values()) {
            rsm.failWith(type, new RemoteStorageException("the remote tier must not be asked again"));
        }

        try (RemoteIndexCache second = new RemoteIndexCache(10 * ENTRY_SIZE, rsm, logDir)) {
            assertEquals(new RemoteIndexCacheStats(0, 0, 0, 0, 2, 2 * ENTRY_SIZE), second.stats());
            assertEquals(1_000, second.lookupOffset(a, 15));
            assertEquals(2_000, second.lookupOffset(b, 199));
            assertEquals(new RemoteIndexCacheStats(2, 0, 0, 0, 2, 2 * ENTRY_SIZE), second.stats());
        }
        assertEquals(1, rsm.fetchCount(a, IndexType.OFFSET));
    }

    @Test
    void leftoversOfAnEarlierRunAreDeleted() throws Exception {
        RemoteLogSegmentMetadata complete = stored(rsm, 0);
        RemoteLogSegmentMetadata incomplete = stored(rsm, 100);
        RemoteLogSegmentMetadata corrupt = stored(rsm, 200);
        Path dir;
        try (RemoteIndexCache first = new RemoteIndexCache(10 * ENTRY_SIZE, rsm, logDir)) {
            first.lookupOffset(complete, 0);
            first.lookupOffset(incomplete, 100);
            first.lookupOffset(corrupt, 200);
            dir = first.cacheDir();
        }
        IndexFileSet pending = files(dir, stored(rsm, 300)).withSuffix(".deleted");
        IndexFileSet fetching = files(dir, stored(rsm, 400)).withSuffix(".tmp");
        for (Path file : List.of(pending.offsetIndex(), pending.txnIndex(), fetching.offsetIndex())) {
            Files.write(file, new byte[8]);
        }
        Files.delete(files(dir, incomplete).timeIndex());
        Files.write(files(dir, corrupt).offsetIndex(), new byte[13]);
        Path unrelated = Files.writeString(dir.resolve("README.txt"), "not a cache file");

        try (RemoteIndexCache second = new RemoteIndexCache(10 * ENTRY_SIZE, rsm, logDir)) {
            assertEquals(new RemoteIndexCacheStats(0, 0, 0, 0, 1, ENTRY_SIZE), second.stats());
            String prefix = "0_" + complete.remoteLogSegmentId().id();
            assertEquals(
                    List.of(prefix + ".index", prefix + ".timeindex", prefix + ".txnindex", "README.txt"),
                    fileNames(dir));
            assertEquals(1_000, second.lookupOffset(corrupt, 215));
            assertEquals(2, rsm.fetchCount(corrupt, IndexType.OFFSET));
        }
        assertTrue(Files.exists(unrelated));
    }

    @Test
    void aRestartWithASmallerBoundKeepsTheMostRecentlyFetched() throws Exception {
        RemoteLogSegmentMetadata oldest = stored(rsm, 0);
        RemoteLogSegmentMetadata middle = stored(rsm, 100);
        RemoteLogSegmentMetadata newest = stored(rsm, 200);
        Path dir;
        try (RemoteIndexCache first = new RemoteIndexCache(10 * ENTRY_SIZE, rsm, logDir)) {
            first.lookupOffset(newest, 200);
            first.lookupOffset(oldest, 0);
            first.lookupOffset(middle, 100);
            dir = first.cacheDir();
        }
        // Fetch times a second apart, whatever the file system's timestamp resolution.
        long second = 1_700_000_000_000L;
        for (RemoteLogSegmentMetadata segment : List.of(oldest, middle, newest)) {
            second += 1_000;
            for (Path file : files(dir, segment).all()) {
                Files.setLastModifiedTime(file, FileTime.fromMillis(second));
            }
        }

        try (RemoteIndexCache smaller = new RemoteIndexCache(2 * ENTRY_SIZE, rsm, logDir)) {
            assertEquals(new RemoteIndexCacheStats(0, 0, 1, 0, 2, 2 * ENTRY_SIZE), smaller.stats());
            assertEquals(6, fileNames(dir).size());
            assertTrue(Files.notExists(files(dir, oldest).offsetIndex()));
            assertTrue(Files.exists(files(dir, middle).offsetIndex()));
            assertTrue(Files.exists(files(dir, newest).offsetIndex()));
        }
    }

    @Test
    void theDirectoryIsCreatedWhenMissing() throws IOException {
        Path fresh = logDir.resolve("new-log-dir");
        try (RemoteIndexCache cache = new RemoteIndexCache(1, rsm, fresh)) {
            assertTrue(Files.isDirectory(fresh.resolve("remote-log-index-cache")));
            assertEquals(List.of(), fileNames(cache.cacheDir()));
        }
    }
}
