package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.FetchDataInfo;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.ProducerAppendInfo;
import io.krabka.kernel.log.ProducerStateManagerConfig;
import io.krabka.kernel.log.TestTime;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.cleaner.CleanableOffsets.OffsetsToClean;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.EndTransactionMarker;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import io.krabka.kernel.scheduler.MockScheduler;
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
 * Compacted logs in a temporary directory with a test clock, the batches a producer or a transaction coordinator
 * appends, and a cleaner over them: the cleaner's unit tests run it on real segment files.
 */
final class CleanerLogs {

    final Path logDir;
    final TestTime time = new TestTime();
    final MockScheduler scheduler = new MockScheduler(time);

    CleanerLogs(Path logDir) {
        this.logDir = logDir;
    }

    /** A compacted topic's settings: Kafka's defaults, cleanup.policy=compact, these overrides (key, value...). */
    static LogConfig compacted(Object... keyValues) {
        Map<String, Object> overrides = new HashMap<>();
        overrides.put("cleanup.policy", "compact");
        for (int i = 0; i < keyValues.length; i += 2) {
            overrides.put((String) keyValues[i], keyValues[i + 1]);
        }
        return LogConfig.fromProps(Map.of(), overrides);
    }

    /**
     * Opens the log of partition {@code name} ("topic-0"), after a clean shutdown or not, with its high watermark at
     * its end, as every record it holds was acknowledged.
     */
    UnifiedLog open(String name, LogConfig config, boolean lastShutdownClean) throws IOException {
        UnifiedLog log = UnifiedLog.create(
                logDir.resolve(name),
                config,
                0,
                0,
                scheduler,
                time,
                15 * 60 * 1000,
                // The tests write transactions' batches themselves, with no coordinator to verify them.
                new ProducerStateManagerConfig(ProducerStateManagerConfig.DEFAULT_PRODUCER_ID_EXPIRATION_MS, false),
                10 * 60 * 1000,
                lastShutdownClean,
                Optional.empty());
        log.updateHighWatermark(log.logEndOffset());
        return log;
    }

    UnifiedLog open(String name, LogConfig config) throws IOException {
        return open(name, config, true);
    }

    /** A cleaner with an offset map of {@code mapMemory} bytes and 64 KiB buffers. */
    Cleaner cleaner(int mapMemory) {
        return new Cleaner(
                0,
                new SkimpyOffsetMap(mapMemory, CleanerConfig.HASH_ALGORITHM),
                64 * 1024,
                1024 * 1024,
                0.75,
                new Throttler(Double.MAX_VALUE, System::nanoTime, ms -> {}),
                time::millis,
                topicPartition -> {});
    }

    /** Cleans {@code log} from {@code firstDirtyOffset} as the cleaner manager would, now; returns the next one. */
    long clean(Cleaner cleaner, UnifiedLog log, long firstDirtyOffset) throws IOException {
        OffsetsToClean offsets = CleanableOffsets.cleanableOffsets(log, Optional.of(firstDirtyOffset), time.millis());
        LogToClean cleanable =
                LogToClean.of(log, offsets.firstDirtyOffset(), offsets.firstUncleanableDirtyOffset(), false);
        return cleaner.doClean(cleanable, time.millis()).nextDirtyOffset();
    }

    // Appends.

    /** Appends a client's batch and moves the high watermark to the log end, as an acknowledged produce. */
    static void append(UnifiedLog log, ByteBuffer batch) throws IOException {
        log.appendAsLeader(batch, 0, AppendOrigin.CLIENT, ProducerAppendInfo.TV_UNKNOWN);
        log.updateHighWatermark(log.logEndOffset());
    }

    /** Appends a coordinator's transaction marker and moves the high watermark. */
    void appendMarker(UnifiedLog log, long producerId, short epoch, ControlRecordType type) throws IOException {
        ByteBuffer marker = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0)
                .producer(producerId, epoch, -1)
                .appendEndTxnMarker(time.millis(), new EndTransactionMarker(type, 0))
                .build();
        log.appendAsLeader(marker, 0, AppendOrigin.COORDINATOR, (short) 0);
        log.updateHighWatermark(log.logEndOffset());
    }

    /** A plain batch of {@code codec}: keys and values alternating, a null value a tombstone. */
    ByteBuffer keyed(Compression codec, String... keysAndValues) {
        return producerBatch(codec, RecordBatch.NO_PRODUCER_ID, (short) -1, -1, false, keysAndValues);
    }

    /** An uncompressed plain batch. */
    ByteBuffer keyed(String... keysAndValues) {
        return keyed(Compression.NONE, keysAndValues);
    }

    /** A batch of a producer, idempotent or transactional. */
    ByteBuffer producerBatch(
            Compression codec,
            long producerId,
            short epoch,
            int sequence,
            boolean transactional,
            String... keysAndValues) {
        RecordBatchBuilder builder = new RecordBatchBuilder(codec, TimestampType.CREATE_TIME, 0)
                .producer(producerId, epoch, sequence)
                .transactional(transactional);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            builder.append(time.millis(), utf8(keysAndValues[i]), utf8(keysAndValues[i + 1]), List.of());
        }
        return builder.build();
    }

    private static ByteBuffer utf8(String text) {
        return text == null ? null : ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    // Reading back.

    /** One record as read back: its offset, key and value ("null" for a tombstone). */
    record Entry(long offset, String key, String value) {
        @Override
        public String toString() {
            return offset + ":" + key + "=" + value;
        }
    }

    /** Every batch of the log, from its start to its end, markers and empty batches included. */
    static List<RecordBatch> batches(UnifiedLog log) throws IOException {
        List<RecordBatch> batches = new ArrayList<>();
        for (LogSegment segment : log.logSegments()) {
            ByteBuffer bytes = ByteBuffer.allocate(segment.size());
            segment.log().readInto(bytes, 0);
            for (LogBatch batch : MemoryRecords.readableRecords(
                    bytes.flip(), segment.log().file().toString(), 0)) {
                batches.add((RecordBatch) batch);
            }
        }
        return batches;
    }

    /** Every data record of the log, markers left out, as a consumer reading up to {@code isolation} sees them. */
    static List<Entry> read(UnifiedLog log, FetchIsolation isolation) throws IOException {
        List<Entry> entries = new ArrayList<>();
        long offset = log.logStartOffset();
        while (true) {
            FetchDataInfo info = log.read(offset, 1 << 20, isolation, true);
            ByteBuffer bytes = ByteBuffer.allocate(info.records().sizeInBytes());
            info.records().readInto(bytes, 0);
            List<LogBatch> batches = new ArrayList<>();
            MemoryRecords.readableRecords(bytes.flip(), "read", 0).forEach(batches::add);
            if (batches.isEmpty()) {
                return entries;
            }
            for (LogBatch logBatch : batches) {
                RecordBatch batch = (RecordBatch) logBatch;
                if (!batch.isControlBatch()) {
                    for (Record record : batch.records(1 << 26)) {
                        entries.add(new Entry(record.offset(), text(record.key()), text(record.value())));
                    }
                }
                offset = batch.nextOffset();
            }
        }
    }

    /** Every data record up to the log end. */
    static List<Entry> read(UnifiedLog log) throws IOException {
        return read(log, FetchIsolation.LOG_END);
    }

    private static String text(ByteBuffer bytes) {
        return bytes == null
                ? "null"
                : StandardCharsets.UTF_8.decode(bytes.duplicate()).toString();
    }
}
