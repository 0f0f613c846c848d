package io.krabka.kernel.group;

import io.krabka.kernel.coordinator.CoordinatorLogReader;
import io.krabka.kernel.coordinator.CoordinatorLogReader.LoadedBatch;
import io.krabka.kernel.coordinator.CoordinatorRecordException;
import io.krabka.kernel.log.TransactionResult;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Reads a partition of {@code __consumer_offsets} from its start to its end and hands what it holds over in chunks
 * (Kafka's {@code CoordinatorLoaderImpl}, {@code offsets.load.buffer.size} bytes at a time): each record with its
 * offset and, for a transactional offset commit, its producer; each end-transaction marker.
 */
final class CoordinatorLoader {

    /** Kafka's {@code offsets.load.buffer.size} default. */
    static final int LOAD_BUFFER_SIZE = 5 * 1024 * 1024;

    private CoordinatorLoader() {}

    /** What a partition holds, in log order. */
    sealed interface Loaded {}

    /**
     * A record.
     *
     * @param offset     its offset in the log
     * @param producerId the producer of a transactional offset commit, else {@link RecordBatch#NO_PRODUCER_ID}
     */
    record LoadedRecord(long offset, long producerId, CoordinatorRecord record) implements Loaded {
        /** Checks the record. */
        LoadedRecord {
            Objects.requireNonNull(record, "record");
        }
    }

    /** The end of a producer's transaction. */
    record LoadedMarker(long producerId, TransactionResult result) implements Loaded {}

    /**
     * Loads {@code log}.
     *
     * @param chunk takes what each read holds, in log order
     * @return the number of records read
     * @throws CoordinatorRecordException if a record does not decode
     */
    static long load(UnifiedLog log, Consumer<List<Loaded>> chunk) throws IOException {
        long[] count = {0};
        CoordinatorLogReader.read(log, LOAD_BUFFER_SIZE, batches -> {
            List<Loaded> loaded = new ArrayList<>();
            for (LoadedBatch batch : batches) {
                if (batch.isControl()) {
                    // A marker the cleaner emptied ends nothing any more.
                    batch.marker()
                            .ifPresent(marker -> loaded.add(new LoadedMarker(
                                    batch.producerId(),
                                    marker.type() == ControlRecordType.COMMIT
                                            ? TransactionResult.COMMIT
                                            : TransactionResult.ABORT)));
                    continue;
                }
                long producerId = batch.isTransactional() ? batch.producerId() : RecordBatch.NO_PRODUCER_ID;
                for (Record record : batch.records()) {
                    CoordinatorRecordSerde.deserialize(record.key(), record.value())
                            .ifPresent(decoded -> loaded.add(new LoadedRecord(record.offset(), producerId, decoded)));
                }
            }
            count[0] += loaded.stream().filter(LoadedRecord.class::isInstance).count();
            chunk.accept(loaded);
        });
        return count[0];
    }
}
