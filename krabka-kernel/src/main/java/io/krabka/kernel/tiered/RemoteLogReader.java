package io.krabka.kernel.tiered;

import io.krabka.kernel.log.BufferRecords;
import io.krabka.kernel.log.FetchDataInfo;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.LogOffsetMetadata;
import io.krabka.kernel.log.OffsetOutOfRangeException;
import io.krabka.kernel.log.OffsetPosition;
import io.krabka.kernel.log.TimestampAndOffset;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.Records;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads a partition's records from the remote tier, as Kafka's {@code RemoteLogManager.read}: the segment holding
 * the fetch offset comes from the metadata manager (under the offset's leader epoch, then the next segments while
 * one holds nothing at or after the offset), the start position from the segment's offset index in the
 * {@link RemoteIndexCache}, the bytes from ranged fetches of the {@link RemoteStorageManager}. Returns whole
 * batches only, from one segment, within the byte limit (the first batch even if larger, for minOneMessage), and
 * for read_committed the aborted transactions overlapping them. Thread-safe; blocking.
 */
public final class RemoteLogReader {

    private final RemoteStorageManager rsm;
    private final RemoteLogMetadataManager rlmm;
    private final RemoteIndexCache indexCache;
    private final RemoteAbortedTransactions abortedTransactions;
    private final RemoteTimestampLookup timestampLookup;

    /** A reader of the segments {@code rlmm} lists, in {@code rsm}, through {@code indexCache}. */
    public RemoteLogReader(RemoteStorageManager rsm, RemoteLogMetadataManager rlmm, RemoteIndexCache indexCache) {
        this.rsm = Objects.requireNonNull(rsm, "rsm");
        this.rlmm = Objects.requireNonNull(rlmm, "rlmm");
        this.indexCache = Objects.requireNonNull(indexCache, "indexCache");
        this.abortedTransactions = new RemoteAbortedTransactions(rlmm, indexCache);
        this.timestampLookup = new RemoteTimestampLookup(rsm, rlmm, indexCache);
    }

    /**
     * The first record at or after {@code timestamp} and {@code startingOffset} in the remote tier, as Kafka's
     * {@code RemoteLogManager.findOffsetByTimestamp}; empty if no copied segment holds one.
     *
     * @param log the partition's log, whose leader epochs say which remote segments are its own
     * @throws RemoteStorageException if the remote tier failed
     * @throws IOException            if a remote stream or the index cache failed
     */
    public Optional<TimestampAndOffset> findOffsetByTimestamp(
            TopicIdPartition partition, long timestamp, long startingOffset, UnifiedLog log)
            throws RemoteStorageException, IOException {
        return timestampLookup.find(partition, timestamp, startingOffset, log);
    }

    /**
     * Reads from the remote tier.
     *
     * @param log the partition's log: its leader epochs locate the segments, its local segments end the search for
     *            aborted transactions
     * @throws OffsetOutOfRangeException if no remote segment holds the offset
     * @throws RemoteStorageException    if the remote tier failed
     * @throws IOException               if a remote stream or the index cache failed
     * @throws io.krabka.kernel.record.CorruptRecordException if the remote segment is not a sequence of batches
     */
    public FetchDataInfo read(RemoteStorageFetchInfo fetch, UnifiedLog log) throws RemoteStorageException, IOException {
        TopicIdPartition partition = fetch.topicIdPartition();
        long offset = fetch.fetchOffset();
        OptionalInt epoch = log.leaderEpochCache().epochForOffset(offset);
        Optional<RemoteLogSegmentMetadata> segment = epoch.isPresent()
                ? rlmm.remoteLogSegmentMetadata(partition, epoch.getAsInt(), offset)
                : Optional.empty();
        if (segment.isEmpty()) {
            throw new OffsetOutOfRangeException("Received request for offset " + offset + " for leader epoch "
                    + (epoch.isPresent() ? epoch.getAsInt() : "NOT AVAILABLE") + " and partition " + partition
                    + " which does not exist in remote tier.");
        }
        // Index lookups land at most index.interval.bytes before the batch sought, so one chunk usually holds the
        // skipped batches and the records returned.
        int chunkBytes = (int) Math.min(
                Integer.MAX_VALUE,
                Math.max(1L, (long) fetch.maxBytes() + log.config().indexIntervalBytes()));
        while (segment.isPresent()) {
            Optional<FetchDataInfo> read = readSegment(fetch, segment.get(), chunkBytes, log);
            if (read.isPresent()) {
                return read.get();
            }
            segment = nextSegment(partition, segment.get(), log);
        }
        return new FetchDataInfo(
                new LogOffsetMetadata(offset),
                BufferRecords.EMPTY,
                false,
                fetch.isolation() == FetchIsolation.TXN_COMMITTED ? Optional.of(List.of()) : Optional.empty());
    }

