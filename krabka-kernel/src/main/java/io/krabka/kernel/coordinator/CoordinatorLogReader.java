package io.krabka.kernel.coordinator;

import io.krabka.kernel.log.FetchDataInfo;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.record.EndTransactionMarker;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads a coordinator's partition ({@code __consumer_offsets}, {@code __transaction_state}) from its log start to its
 * end and hands its batches over in chunks of about {@code bufferSize} bytes, as Kafka's {@code CoordinatorLoaderImpl}
 * reads {@code offsets.load.buffer.size} (or {@code transaction.state.log.load.buffer.size}) bytes at a time.
 */
public final class CoordinatorLogReader {

    // A compressed batch of a coordinator's may not inflate beyond this: ten segments' worth is corrupt.
    private static final long MAX_DECOMPRESSED_BYTES = 1L << 30;

    private CoordinatorLogReader() {}

    /**
     * One batch of the log: a transaction marker (a control batch) or records, transactional or not.
     *
     * @param marker  the marker of a control batch; empty for a batch of records (and for a control batch the
     *                cleaner emptied)
     * @param records the records of a batch that is not a control batch
     */
    public record LoadedBatch(
            long baseOffset,
            long producerId,
            short producerEpoch,
            boolean isTransactional,
            boolean isControl,
            Optional<EndTransactionMarker> marker,
            List<Record> records) {

        /** Checks and copies. */
        public LoadedBatch {
            Objects.requireNonNull(marker, "marker");
            records = List.copyOf(records);
        }
    }

    /** Takes the batches of one read. */
    @FunctionalInterface
    public interface ChunkConsumer {
        /** Takes a chunk, in log order; may throw to stop the read. */
        void accept(List<LoadedBatch> chunk);
    }

    /**
     * Reads {@code log} from its log start offset to the log end offset it has when the read starts.
     *
     * @return the number of batches read
     * @throws CoordinatorRecordException if the log stops making progress
     */
    public static long read(UnifiedLog log, int bufferSize, ChunkConsumer chunks) throws IOException {
        long offset = log.logStartOffset();
        long end = log.logEndOffset();
        long count = 0;
        while (offset < end) {
            FetchDataInfo read = log.read(offset, bufferSize, FetchIsolation.LOG_END, true);
            int size = read.records().sizeInBytes();
            if (size == 0) {
                break;
            }
            ByteBuffer buffer = ByteBuffer.allocate(size);
            read.records().readInto(buffer, 0);
            buffer.flip();
            List<LoadedBatch> batches = new ArrayList<>();
            long next = offset;
            for (LogBatch logBatch :
                    MemoryRecords.readableRecords(buffer, log.topicPartition().toString(), 0)) {
                next = logBatch.nextOffset();
                batches.add(loaded(logBatch));
            }
            if (next <= offset) {
                throw new CoordinatorRecordException("no progress reading " + log.topicPartition() + " at " + offset);
            }
            count += batches.size();
            chunks.accept(batches);
            offset = next;
        }
        return count;
    }

    private static LoadedBatch loaded(LogBatch logBatch) {
        if (logBatch instanceof RecordBatch batch) {
            if (batch.isControlBatch()) {
                List<Record> records = batch.records(MAX_DECOMPRESSED_BYTES);
                Optional<EndTransactionMarker> marker = records.isEmpty()
                        ? Optional.empty()
                        : Optional.of(EndTransactionMarker.deserialize(records.getFirst()));
                return new LoadedBatch(
                        batch.baseOffset(),
                        batch.producerId(),
                        batch.producerEpoch(),
                        batch.isTransactional(),
                        true,
                        marker,
                        List.of());
            }
            return new LoadedBatch(
                    batch.baseOffset(),
                    batch.producerId(),
                    batch.producerEpoch(),
                    batch.isTransactional(),
                    false,
                    Optional.empty(),
                    batch.records(MAX_DECOMPRESSED_BYTES));
        }
        // A batch of magic 0 or 1 (written by an old Kafka) has no base offset in its header: its last offset
        // stands for it.
        return new LoadedBatch(
                logBatch.lastOffset(),
                RecordBatch.NO_PRODUCER_ID,
                RecordBatch.NO_PRODUCER_EPOCH,
                false,
                false,
                Optional.empty(),
                logBatch.records(MAX_DECOMPRESSED_BYTES));
    }
}
