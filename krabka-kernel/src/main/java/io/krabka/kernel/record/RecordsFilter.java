package io.krabka.kernel.record;

import io.krabka.kernel.record.RecordFilter.BatchRetention;
import io.krabka.kernel.record.RecordFilter.BatchRetentionResult;
import java.util.List;

/**
 * Copies the batches a {@link RecordFilter} keeps, as Kafka's {@code MemoryRecords.filterTo}: a batch keeping every
 * record is copied as it is, unless it holds a tombstone or an empty transaction's marker and has no delete horizon
 * yet, which it then gets; a batch losing records is rebuilt ({@link RetainedBatchBuilder}); a batch left without
 * records goes, or stays as a bare header when the filter says {@link BatchRetention#RETAIN_EMPTY}.
 *
 * <p>A v0 or v1 batch (Kafka wrote none since 3.0) is copied whole when any of its records stays and dropped
 * otherwise: Kafka 4.4 rebuilds a compressed one without the records that go; Krabka has no writer of the old
 * formats, and keeping an older record beside a newer one of the same key loses nothing.
 *
 * <p>Made once and reused: nothing is allocated per record. Not thread-safe.
 */
public final class RecordsFilter {

    private final RetainedBatchBuilder builder = new RetainedBatchBuilder();

    /**
     * What a filtering pass read and kept: Kafka's {@code FilterResult}.
     *
     * @param messagesRead     the records read
     * @param bytesRead        the bytes of the whole batches read (a batch cut off at the end is not read)
     * @param messagesRetained the records kept
     * @param bytesRetained    the bytes written
     * @param maxOffset        the largest offset written, or -1
     */
    public record FilterResult(
            int messagesRead, int bytesRead, int messagesRetained, int bytesRetained, long maxOffset) {}

    /**
     * Appends the batches of {@code records} that {@code filter} keeps to {@code out}.
     *
     * @param newDeleteHorizonMs   the delete horizon a batch of tombstones or markers gets when it has none
     * @param maxDecompressedBytes the bound on the bytes a compressed batch may decompress to
     */
    public FilterResult filterTo(
            MemoryRecords records,
            RecordFilter filter,
            long newDeleteHorizonMs,
            ByteBufferOutputStream out,
            long maxDecompressedBytes) {
        Counts counts = new Counts();
        for (LogBatch logBatch : records) {
            counts.bytesRead += logBatch.sizeInBytes();
            switch (logBatch) {
                case RecordBatch batch ->
                    filterBatch(batch, filter, newDeleteHorizonMs, out, maxDecompressedBytes, counts);
                case LegacyRecordBatch legacy -> filterLegacyBatch(legacy, filter, out, maxDecompressedBytes, counts);
            }
        }
        return new FilterResult(
                counts.messagesRead, counts.bytesRead, counts.messagesRetained, counts.bytesRetained, counts.maxOffset);
    }

    private void filterBatch(
            RecordBatch batch,
            RecordFilter filter,
            long newDeleteHorizonMs,
            ByteBufferOutputStream out,
            long maxDecompressedBytes,
            Counts counts) {
        BatchRetentionResult retention = filter.checkBatchRetention(batch);
        if (retention.batchRetention() == BatchRetention.DELETE) {
            return;
        }
        builder.start(batch);
        boolean writeOriginalBatch = true;
        boolean containsTombstones = false;
        long maxOffset = -1;
        try (RecordCursor cursor = batch.cursor(maxDecompressedBytes)) {
            while (cursor.next()) {
                counts.messagesRead++;
                if (filter.shouldRetainRecord(batch, cursor)) {
                    builder.retain(cursor);
                    maxOffset = cursor.offset();
                    containsTombstones |= cursor.valueSize() < 0;
                } else {
                    writeOriginalBatch = false;
                }
            }
        }
        int kept = builder.count();
        if (kept > 0) {
            boolean needToSetDeleteHorizon =
                    (containsTombstones || retention.containsMarkerForEmptyTxn()) && !batch.hasDeleteHorizonMs();
            if (writeOriginalBatch && !needToSetDeleteHorizon) {
                out.write(batch.buffer());
                counts.retained(kept, batch.sizeInBytes(), batch.lastOffset());
            } else {
                long deleteHorizonMs = needToSetDeleteHorizon
                        ? newDeleteHorizonMs
                        : batch.deleteHorizonMs().orElse(RecordBatch.NO_TIMESTAMP);
                int size = builder.writeTo(out, deleteHorizonMs);
                counts.retained(kept, size, maxOffset);
            }
        } else if (retention.batchRetention() == BatchRetention.RETAIN_EMPTY) {
            int size = builder.writeEmptyHeader(out, batch);
            counts.retained(0, size, batch.lastOffset());
        }
    }

    private static void filterLegacyBatch(
            LegacyRecordBatch batch,
            RecordFilter filter,
            ByteBufferOutputStream out,
            long maxDecompressedBytes,
            Counts counts) {
        List<Record> records = batch.records(maxDecompressedBytes);
        boolean anyKept = false;
        for (Record record : records) {
            counts.messagesRead++;
            anyKept |= filter.shouldRetainLegacyRecord(record);
        }
        if (anyKept) {
            out.write(batch.buffer());
            counts.retained(records.size(), batch.sizeInBytes(), batch.lastOffset());
        }
    }

    private static final class Counts {
        int messagesRead;
        int bytesRead;
        int messagesRetained;
        int bytesRetained;
        long maxOffset = -1;

        void retained(int messages, int bytes, long offset) {
            messagesRetained += messages;
            bytesRetained += bytes;
            maxOffset = Math.max(maxOffset, offset);
        }
    }
}
