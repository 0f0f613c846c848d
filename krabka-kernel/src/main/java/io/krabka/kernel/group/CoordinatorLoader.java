package io.krabka.kernel.group;

import io.krabka.kernel.coordinator.CoordinatorLogReader;
import io.krabka.kernel.coordinator.CoordinatorLogReader.LoadedBatch;
import io.krabka.kernel.coordinator.CoordinatorRecordException;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.record.Record;
import java.io.IOException;
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

    private CoordinatorLoader() {}

    /**
     * Loads {@code log}.
     *
     * @param chunk takes the records of each read, in log order
     * @return the number of records read
     * @throws CoordinatorRecordException if a record does not decode
     */
    static long load(UnifiedLog log, Consumer<List<CoordinatorRecord>> chunk) throws IOException {
        long[] count = {0};
        CoordinatorLogReader.read(log, LOAD_BUFFER_SIZE, batches -> {
            List<CoordinatorRecord> records = new ArrayList<>();
            for (LoadedBatch batch : batches) {
                if (batch.isControl() || batch.isTransactional()) {
                    if (!batch.isControl()) {
                        LOG.log(
                                System.Logger.Level.WARNING,
                                "Skipping a transactional batch at " + batch.baseOffset() + " of "
                                        + log.topicPartition());
                    }
                    continue;
                }
                for (Record record : batch.records()) {
                    CoordinatorRecordSerde.deserialize(record.key(), record.value())
                            .ifPresent(records::add);
                }
            }
            count[0] += records.size();
            chunk.accept(records);
        });
        return count[0];
    }
}
