package io.krabka.kernel.log;

import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.EndTransactionMarker;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import io.krabka.kernel.scheduler.MockScheduler;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A partition log in a temporary directory with a test clock and scheduler, and the batches Kafka's UnifiedLogTest
 * appends: plain, idempotent, transactional, markers.
 */
final class LogFixture {

    static final int MAX_TRANSACTION_TIMEOUT_MS = 15 * 60 * 1000;
    static final int PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS = 10 * 60 * 1000;

    final Path logDir;
    final Path dir;
    final TestTime time = new TestTime();
    final MockScheduler scheduler = new MockScheduler(time);
    // Kafka's log tests append transactional batches without a coordinator to verify them: verification is off.
    final ProducerStateManagerConfig producerStateManagerConfig =
            new ProducerStateManagerConfig(ProducerStateManagerConfig.DEFAULT_PRODUCER_ID_EXPIRATION_MS, false);

    /** A log of partition {@code test-0} in {@code logDir}. */
    LogFixture(Path logDir) {
        this.logDir = logDir;
        this.dir = logDir.resolve("test-0");
    }

    /** A topic's settings: Kafka's defaults with these overrides, keys and values alternating. */
    static LogConfig config(Object... keyValues) {
        Map<String, Object> overrides = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            overrides.put((String) keyValues[i], keyValues[i + 1]);
        }
        return LogConfig.fromProps(Map.of(), overrides);
    }

    /** Opens the log as after a clean shutdown, with no checkpointed offsets. */
    UnifiedLog create(LogConfig config) throws IOException {
        return create(config, 0, 0, true, Optional.empty());
    }

    UnifiedLog create(
            LogConfig config,
            long logStartOffset,
            long recoveryPoint,
            boolean lastShutdownClean,
            Optional<Uuid> topicId)
            throws IOException {
        return UnifiedLog.create(
                dir,
                config,
                logStartOffset,
                recoveryPoint,
                scheduler,
                time,
                MAX_TRANSACTION_TIMEOUT_MS,
                producerStateManagerConfig,
                PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS,
                lastShutdownClean,
                topicId);
    }

    /** Opens the log in {@code dir} after a clean shutdown, on a broker with or without tiered storage. */
    UnifiedLog create(Path dir, LogConfig config, long logStartOffset, boolean remoteStorageSystemEnable)
            throws IOException {
        return UnifiedLog.create(
                dir,
                config,
                logStartOffset,
                0,
                scheduler,
                time,
                MAX_TRANSACTION_TIMEOUT_MS,
                producerStateManagerConfig,
                PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS,
                true,
                Optional.empty(),
                remoteStorageSystemEnable,
                new LogDirFailureChannel());
    }

    // Batches as producers send them: base offset 0.

    /** A plain batch of one record per value, stamped now. */
    MemoryRecords records(String... values) {
        return records(time.millis(), values);
    }

    /** A plain batch of one record per value, all stamped {@code timestamp}. */
    static MemoryRecords records(long timestamp, String... values) {
        RecordBatchBuilder builder = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0);
        for (String value : values) {
            builder.append(timestamp, null, value.getBytes(StandardCharsets.UTF_8));
        }
        return wrap(builder.build());
    }

    /** A batch of {@code compression} with one record per value, stamped now. */
    MemoryRecords records(Compression compression, String... values) {
        RecordBatchBuilder builder = new RecordBatchBuilder(compression, TimestampType.CREATE_TIME, 0);
        for (String value : values) {
            builder.append(
                    time.millis(), value.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
        }
        return wrap(builder.build());
    }

    /** An idempotent (or, with {@code transactional}, transactional) batch of a producer, stamped now. */
    MemoryRecords producerRecords(long producerId, short epoch, int sequence, boolean transactional, String... values) {
        RecordBatchBuilder builder = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0)
                .producer(producerId, epoch, sequence)
                .transactional(transactional);
        for (String value : values) {
            builder.append(time.millis(), null, value.getBytes(StandardCharsets.UTF_8));
        }
        return wrap(builder.build());
    }

    /** A transaction marker as the coordinator writes it. */
    MemoryRecords marker(long producerId, short epoch, ControlRecordType type, int coordinatorEpoch) {
        return wrap(new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0)
                .producer(producerId, epoch, -1)
                .appendEndTxnMarker(time.millis(), new EndTransactionMarker(type, coordinatorEpoch))
                .build());
    }

    /** Appends a marker as the coordinator does (transaction version 0). */
    static LogAppendInfo appendMarker(UnifiedLog log, MemoryRecords marker, int leaderEpoch) throws IOException {
        return log.appendAsLeader(marker.buffer(), leaderEpoch, AppendOrigin.COORDINATOR, (short) 0);
    }

    static MemoryRecords wrap(ByteBuffer buffer) {
        return MemoryRecords.readableRecords(buffer, "test", 0);
    }

    // Reading back.

    /** The batches of a read, copied out of the log. */
    static List<LogBatch> batches(FetchDataInfo info) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(info.records().sizeInBytes());
        info.records().readInto(bytes, 0);
        List<LogBatch> batches = new ArrayList<>();
        MemoryRecords.readableRecords(bytes.flip(), "read", 0).forEach(batches::add);
        return batches;
    }

    /** Every record from the log start offset up to the limit {@code isolation} sets, markers included. */
    static List<Record> readAll(UnifiedLog log, FetchIsolation isolation) throws IOException {
        List<Record> records = new ArrayList<>();
        long offset = log.logStartOffset();
        while (true) {
            FetchDataInfo info = log.read(offset, 1 << 20, isolation, true);
            List<LogBatch> batches = batches(info);
            if (batches.isEmpty()) {
                return records;
            }
            for (LogBatch batch : batches) {
                for (Record record : batch.records(1 << 26)) {
                    if (record.offset() >= offset) {
                        records.add(record);
                    }
                }
                offset = batch.nextOffset();
            }
        }
    }

    /** The values of records, as text (markers as their type). */
    static List<String> values(List<Record> records) {
        return records.stream()
                .map(r -> r.value() == null
                        ? "null"
                        : StandardCharsets.UTF_8.decode(r.value().duplicate()).toString())
                .toList();
    }

    /** Every record's value, from the log start offset to the log end. */
    static List<String> values(UnifiedLog log) throws IOException {
        return values(readAll(log, FetchIsolation.LOG_END));
    }

    /** The number of batches in a segment. */
    static int batchCount(LogSegment segment) {
        int count = 0;
        for (FileChannelBatch ignored : segment.log().batches()) {
            count++;
        }
        return count;
    }
}
