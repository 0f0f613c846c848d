package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.record.LegacyRecordBatch;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.RecordCursor;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;

/**
 * Fills the offset map with the latest offset of each key in a log's dirty section, Kafka's
 * {@code Cleaner.buildOffsetMap}: segment by segment from the first dirty offset, skipping aborted transactions and
 * markers, until the map holds as many keys as its load factor allows; the map's latest offset then tells how far
 * this cleaning goes, and the rest waits for the next one. Nothing is allocated per record of a magic 2 batch.
 */
final class OffsetMapBuilder {

    private static final System.Logger LOG = System.getLogger(LogCleaner.class.getName());

    private final CleanerBuffers buffers;
    private final Throttler throttler;
    private final double dupBufferLoadFactor;
    private final Consumer<TopicPartition> checkDone;

    /**
     * @param checkDone throws {@link LogCleaningAbortedException} when the cleaning of a partition must stop
     */
    OffsetMapBuilder(
            CleanerBuffers buffers,
            Throttler throttler,
            double dupBufferLoadFactor,
            Consumer<TopicPartition> checkDone) {
        this.buffers = buffers;
        this.throttler = throttler;
        this.dupBufferLoadFactor = dupBufferLoadFactor;
        this.checkDone = checkDone;
    }

    /** Clears {@code map} and fills it from the keys in [{@code start}, {@code end}) of {@code log}. */
    void buildOffsetMap(UnifiedLog log, long start, long end, SkimpyOffsetMap map, CleanerStats stats)
            throws IOException {
        // No more keys than offsets: slots for them all at the load factor never fill before the end.
        map.clear(start, end - start, (long) Math.ceil((end - start) / dupBufferLoadFactor) + 1);
        List<LogSegment> dirty = log.logSegments(start, end);
        LOG.log(
                System.Logger.Level.INFO,
                "Building offset map for log " + log.topicPartition() + " for " + dirty.size()
                        + " segments in offset range [" + start + ", " + end + ").");
        CleanedTransactionMetadata transactionMetadata = new CleanedTransactionMetadata();
        transactionMetadata.addAbortedTransactions(log.collectAbortedTransactions(start, end));
        int maxMessageSize = log.config().maxMessageBytes();
        long maxDecompressedBytes = log.config().maxDecompressedMessageBytes();
        for (int i = 0; i < dirty.size(); i++) {
            LogSegment segment = dirty.get(i);
            checkDone.accept(log.topicPartition());
            long nextSegmentStartOffset =
                    i + 1 < dirty.size() ? dirty.get(i + 1).baseOffset() : end;
            boolean full = buildOffsetMapForSegment(
                    log.topicPartition(),
                    segment,
                    map,
                    start,
                    nextSegmentStartOffset,
                    maxMessageSize,
                    maxDecompressedBytes,
                    transactionMetadata,
                    stats);
            if (full) {
                LOG.log(
                        System.Logger.Level.DEBUG,
                        "Offset map is full, " + i + " segments fully mapped, segment with base offset "
                                + segment.baseOffset() + " is partially mapped");
                break;
            }
        }
        LOG.log(System.Logger.Level.INFO, "Offset map for log " + log.topicPartition() + " complete.");
    }

    // Whether the map filled up in this segment.
    private boolean buildOffsetMapForSegment(
            TopicPartition topicPartition,
            LogSegment segment,
            SkimpyOffsetMap map,
            long startOffset,
            long nextSegmentStartOffset,
            int maxLogMessageSize,
            long maxDecompressedBytes,
            CleanedTransactionMetadata transactionMetadata,
            CleanerStats stats)
            throws IOException {
        int position = segment.offsetIndex().lookup(startOffset).position();
        int maxDesiredMapSize = (int) (map.slots() * dupBufferLoadFactor);
        while (position < segment.log().sizeInBytes()) {
            checkDone.accept(topicPartition);
            MemoryRecords records = buffers.read(segment.log(), position);
            throttler.maybeThrottle(records.sizeInBytes());
            int startPosition = position;
            int bytesRead = 0;
            for (LogBatch logBatch : records) {
                bytesRead += logBatch.sizeInBytes();
                boolean full = switch (logBatch) {
                    case RecordBatch batch ->
                        mapBatch(
                                batch,
                                map,
                                startOffset,
                                maxDesiredMapSize,
                                maxDecompressedBytes,
                                transactionMetadata,
                                stats);
                    case LegacyRecordBatch legacy ->
                        mapLegacyBatch(legacy, map, startOffset, maxDesiredMapSize, maxDecompressedBytes, stats);
                };
                if (full) {
                    return true;
                }
                if (logBatch.lastOffset() >= startOffset) {
                    map.updateLatestOffset(logBatch.lastOffset());
                }
            }
            position += bytesRead;
            stats.indexBytesRead(bytesRead);
            if (position == startPosition) {
                buffers.growOrFail(segment.log(), position, maxLogMessageSize, records);
            }
        }
        // Offsets may have gaps: the map stands for the whole segment.
        map.updateLatestOffset(nextSegmentStartOffset - 1);
        buffers.restore();
        return false;
    }

    private static boolean mapBatch(
            RecordBatch batch,
            SkimpyOffsetMap map,
            long startOffset,
            int maxDesiredMapSize,
            long maxDecompressedBytes,
            CleanedTransactionMetadata transactionMetadata,
            CleanerStats stats) {
        if (batch.isControlBatch()) {
            transactionMetadata.onControlBatchRead(batch, maxDecompressedBytes);
            stats.indexMessagesRead(1);
            return false;
        }
        if (transactionMetadata.onBatchRead(batch)) {
            // An aborted transaction's keys do not count.
            stats.indexMessagesRead(batch.recordsCount());
            return false;
        }
        // Kafka puts each key while the map holds fewer than maxDesiredMapSize; queued puts are applied alike.
        try (RecordCursor cursor = batch.cursor(maxDecompressedBytes)) {
            while (cursor.next()) {
                if (cursor.hasKey()
                        && cursor.offset() >= startOffset
                        && map.queue(cursor.buffer(), cursor.keyPosition(), cursor.keySize(), cursor.offset())
                        && map.putQueued(maxDesiredMapSize)) {
                    return true;
                }
                stats.indexMessagesRead(1);
            }
        }
        return map.putQueued(maxDesiredMapSize);
    }

    private static boolean mapLegacyBatch(
            LegacyRecordBatch batch,
            SkimpyOffsetMap map,
            long startOffset,
            int maxDesiredMapSize,
            long maxDecompressedBytes,
            CleanerStats stats) {
        for (Record record : batch.records(maxDecompressedBytes)) {
            if (record.hasKey() && record.offset() >= startOffset) {
                if (map.size() >= maxDesiredMapSize) {
                    return true;
                }
                ByteBuffer key = record.key();
                map.put(key, key.position(), key.remaining(), record.offset());
            }
            stats.indexMessagesRead(1);
        }
        return false;
    }
}
