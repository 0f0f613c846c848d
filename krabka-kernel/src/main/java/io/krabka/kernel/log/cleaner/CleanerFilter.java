package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.LastRecord;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.RecordCursor;
import io.krabka.kernel.record.RecordFilter;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * What a cleaning keeps of a segment, the filter of Kafka's {@code Cleaner.cleanInto}: a record stays if it is past
 * the offset map, or is its key's latest and either has a value or is a tombstone whose delete horizon has not
 * passed; a record without a key goes. Batches of aborted transactions go whole; a marker goes once its
 * transaction has no batch left and its delete horizon has passed. A producer's last batch stays even when empty,
 * so that its sequence and epoch survive, as does the batch just below the high watermark, so that the log's end
 * offset does.
 */
final class CleanerFilter implements RecordFilter {

    private static final BatchRetentionResult[] RESULTS = {
        new BatchRetentionResult(BatchRetention.DELETE, false),
        new BatchRetentionResult(BatchRetention.DELETE, true),
        new BatchRetentionResult(BatchRetention.RETAIN_EMPTY, false),
        new BatchRetentionResult(BatchRetention.RETAIN_EMPTY, true),
        new BatchRetentionResult(BatchRetention.DELETE_EMPTY, false),
        new BatchRetentionResult(BatchRetention.DELETE_EMPTY, true)
    };

    private final SkimpyOffsetMap map;
    private final boolean retainLegacyDeletesAndTxnMarkers;
    private final CleanedTransactionMetadata transactionMetadata;
    private final Map<Long, LastRecord> lastRecordsOfActiveProducers;
    private final long highWatermark;
    private final long currentTime;
    private final long maxDecompressedBytes;
    private final CleanerStats stats;
    private boolean discardBatchRecords;

    /**
     * @param retainLegacyDeletesAndTxnMarkers whether tombstones of v0/v1 batches stay: their segment was modified
     *                                         after the legacy delete horizon
     * @param currentTime                      the time the cleaning started, against which delete horizons pass
     */
    CleanerFilter(
            SkimpyOffsetMap map,
            boolean retainLegacyDeletesAndTxnMarkers,
            CleanedTransactionMetadata transactionMetadata,
            Map<Long, LastRecord> lastRecordsOfActiveProducers,
            long highWatermark,
            long currentTime,
            long maxDecompressedBytes,
            CleanerStats stats) {
        this.map = map;
        this.retainLegacyDeletesAndTxnMarkers = retainLegacyDeletesAndTxnMarkers;
        this.transactionMetadata = transactionMetadata;
        this.lastRecordsOfActiveProducers = lastRecordsOfActiveProducers;
        this.highWatermark = highWatermark;
        this.currentTime = currentTime;
        this.maxDecompressedBytes = maxDecompressedBytes;
        this.stats = stats;
    }

    @Override
    public BatchRetentionResult checkBatchRetention(RecordBatch batch) {
        // Markers ride on the tombstones' delete horizon; none goes before its transaction's records.
        boolean canDiscardBatch = batch.isControlBatch()
                ? transactionMetadata.onControlBatchRead(batch, maxDecompressedBytes)
                : transactionMetadata.onBatchRead(batch);
        if (batch.isControlBatch()) {
            discardBatchRecords = canDiscardBatch
                    && batch.hasDeleteHorizonMs()
                    && batch.deleteHorizonMs().getAsLong() <= currentTime;
        } else {
            discardBatchRecords = canDiscardBatch;
        }
        BatchRetention retention;
        if (batch.hasProducerId() && isLastBatchOfActiveProducer(batch)) {
            retention = BatchRetention.RETAIN_EMPTY;
        } else if (batch.nextOffset() == highWatermark) {
            retention = BatchRetention.RETAIN_EMPTY;
        } else if (discardBatchRecords) {
            retention = BatchRetention.DELETE;
        } else {
            retention = BatchRetention.DELETE_EMPTY;
        }
        boolean containsMarkerForEmptyTxn = canDiscardBatch && batch.isControlBatch();
        return RESULTS[2 * retention.ordinal() + (containsMarkerForEmptyTxn ? 1 : 0)];
    }

    // The batch holding the producer's last sequence, or its last marker (which holds its last epoch).
    private boolean isLastBatchOfActiveProducer(RecordBatch batch) {
        LastRecord last = lastRecordsOfActiveProducers.get(batch.producerId());
        if (last == null) {
            return false;
        }
        if (last.lastDataOffset().isPresent()) {
            return batch.lastOffset() == last.lastDataOffset().getAsLong();
        }
        return batch.isControlBatch() && batch.producerEpoch() == last.producerEpoch();
    }

    @Override
    public boolean shouldRetainRecord(RecordBatch batch, RecordCursor record) {
        if (discardBatchRecords) {
            // The batch stays only for the producer's sequence; its records go.
            return false;
        }
        if (batch.isControlBatch()) {
            return true;
        }
        if (record.offset() > map.latestOffset()) {
            return true;
        }
        if (!record.hasKey()) {
            stats.invalidMessage();
            return false;
        }
        // A record of the dirty section was put in the map: whether a later one replaced it is known already.
        boolean latestOffsetForKey = map.covers(record.offset())
                ? !map.isSuperseded(record.offset())
                : record.offset() >= map.get(record.buffer(), record.keyPosition(), record.keySize());
        boolean retainDeletes = !batch.hasDeleteHorizonMs()
                || currentTime < batch.deleteHorizonMs().getAsLong();
        return latestOffsetForKey && (record.valueSize() >= 0 || retainDeletes);
    }

    @Override
    public boolean shouldRetainLegacyRecord(Record record) {
        if (record.offset() > map.latestOffset()) {
            return true;
        }
        if (!record.hasKey()) {
            stats.invalidMessage();
            return false;
        }
        ByteBuffer key = record.key();
        boolean latestOffsetForKey = record.offset() >= map.get(key, key.position(), key.remaining());
        return latestOffsetForKey && (record.valueSize() >= 0 || retainLegacyDeletesAndTxnMarkers);
    }
}
