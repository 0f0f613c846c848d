package io.krabka.kernel.group;

import io.krabka.kernel.log.FetchDataInfo;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads a partition of {@code __consumer_offsets} from its start to its end and hands its records over in chunks
 * (Kafka's {@code CoordinatorLoaderImpl}, {@code offsets.load.buffer.size} bytes at a time). Control batches carry
 * no records of the coordinator; transactional offset commits are skipped (Krabka has no transaction coordinator
 * yet, so none are written).
 */
final class CoordinatorLoader {

    private static final System.Logger LOG = System.getLogger(CoordinatorLoader.class.getName());

    /** Kafka's {@code offsets.load.buffer.size} default. */
    static final int LOAD_BUFFER_SIZE = 5 * 1024 * 1024;
    // A compressed batch of the coordinator's may not inflate beyond this: ten segments' worth is corrupt.
    private static final long MAX_DECOMPRESSED_BYTES = 1L << 30;

    private CoordinatorLoader() {}

    /**
     * Loads {@code log}.
     *
     * @param chunk takes the records of each read, in log order
     * @return the number of records read
     * @throws CoordinatorRecordException if a record does not decode
     */
    static long load(UnifiedLog log, Consumer<List<CoordinatorRecord>> chunk) throws IOException {
        long offset = log.logStartOffset();
        long end = log.logEndOffset();
        long count = 0;
        while (offset < end) {
            FetchDataInfo read = log.read(offset, LOAD_BUFFER_SIZE, FetchIsolation.LOG_END, true);
            int size = read.records().sizeInBytes();
            if (size == 0) {
                break;
            }
            ByteBuffer buffer = ByteBuffer.allocate(size);
            read.records().readInto(buffer, 0);
            buffer.flip();
            List<CoordinatorRecord> records = new ArrayList<>();
            long next = offset;
            for (LogBatch logBatch :
                    MemoryRecords.readableRecords(buffer, log.topicPartition().toString(), 0)) {
                next = logBatch.nextOffset();
                if (logBatch instanceof RecordBatch batch && (batch.isControlBatch() || batch.isTransactional())) {
                    if (!batch.isControlBatch()) {
                        LOG.log(
                                System.Logger.Level.WARNING,
                                "Skipping a transactional batch at " + batch.baseOffset() + " of "
                                        + log.topicPartition());
                    }
                    continue;
                }
                for (Record record : logBatch.records(MAX_DECOMPRESSED_BYTES)) {
                    CoordinatorRecordSerde.deserialize(record.key(), record.value())
                            .ifPresent(records::add);
                }
            }
            if (next <= offset) {
                throw new CoordinatorRecordException("no progress reading " + log.topicPartition() + " at " + offset);
            }
            count += records.size();
            chunk.accept(records);
            offset = next;
        }
        return count;
    }
}
