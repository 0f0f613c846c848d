package io.krabka.kernel.tiered;

import io.krabka.kernel.log.MappedFile;
import io.krabka.kernel.log.OffsetIndex;
import io.krabka.kernel.log.OffsetPosition;
import io.krabka.kernel.log.TimeIndex;
import io.krabka.kernel.log.TransactionIndex;
import io.krabka.kernel.log.TxnIndexSearchResult;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One remote segment's three indexes in the cache: mapped, checked, and counted by their users. The cache holds
 * one reference while the entry is cached and each reader one while it reads; the files are unmapped, and deleted
 * if the entry was evicted, only when the last reference goes. The reference count and the file names are guarded
 * by the owning cache's lock; lookups need no lock.
 */
final class IndexCacheEntry {

    private final Uuid segmentId;
    private final IndexFileSet liveFiles;
    private final List<MappedFile> mappedFiles;
    private final OffsetIndex offsetIndex;
    private final TimeIndex timeIndex;
    private final TransactionIndex txnIndex;
    private final long sizeBytes;
    private final Path[] currentFiles;
    private int refs;

    private IndexCacheEntry(
            Uuid segmentId,
            long startOffset,
            IndexFileSet liveFiles,
            IndexFileSet openedFiles,
            List<MappedFile> mappedFiles) {
        this.segmentId = segmentId;
        this.liveFiles = liveFiles;
        this.mappedFiles = mappedFiles;
        this.offsetIndex = new OffsetIndex(
                mappedFiles.get(0).buffer(),
                startOffset,
                openedFiles.offsetIndex().toString());
        this.timeIndex = new TimeIndex(
                mappedFiles.get(1).buffer(),
                startOffset,
                openedFiles.timeIndex().toString());
        this.txnIndex = new TransactionIndex(
                mappedFiles.get(2).buffer(), startOffset, openedFiles.txnIndex().toString());
        this.sizeBytes = mappedFiles.stream().mapToLong(MappedFile::size).sum();
        this.currentFiles = openedFiles.all().toArray(Path[]::new);
    }

    /**
     * Maps and checks a segment's index files.
     *
     * @param liveFiles   the names the files have while the entry is cached
     * @param openedFiles where the files are now (the live names, or temporary ones not yet renamed)
     * @throws io.krabka.kernel.log.CorruptIndexException if an index is corrupt
     * @throws IOException                                if a file cannot be mapped
     */
    static IndexCacheEntry open(Uuid segmentId, long startOffset, IndexFileSet liveFiles, IndexFileSet openedFiles)
            throws IOException {
        List<MappedFile> mapped = new ArrayList<>(3);
        try {
            for (Path file : openedFiles.all()) {
                mapped.add(MappedFile.open(file));
            }
            return new IndexCacheEntry(segmentId, startOffset, liveFiles, openedFiles, List.copyOf(mapped));
        } catch (IOException | RuntimeException e) {
            mapped.forEach(MappedFile::close);
            throw e;
        }
    }

    Uuid segmentId() {
        return segmentId;
    }

    IndexFileSet liveFiles() {
        return liveFiles;
    }

    /** The bytes the three files take. */
    long sizeBytes() {
        return sizeBytes;
    }

    /** Where to scan from for {@code offset}. */
    OffsetPosition lookupOffset(long offset) {
        return offsetIndex.lookup(offset);
    }

    /**
     * Where to scan from for the first message at or after {@code timestamp}, not before {@code startingOffset}:
     * the time index gives an offset, the offset index its position.
     */
    OffsetPosition lookupTimestamp(long timestamp, long startingOffset) {
        return offsetIndex.lookup(
                Math.max(startingOffset, timeIndex.lookup(timestamp).offset()));
    }

    /** The first offset index entry at or past the end of {@code fetchSize} bytes read from {@code start}. */
    Optional<OffsetPosition> fetchUpperBoundOffset(OffsetPosition start, int fetchSize) {
        return offsetIndex.fetchUpperBoundOffset(start, fetchSize);
    }

    TxnIndexSearchResult collectAbortedTxns(long fetchOffset, long upperBoundOffset) {
        return txnIndex.collectAbortedTxns(fetchOffset, upperBoundOffset);
    }

    void retain() {
        refs++;
    }

    /** Takes a reference unless the last one is already gone. */
    boolean tryRetain() {
        if (refs == 0) {
            return false;
        }
        refs++;
        return true;
    }

    /** Drops a reference; true when it was the last. */
    boolean release() {
        if (refs <= 0) {
            throw new IllegalStateException("released more often than retained: " + this);
        }
        return --refs == 0;
    }

    /** Renames the files, one by one; the mappings stay valid. Renaming to the current names does nothing. */
    void rename(IndexFileSet target) throws IOException {
        List<Path> targets = target.all();
        for (int i = 0; i < currentFiles.length; i++) {
            Files.move(currentFiles[i], targets.get(i), StandardCopyOption.ATOMIC_MOVE);
            currentFiles[i] = targets.get(i);
        }
    }

    /** Deletes the files under their current names, trying all three before reporting a failure. */
    void deleteFiles() throws IOException {
        IOException failure = null;
        for (Path file : currentFiles) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Unmaps the files; only once no reference is left. */
    void unmap() {
        mappedFiles.forEach(MappedFile::close);
    }

    @Override
    public String toString() {
        return "IndexCacheEntry[" + liveFiles.offsetIndex().getFileName() + ", refs=" + refs + "]";
    }
}
