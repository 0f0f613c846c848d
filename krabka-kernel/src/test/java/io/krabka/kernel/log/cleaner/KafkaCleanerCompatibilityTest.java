package io.krabka.kernel.log.cleaner;

import static io.krabka.kernel.log.cleaner.CleanerLogs.append;
import static io.krabka.kernel.log.cleaner.CleanerLogs.compacted;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.ControlRecordType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.util.KafkaScheduler;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.apache.kafka.storage.internals.log.LogOffsetsListener;
import org.apache.kafka.storage.internals.log.ProducerStateManagerConfig;
import org.apache.kafka.storage.internals.utils.Throttler;
import org.apache.kafka.storage.log.metrics.BrokerTopicStats;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Krabka's cleaner against Kafka 4.4's own ({@code org.apache.kafka.storage.internals.log.Cleaner}), in process, on
 * two copies of the same log: plain batches with tombstones, an idempotent producer, a committed and an aborted
 * transaction with their markers, in several segments. Each cleans its copy at the same time, twice: once as the
 * records are, and again after {@code delete.retention.ms}, when the tombstones and the abort marker go. After each
 * cleaning, every segment file both keep (records, offset, time and transaction indexes) must be Kafka's, byte for
 * byte.
 */
class KafkaCleanerCompatibilityTest {

    private static final int MAP_MEMORY = 4 * 1024 * 1024;
    private static final int IO_BUFFER = 64 * 1024;
    private static final int MAX_MESSAGE_SIZE = 1024 * 1024 + 12;
    private static final LogConfig CONFIG = compacted("delete.retention.ms", 1000L, "index.interval.bytes", 200);

    @TempDir
    Path root;

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void krabkaCleansAsKafkaByteForByte(CompressionType type) throws Exception {
        CleanerLogs logs = new CleanerLogs(root.resolve("written"));
        UnifiedLog written = logs.open("topic-0", CONFIG);
        Compression codec = Compression.of(type);
        round(logs, written, codec, 0);
        written.close();

        CleanerLogs krabkaLogs = new CleanerLogs(root.resolve("krabka"));
        copy(logs.logDir, krabkaLogs.logDir);
        copy(logs.logDir, root.resolve("kafka"));
        UnifiedLog krabka = krabkaLogs.open("topic-0", CONFIG);
        KafkaSide kafka = new KafkaSide(root.resolve("kafka").resolve("topic-0"), krabkaLogs.time);
        long now = logs.time.millis();
        try {
            krabkaLogs
                    .cleaner(MAP_MEMORY)
                    .doClean(LogToClean.of(krabka, 0, krabka.activeSegment().baseOffset(), false), now);
            kafka.clean(0, now);
            assertSameFiles(krabka.dir(), kafka.dir(), krabka.activeSegment().baseOffset());

            // Later: more of the same, after the delete horizons set by the first cleaning.
            krabkaLogs.time.sleep(5_000);
            round(krabkaLogs, krabka, codec, 100);
            long firstDirty = kafka.log.activeSegment().baseOffset();
            kafka.appendCopyOf(krabka, firstDirty);
            kafka.log.roll(Optional.empty());
            kafka.log.updateHighWatermark(kafka.log.logEndOffset());
            krabka.roll();
            krabka.updateHighWatermark(krabka.logEndOffset());
            long later = krabkaLogs.time.millis();
            krabkaLogs
                    .cleaner(MAP_MEMORY)
                    .doClean(
                            LogToClean.of(
                                    krabka, firstDirty, krabka.activeSegment().baseOffset(), false),
                            later);
            kafka.clean(firstDirty, later);
            assertSameFiles(krabka.dir(), kafka.dir(), krabka.activeSegment().baseOffset());
        } finally {
            krabka.close();
            kafka.close();
        }
    }

    /** Overwritten keys, tombstones, an idempotent producer, a committed and an aborted transaction; rolled. */
    private static void round(CleanerLogs logs, UnifiedLog log, Compression codec, int base) throws IOException {
        short epoch = 0;
        for (int segment = 0; segment < 3; segment++) {
            for (int i = 0; i < 8; i++) {
                String key = "k" + ((base + segment * 8 + i) % 11);
                append(
                        log,
                        logs.keyed(codec, key, i % 5 == 4 ? null : "v" + base + "-" + segment + "-" + i, "x" + i, "y"));
            }
            int idempotentSequence = (base == 0 ? 0 : 6) + segment * 2;
            append(
                    log,
                    logs.producerBatch(codec, 100, epoch, idempotentSequence, false, "k1", "p" + segment, "k2", "q"));
            log.roll();
        }
        int sequence = base == 0 ? 0 : 2;
        append(log, logs.producerBatch(codec, 200, epoch, sequence, true, "k3", "committed", "k4", "committed"));
        logs.appendMarker(log, 200, epoch, ControlRecordType.COMMIT);
        append(log, logs.producerBatch(codec, 300, epoch, sequence, true, "k3", "aborted", "k5", "aborted"));
        logs.appendMarker(log, 300, epoch, ControlRecordType.ABORT);
        append(log, logs.keyed(codec, "k6", "plain"));
        log.roll();
        append(log, logs.keyed(codec, "k7", "active"));
    }

