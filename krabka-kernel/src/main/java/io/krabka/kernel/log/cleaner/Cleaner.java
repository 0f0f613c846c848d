package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.FileRecords;
import io.krabka.kernel.log.LastRecord;
import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.ByteBufferOutputStream;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.RecordsFilter;
import io.krabka.kernel.record.RecordsFilter.FilterResult;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Cleans one log at a time, Kafka's {@code Cleaner}: builds the offset map of the dirty section, then copies each
 * group of segments from the log start up to the map's end into one {@code .cleaned} segment, keeping what
 * {@link CleanerFilter} keeps, and swaps it in for the group ({@link UnifiedLog#replaceSegments}). Offsets never
 * change; a batch losing records is rebuilt in its codec. What it does not reach (a full map) waits for the next
 * cleaning.
 *
 * <p>Each cleaner thread has its own, with its own offset map and buffers; not thread-safe.
 */
final class Cleaner {

    private static final System.Logger LOG = System.getLogger(LogCleaner.class.getName());

    private final int id;
    private final SkimpyOffsetMap offsetMap;
    private final CleanerBuffers buffers;
    private final Throttler throttler;
    private final LongSupplier clock;
    private final Consumer<TopicPartition> checkDone;
    private final OffsetMapBuilder offsetMapBuilder;
    private final RecordsFilter recordsFilter = new RecordsFilter();

    /**
     * @param offsetMap           the thread's offset map
     * @param ioBufferSize        the size of the read buffer and of the write buffer
     * @param maxIoBufferSize     {@code message.max.bytes}: the buffers' size bound for topics that allow less
     * @param dupBufferLoadFactor how full the offset map may get
     * @param clock               milliseconds: the cleaning's current time, against which delete horizons pass
     * @param checkDone           throws {@link LogCleaningAbortedException} when a partition's cleaning must stop
     * @throws IllegalArgumentException if the offset map cannot hold one key at the load factor
     */
    Cleaner(
            int id,
            SkimpyOffsetMap offsetMap,
            int ioBufferSize,
            int maxIoBufferSize,
            double dupBufferLoadFactor,
            Throttler throttler,
            LongSupplier clock,
            Consumer<TopicPartition> checkDone) {
        if (offsetMap.maxSlots() * dupBufferLoadFactor <= 1) {
            throw new IllegalArgumentException("offset map is too small to fit in even a single message, so log "
                    + "cleaning will never make progress. You can increase log.cleaner.dedupe.buffer.size or "
                    + "decrease log.cleaner.threads");
        }
        this.id = id;
        this.offsetMap = offsetMap;
        this.buffers = new CleanerBuffers(ioBufferSize, maxIoBufferSize);
        this.throttler = throttler;
        this.clock = clock;
        this.checkDone = checkDone;
        this.offsetMapBuilder = new OffsetMapBuilder(buffers, throttler, dupBufferLoadFactor, checkDone);
    }

    /** The thread's number. */
    int id() {
        return id;
    }

    /**
     * The result of a cleaning.
     *
     * @param nextDirtyOffset the first offset not cleaned: the new checkpoint
     * @param stats           what it read, wrote and took
     */
    record CleaningResult(long nextDirtyOffset, CleanerStats stats) {}

    /** Cleans {@code cleanable} at the current time. */
    CleaningResult clean(LogToClean cleanable) throws IOException {
        return doClean(cleanable, clock.getAsLong());
    }

    /** Cleans {@code cleanable} as at {@code currentTime}, Kafka's {@code doClean}. */
    CleaningResult doClean(LogToClean cleanable, long currentTime) throws IOException {
        UnifiedLog log = cleanable.log();
        LogConfig config = log.config();
        LOG.log(System.Logger.Level.INFO, "Beginning cleaning of log " + log.topicPartition());
        // Tombstones of v0/v1 batches carry no delete horizon: they go once their segment is older than this.
        List<LogSegment> clean = log.logSegments(0, cleanable.firstDirtyOffset());
        long legacyDeleteHorizonMs = clean.isEmpty() ? 0 : clean.getLast().lastModified() - config.deleteRetentionMs();
        CleanerStats stats = new CleanerStats(clock);
        offsetMapBuilder.buildOffsetMap(
                log, cleanable.firstDirtyOffset(), cleanable.firstUncleanableOffset(), offsetMap, stats);
        long endOffset = offsetMap.latestOffset() + 1;
        stats.indexDone();
        LOG.log(
                System.Logger.Level.INFO,
                "Cleaning log " + log.topicPartition() + " up to offset " + endOffset
                        + " (discarding legacy tombstones prior to " + legacyDeleteHorizonMs + ")...");
        CleanedTransactionMetadata transactionMetadata = new CleanedTransactionMetadata();
        List<List<LogSegment>> groups = SegmentGroups.groupSegmentsBySize(
                log.logSegments(0, endOffset),
                config.segmentSize(),
                config.segmentIndexBytes(),
                cleanable.firstUncleanableOffset());
        for (List<LogSegment> group : groups) {
            cleanSegments(log, group, currentTime, stats, transactionMetadata, legacyDeleteHorizonMs);
        }
        stats.bufferUtilization = offsetMap.utilization();
        stats.allDone();
        return new CleaningResult(endOffset, stats);
    }

    /**
     * Cleans a group of segments into one and swaps it in, Kafka's {@code cleanSegments}. The new segment keeps the
     * last old one's modification time, by which legacy tombstones age. If writing it fails or the cleaning stops,
     * it is deleted at once (Kafka leaves a failed one to the next load).
     */
    void cleanSegments(
            UnifiedLog log,
            List<LogSegment> segments,
            long currentTime,
            CleanerStats stats,
            CleanedTransactionMetadata transactionMetadata,
            long legacyDeleteHorizonMs)
            throws IOException {
        LogSegment cleaned = log.createNewCleanedSegment(segments.getFirst().baseOffset());
        try {
            transactionMetadata.setCleanedIndex(cleaned.txnIndex());
            Map<Long, LastRecord> lastRecordsOfActiveProducers = log.lastRecordsOfActiveProducers();
            for (int i = 0; i < segments.size(); i++) {
                LogSegment segment = segments.get(i);
                // The whole segment's aborted transactions: the new segment's transaction index is rebuilt.
                long upperBoundOffset =
                        i + 1 < segments.size() ? segments.get(i + 1).baseOffset() : segment.readNextOffset();
                transactionMetadata.addAbortedTransactions(
                        log.collectAbortedTransactions(segment.baseOffset(), upperBoundOffset));
                boolean retainLegacyDeletesAndTxnMarkers = segment.lastModified() > legacyDeleteHorizonMs;
                CleanerFilter filter = new CleanerFilter(
                        offsetMap,
                        retainLegacyDeletesAndTxnMarkers,
                        transactionMetadata,
                        lastRecordsOfActiveProducers,
                        log.highWatermark(),
                        currentTime,
                        log.config().maxDecompressedMessageBytes(),
                        stats);
                cleanInto(log.topicPartition(), segment.log(), cleaned, filter, log.config(), currentTime, stats);
            }
            cleaned.onBecomeInactiveSegment();
            cleaned.flush();
            cleaned.setLastModified(segments.getLast().lastModified());
        } catch (IOException | RuntimeException e) {
            try {
                cleaned.deleteIfExists();
            } catch (IOException | RuntimeException deleting) {
                e.addSuppressed(deleting);
            }
            throw e;
        }
        LOG.log(
                System.Logger.Level.INFO,
                "Swapping in cleaned segment " + cleaned + " for segment(s) " + segments + " in log " + log);
        // From here on the new segment's files are the log's: a failure leaves them to the next load.
        log.replaceSegments(List.of(cleaned), segments);
    }

    /** Copies what {@code filter} keeps of {@code source} to the end of {@code dest}, chunk by chunk. */
    private void cleanInto(
            TopicPartition topicPartition,
            FileRecords source,
            LogSegment dest,
            CleanerFilter filter,
            LogConfig config,
            long currentTime,
            CleanerStats stats)
            throws IOException {
        long newDeleteHorizonMs = currentTime + config.deleteRetentionMs();
        int position = 0;
        while (position < source.sizeInBytes()) {
            checkDone.accept(topicPartition);
            MemoryRecords records = buffers.read(source, position);
            throttler.maybeThrottle(records.sizeInBytes());
            ByteBufferOutputStream out = buffers.clearedWriteBuffer();
            FilterResult result = recordsFilter.filterTo(
                    records, filter, newDeleteHorizonMs, out, config.maxDecompressedMessageBytes());
            stats.readMessages(result.messagesRead(), result.bytesRead());
            stats.recopyMessages(result.messagesRetained(), result.bytesRetained());
            position += result.bytesRead();
            int written = out.position();
            if (written > 0) {
                // The new segment is the cleaner's alone until it is swapped in: no lock needed.
                dest.append(
                        result.maxOffset(),
                        MemoryRecords.readableRecords(out.buffer().flip(), "cleaned", 0));
                throttler.maybeThrottle(written);
            }
            if (records.sizeInBytes() > 0 && result.bytesRead() == 0) {
                buffers.growOrFail(source, position, config.maxMessageBytes(), records);
            }
        }
        buffers.restore();
    }
}