    // Empty when the segment holds nothing at or after the fetch offset (compaction may leave such a segment).
    private Optional<FetchDataInfo> readSegment(
            RemoteStorageFetchInfo fetch, RemoteLogSegmentMetadata segment, int chunkBytes, UnifiedLog log)
            throws RemoteStorageException, IOException {
        long offset = fetch.fetchOffset();
        int start = indexCache.lookupOffset(segment, Math.max(offset, segment.startOffset()));
        RemoteSegmentCursor cursor = new RemoteSegmentCursor(rsm, segment, start, chunkBytes);
        long firstPosition;
        Optional<LogBatch> first;
        do {
            firstPosition = cursor.position();
            first = cursor.next(Integer.MAX_VALUE);
        } while (first.isPresent() && first.get().lastOffset() < offset);
        if (first.isEmpty()) {
            return Optional.empty();
        }
        LogOffsetMetadata fetchOffsetMetadata =
                new LogOffsetMetadata(offset, segment.startOffset(), (int) firstPosition);
        LogBatch firstBatch = first.get();
        if (firstBatch.sizeInBytes() > fetch.maxBytes() && !fetch.minOneMessage()) {
            return Optional.of(new FetchDataInfo(fetchOffsetMetadata, BufferRecords.EMPTY, true, Optional.empty()));
        }
        List<LogBatch> batches = new ArrayList<>();
        batches.add(firstBatch);
        int size = firstBatch.sizeInBytes();
        Optional<LogBatch> next;
        while (size < fetch.maxBytes() && (next = cursor.next(fetch.maxBytes() - size)).isPresent()) {
            batches.add(next.get());
            size += next.get().sizeInBytes();
        }
        // Usually one ranged fetch holds them all, and the answer is a view of it; a batch that needed a fetch of
        // its own makes a copy.
        ByteBuffer records = cursor.bytesSince(firstPosition).orElseGet(() -> concatenated(batches));
        FetchDataInfo data = new FetchDataInfo(fetchOffsetMetadata, new BufferRecords(records));
        if (fetch.isolation() != FetchIsolation.TXN_COMMITTED) {
            return Optional.of(data);
        }
        long upperBoundOffset = indexCache
                .fetchUpperBoundOffset(segment, new OffsetPosition(offset, (int) firstPosition), size)
                .map(OffsetPosition::offset)
                .orElse(segment.endOffset() + 1);
        long firstBaseOffset = firstBatch.buffer().getLong(Records.OFFSET_OFFSET);
        return Optional.of(new FetchDataInfo(
                fetchOffsetMetadata,
                data.records(),
                false,
                Optional.of(abortedTransactions.collect(firstBaseOffset, upperBoundOffset, segment, log))));
    }

    private static ByteBuffer concatenated(List<LogBatch> batches) {
        ByteBuffer records = ByteBuffer.allocate(
                batches.stream().mapToInt(LogBatch::sizeInBytes).sum());
        batches.forEach(batch -> records.put(batch.buffer()));
        return records.flip();
    }

    // The segment after this one: the one holding its end offset + 1, under that offset's leader epoch.
    private Optional<RemoteLogSegmentMetadata> nextSegment(
            TopicIdPartition partition, RemoteLogSegmentMetadata segment, UnifiedLog log)
            throws RemoteStorageException {
        long nextOffset = segment.endOffset() + 1;
        OptionalInt epoch = log.leaderEpochCache().epochForOffset(nextOffset);
        return epoch.isPresent()
                ? rlmm.remoteLogSegmentMetadata(partition, epoch.getAsInt(), nextOffset)
                : Optional.empty();
    }
}