    /**
     * The files of the segments below {@code activeBase} in both directories: the same names, and the same bytes.
     * (Kafka creates an active segment's indexes at its first append, Krabka with the segment.)
     */
    private static void assertSameFiles(Path ours, Path theirs, long activeBase) throws IOException {
        List<String> ourFiles = segmentFiles(ours, activeBase);
        assertEquals(segmentFiles(theirs, activeBase), ourFiles, "the same segment files");
        assertTrue(ourFiles.stream().anyMatch(f -> f.endsWith(".log")));
        // The records first: where they differ, the indexes do too.
        for (String file : ourFiles.stream()
                .sorted(Comparator.comparing((String f) -> !f.endsWith(".log")).thenComparing(f -> f))
                .toList()) {
            assertArrayEquals(
                    Files.readAllBytes(theirs.resolve(file)),
                    Files.readAllBytes(ours.resolve(file)),
                    () -> file + "\nKafka:  " + describe(theirs.resolve(file)) + "\nKrabka: "
                            + describe(ours.resolve(file)));
        }
    }

    /** The batches of a segment's records, for a failure's message. */
    private static String describe(Path file) {
        if (!file.toString().endsWith(".log")) {
            return "";
        }
        StringBuilder text = new StringBuilder();
        try (org.apache.kafka.common.record.internal.FileRecords records =
                org.apache.kafka.common.record.internal.FileRecords.open(file.toFile())) {
            for (var batch : records.batches()) {
                text.append("[")
                        .append(batch.baseOffset())
                        .append("-")
                        .append(batch.lastOffset())
                        .append(" pid ")
                        .append(batch.producerId())
                        .append(" n ")
                        .append(batch.countOrNull())
                        .append(batch.isControlBatch() ? " control" : "")
                        .append("] ");
            }
        } catch (IOException e) {
            return e.toString();
        }
        return text.toString();
    }

    private static List<String> segmentFiles(Path dir, long activeBase) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(name -> name.endsWith(".log")
                            || name.endsWith(".index")
                            || name.endsWith(".timeindex")
                            || name.endsWith(".txnindex"))
                    .filter(name -> Long.parseLong(name.substring(0, name.indexOf('.'))) < activeBase)
                    .sorted()
                    .toList();
        }
    }

    private static void copy(Path source, Path target) throws IOException {
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : files.sorted().toList()) {
                Files.copy(file, target.resolve(source.relativize(file).toString()));
            }
        }
    }

    /** Kafka's log and cleaner over the copy in {@code dir}. */
    private static final class KafkaSide {
        final KafkaScheduler scheduler = new KafkaScheduler(1);
        final BrokerTopicStats stats = new BrokerTopicStats();
        final org.apache.kafka.storage.internals.log.UnifiedLog log;
        final org.apache.kafka.storage.internals.log.Cleaner cleaner;

        /** Kafka's log on the test's clock, so that both see the same producers alive. */
        KafkaSide(Path dir, io.krabka.kernel.log.TestTime clock) throws Exception {
            Time time = new Time() {
                @Override
                public long milliseconds() {
                    return clock.millis();
                }

                @Override
                public long nanoseconds() {
                    return System.nanoTime();
                }

                @Override
                public void sleep(long ms) {
                    clock.sleep(ms);
                }
            };
            scheduler.startup();
            log = org.apache.kafka.storage.internals.log.UnifiedLog.create(
                    dir.toFile(),
                    new org.apache.kafka.storage.internals.log.LogConfig(Map.of(
                            "cleanup.policy", "compact", "delete.retention.ms", "1000", "index.interval.bytes", "200")),
                    0L,
                    0L,
                    scheduler,
                    stats,
                    time,
                    15 * 60 * 1000,
                    new ProducerStateManagerConfig(86_400_000, false),
                    10 * 60 * 1000,
                    new LogDirFailureChannel(1),
                    true,
                    Optional.empty(),
                    new ConcurrentHashMap<>(),
                    false,
                    LogOffsetsListener.NO_OP_OFFSETS_LISTENER);
            log.updateHighWatermark(log.logEndOffset());
            cleaner = new org.apache.kafka.storage.internals.log.Cleaner(
                    0,
                    new org.apache.kafka.storage.internals.log.SkimpyOffsetMap(
                            MAP_MEMORY, CleanerConfig.HASH_ALGORITHM),
                    IO_BUFFER,
                    MAX_MESSAGE_SIZE,
                    0.75,
                    new Throttler(Double.MAX_VALUE, 300, "cleaner-io", "bytes", time),
                    time,
                    topicPartition -> {});
        }

        Path dir() {
            return log.dir().toPath();
        }

        void clean(long firstDirtyOffset, long now) throws Exception {
            cleaner.doClean(
                    new org.apache.kafka.storage.internals.log.LogToClean(
                            log, firstDirtyOffset, log.activeSegment().baseOffset(), false),
                    now);
        }

        /**
         * Appends the batches Krabka's log holds from {@code from} on, as a replica would, bytes unchanged, rolling
         * where Krabka's segments start.
         */
        void appendCopyOf(UnifiedLog krabka, long from) throws IOException {
            List<io.krabka.kernel.log.LogSegment> segments = krabka.logSegments(from, krabka.logEndOffset());
            for (int i = 0; i < segments.size(); i++) {
                if (i > 0) {
                    log.roll(Optional.empty());
                }
                long base = segments.get(i).baseOffset();
                long next = i + 1 < segments.size() ? segments.get(i + 1).baseOffset() : Long.MAX_VALUE;
                for (io.krabka.kernel.record.RecordBatch batch : CleanerLogs.batches(krabka)) {
                    if (batch.baseOffset() >= Math.max(base, log.logEndOffset()) && batch.baseOffset() < next) {
                        log.appendAsFollower(
                                org.apache.kafka.common.record.internal.MemoryRecords.readableRecords(batch.buffer()),
                                Integer.MAX_VALUE);
                    }
                }
            }
        }

        void close() throws Exception {
            log.close();
            scheduler.shutdown();
            stats.close();
        }
    }
}
