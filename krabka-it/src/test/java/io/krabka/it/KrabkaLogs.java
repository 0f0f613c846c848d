package io.krabka.it;

import io.krabka.it.LogEntry.Data;
import io.krabka.it.LogEntry.HeaderEntry;
import io.krabka.it.LogEntry.Marker;
import io.krabka.kernel.log.FetchDataInfo;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.Header;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.scheduler.KafkaScheduler;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.record.internal.ControlRecordType;

/** Krabka's log engine on a log directory, as the log-engine ITs drive it: a {@link LogManager} and its readers. */
final class KrabkaLogs implements AutoCloseable {

    /** A read that holds every batch a partition of the fixture can have. */
    private static final int MAX_READ = 8 << 20;

    private final KafkaScheduler scheduler = new KafkaScheduler(2, "krabka-it-log-");
    final LogManager manager;

    /**
     * Opens and starts the logs of {@code logDir} (formatted for node 1) with the topics' configs; internal topics
     * get Kafka's compacted defaults. Transactional batches are appended without a coordinator, as the log holds
     * them, so the partition leader's transaction verification is off.
     */
    KrabkaLogs(Path logDir, List<TopicSpec> topics) throws IOException {
        Map<String, LogConfig> configs = new HashMap<>();
        topics.forEach(topic -> configs.put(topic.name(), LogConfig.fromProps(Map.of(), topic.configs())));
        LogConfig internal = LogConfig.fromProps(Map.of(), Map.of("cleanup.policy", "compact"));
        manager = new LogManager(
                LogManagerConfig.fromProps(Map.of(
                        "log.dirs",
                        logDir.toString(),
                        "node.id",
                        "1",
                        "transaction.partition.verification.enable",
                        "false")),
                topic -> configs.getOrDefault(topic, internal),
                scheduler,
                InstantSource.system());
        manager.startup();
    }

    /** Every entry of a log from its start, as {@link LogEntry}s, each batch's CRC checked. */
    static List<LogEntry> entries(UnifiedLog log) throws IOException {
        List<LogEntry> entries = new ArrayList<>();
        for (LogBatch batch : batches(log)) {
            batch.ensureValid();
            RecordBatch v2 = (RecordBatch) batch;
            for (Record record : batch.records(MAX_READ)) {
                entries.add(
                        v2.isControlBatch()
                                ? new Marker(ControlRecordType.valueOf(
                                        io.krabka.kernel.record.ControlRecordType.parse(record.key())
                                                .name()))
                                : new Data(
                                        record.timestamp(),
                                        bytes(record.key()),
                                        bytes(record.value()),
                                        record.headers().stream()
                                                .map(KrabkaLogs::header)
                                                .toList(),
                                        v2.isTransactional()));
            }
        }
        return entries;
    }

    /** Every batch of a log from its start to its end, read as a fetch would. */
    static List<LogBatch> batches(UnifiedLog log) throws IOException {
        List<LogBatch> batches = new ArrayList<>();
        long offset = log.logStartOffset();
        while (offset < log.logEndOffset()) {
            FetchDataInfo info = log.read(offset, MAX_READ, FetchIsolation.LOG_END, true);
            ByteBuffer bytes = ByteBuffer.allocate(info.records().sizeInBytes());
            info.records().readInto(bytes, 0);
            MemoryRecords records = MemoryRecords.readableRecords(bytes.flip(), "read of " + log.topicPartition(), 0);
            for (LogBatch batch : records) {
                batches.add(batch);
                offset = batch.nextOffset();
            }
        }
        return batches;
    }

    private static HeaderEntry header(Header header) {
        return new HeaderEntry(header.key(), bytes(header.value()));
    }

    private static byte[] bytes(ByteBuffer buffer) {
        if (buffer == null) {
            return null;
        }
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    /**
     * Removes the {@code .deleted} files a recovery left for its delayed deletion from every partition directory of
     * {@code logDir}: they are no longer part of any log, and the next open removes them too.
     */
    static void removeDeletedFiles(Path logDir) throws IOException {
        try (Stream<Path> files = Files.walk(logDir, 2)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".deleted"))
                    .toList()) {
                Files.delete(file);
            }
        }
    }

    /** Shuts the logs down cleanly, then the scheduler. */
    @Override
    public void close() throws IOException {
        try {
            manager.close();
        } finally {
            try {
                scheduler.shutdown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while the scheduler shut down", e);
            }
        }
    }
}
