package io.krabka.kernel.log.cleaner;

import io.krabka.bench.KafkaLogs;
import io.krabka.bench.KrabkaLogs;
import io.krabka.bench.Scratch;
import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.ProducerAppendInfo;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.LogConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.DigestException;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.storage.internals.utils.Throttler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One whole cleaning of a compacted log, Krabka's {@code Cleaner.doClean} against Apache Kafka 4.4.0's own
 * ({@code org.apache.kafka.storage.internals.log.Cleaner}), on copies of the very same log directory, with the
 * settings Kafka's {@code LogCleaner} gives one cleaner thread by default: a 128 MiB offset map (MD5 keys) at a load
 * factor of 0.9, read and write buffers of 256 KiB growing up to {@code message.max.bytes}, no throttle.
 *
 * <p>The log: {@value #LOG_MIB} MiB in segments of {@value #SEGMENT_MIB} MiB, all rolled (the active segment is
 * empty), of batches as a producer sends them (Kafka's builder, up to 16 KiB uncompressed, compressed with
 * {@code compression}), each record a key of {@value #KEYS} drawn at random and a value of 100 to 400 text-like
 * bytes: about nine records of each key, so a first cleaning keeps one in nine. With {@code dirty=tenth}, the first
 * nine tenths were cleaned once already and the last tenth written after: the cleaning reads the clean part again
 * and looks each of its records up in the offset map of the dirty part, as between two cleanings of a busy log. An
 * operation opens a fresh copy (outside the measured time), then cleans it from its first dirty offset up to the
 * active segment: the offset map is built, every segment copied without the records superseded into new ones, and
 * those swapped in, fsync included. Before measuring, the setup cleans a copy with each side and checks that both
 * keep exactly the same records at the same offsets.
 *
 * <p>In the cleaner's package, for its package-private {@code Cleaner}; the kernel is on the class path here.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 10)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class LogCleanerBenchmark {
    private static final String PARTITION = "compacted-0";
    static final int LOG_MIB = 256;
    static final int SEGMENT_MIB = 64;
    static final int KEYS = 100_000;
    /** Kafka's defaults for one cleaner thread. */
    private static final int DEDUPE_BUFFER_SIZE = 128 * 1024 * 1024;

    private static final int IO_BUFFER_SIZE = 512 * 1024 / 2;
    private static final int MAX_MESSAGE_SIZE = 1024 * 1024 + 12;
    private static final double LOAD_FACTOR = 0.9;
    private static final int BATCH_BYTES = 16 * 1024;

    /** The log both sides clean: written once, copied for each operation. */
    @State(Scope.Benchmark)
    public static class Workload {
        /** The producer's {@code compression.type}; the topic's is {@code producer} (kept as sent). */
        @Param({"none", "lz4", "zstd"})
        public String compression;

        /**
         * How much of the log is dirty: {@code all} (its first cleaning), or {@code tenth} (its first nine tenths
         * cleaned once already, as a log is between two cleanings: the clean part is read again and each of its
         * records looked up in the offset map).
         */
        @Param({"all", "tenth"})
        public String dirty;

        Path root;
        Path written;
        long firstDirtyOffset;

        @Setup(Level.Trial)
        public void write() throws IOException, InterruptedException, NoSuchAlgorithmException, DigestException {
            root = Scratch.create("cleaner-");
            written = root.resolve("written").resolve(PARTITION);
            KrabkaLogs logs = new KrabkaLogs();
            UnifiedLog log = logs.open(written, krabkaConfig(), true);
            SplittableRandom random = new SplittableRandom(15);
            Compression codec = Compression.of(compression).build();
            long cleanBytes = dirty.equals("all") ? 0 : ((long) LOG_MIB * 9 / 10) << 20;
            append(log, random, codec, cleanBytes);
            if (cleanBytes > 0) {
                // The clean part: cleaned as Krabka and Kafka both clean it (byte for byte the same files).
                log.roll();
                log.updateHighWatermark(log.logEndOffset());
                krabkaCleaner()
                        .doClean(
                                LogToClean.of(log, 0, log.activeSegment().baseOffset(), false),
                                System.currentTimeMillis());
                firstDirtyOffset = log.activeSegment().baseOffset();
            }
            append(log, random, codec, log.size() + ((long) LOG_MIB << 20) - cleanBytes);
            log.roll();
            log.updateHighWatermark(log.logEndOffset());
            log.close();
            logs.shutdown();
            checkBothKeepTheSame();
        }

        @TearDown(Level.Trial)
        public void delete() throws IOException {
            Scratch.delete(root);
        }

        /** A fresh copy of the log, forced to disk so that no writeback of it runs while a cleaning is measured. */
        Path copy(String prefix) throws IOException {
            Path copy = Files.createDirectories(
                    Files.createTempDirectory(root, prefix).resolve(PARTITION));
            try (Stream<Path> files = Files.list(written)) {
                for (Path file : files.toList()) {
                    Path target = Files.copy(file, copy.resolve(file.getFileName()));
                    try (FileChannel channel = FileChannel.open(target, StandardOpenOption.WRITE)) {
                        channel.force(true);
                    }
                }
            }
            return copy;
        }

        private void checkBothKeepTheSame()
                throws IOException, InterruptedException, NoSuchAlgorithmException, DigestException {
            KrabkaSide krabka = new KrabkaSide();
            krabka.open(this);
            krabka.cleaner = krabkaCleaner();
            clean(krabka);
            List<String> kept = records(krabka.log.dir());
            krabka.close(this);
            KafkaSide kafka = new KafkaSide();
            kafka.open(this);
            kafka.cleaner = kafkaCleaner();
            clean(kafka);
            List<String> theirs = records(kafka.log.dir().toPath());
            kafka.close(this);
            if (!kept.equals(theirs) || kept.size() * 5 > KEYS * 10) {
                throw new IllegalStateException("the cleanings differ: Krabka kept " + kept.size() + " records, Kafka "
                        + theirs.size() + " (of about " + KEYS + " keys)");
            }
        }
    }

    private static LogConfig krabkaConfig() {
        return LogConfig.fromProps(
                Map.of(), Map.of("cleanup.policy", "compact", "segment.bytes", String.valueOf(SEGMENT_MIB << 20)));
    }

    private static org.apache.kafka.storage.internals.log.LogConfig kafkaConfig() {
        return new org.apache.kafka.storage.internals.log.LogConfig(
                Map.of("cleanup.policy", "compact", "segment.bytes", String.valueOf(SEGMENT_MIB << 20)));
    }

    /** Appends producer batches until the log holds {@code bytes}. */
    private static void append(UnifiedLog log, SplittableRandom random, Compression codec, long bytes)
            throws IOException {
        while (log.size() < bytes) {
            log.appendAsLeader(batch(random, codec), 0, AppendOrigin.CLIENT, ProducerAppendInfo.TV_UNKNOWN);
        }
    }

    /** A producer's batch of keyed records, up to {@value #BATCH_BYTES} bytes uncompressed. */
    private static ByteBuffer batch(SplittableRandom random, Compression codec) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(
                ByteBuffer.allocate(BATCH_BYTES), RecordBatch.CURRENT_MAGIC_VALUE, codec, TimestampType.CREATE_TIME, 0);
        long timestamp = System.currentTimeMillis();
        int uncompressed = 0;
        while (uncompressed < BATCH_BYTES - 512) {
            byte[] key = ("key-" + random.nextInt(KEYS)).getBytes(StandardCharsets.US_ASCII);
            byte[] value = value(random, 100 + random.nextInt(301));
            builder.append(timestamp, key, value);
            uncompressed += key.length + value.length + 8;
        }
        return builder.build().buffer();
    }

    private static final String[] WORDS = {
        "order",
        "shipped",
        "pending",
        "customer",
        "amount",
        "currency",
        "EUR",
        "USD",
        "address",
        "street",
        "city",
        "status",
        "paid",
        "refund",
        "item",
        "quantity",
        "price",
        "discount",
        "warehouse",
        "carrier"
    };

    private static byte[] value(SplittableRandom random, int length) {
        StringBuilder text = new StringBuilder(length + 16);
        while (text.length() < length) {
            text.append(WORDS[random.nextInt(WORDS.length)])
                    .append(' ')
                    .append(random.nextInt(10_000))
                    .append(' ');
        }
        text.setLength(length);
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Every record of the log's segment files, as {@code offset:key=value}, read by Kafka's classes. */
    static List<String> records(Path dir) throws IOException {
        List<String> records = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
                try (FileRecords segment = FileRecords.open(file.toFile())) {
                    for (RecordBatch batch : segment.batches()) {
                        for (Record record : batch) {
                            records.add(record.offset() + ":" + StandardCharsets.US_ASCII.decode(record.key()) + "="
                                    + StandardCharsets.US_ASCII.decode(record.value()));
                        }
                    }
                }
            }
        }
        return records;
    }

    static Cleaner krabkaCleaner() {
        return new Cleaner(
                0,
                new SkimpyOffsetMap(DEDUPE_BUFFER_SIZE, CleanerConfig.HASH_ALGORITHM),
                IO_BUFFER_SIZE,
                MAX_MESSAGE_SIZE,
                LOAD_FACTOR,
                new io.krabka.kernel.log.cleaner.Throttler(Double.MAX_VALUE, System::nanoTime, ms -> {}),
                System::currentTimeMillis,
                topicPartition -> {});
    }

    static org.apache.kafka.storage.internals.log.Cleaner kafkaCleaner() throws NoSuchAlgorithmException {
        return new org.apache.kafka.storage.internals.log.Cleaner(
                0,
                new org.apache.kafka.storage.internals.log.SkimpyOffsetMap(
                        DEDUPE_BUFFER_SIZE, CleanerConfig.HASH_ALGORITHM),
                IO_BUFFER_SIZE,
                MAX_MESSAGE_SIZE,
                LOAD_FACTOR,
                new Throttler(Double.MAX_VALUE, 300, "cleaner-io", "bytes", Time.SYSTEM),
                Time.SYSTEM,
                topicPartition -> {});
    }

    /** Krabka's cleaner, made once, and a fresh copy of the log for each operation. */
    @State(Scope.Thread)
    public static class KrabkaSide {
        Cleaner cleaner;
        KrabkaLogs logs;
        UnifiedLog log;
        long firstDirtyOffset;

        @Setup(Level.Trial)
        public void cleaner() {
            cleaner = krabkaCleaner();
        }

        @Setup(Level.Iteration)
        public void open(Workload workload) throws IOException {
            logs = new KrabkaLogs();
            log = logs.open(workload.copy("krabka-"), krabkaConfig(), true);
            log.updateHighWatermark(log.logEndOffset());
            firstDirtyOffset = workload.firstDirtyOffset;
        }

        @TearDown(Level.Iteration)
        public void close(Workload workload) throws IOException, InterruptedException {
            log.close();
            logs.shutdown();
            Scratch.delete(log.dir().getParent());
        }
    }

    /** Kafka's cleaner, made once, and a fresh copy of the log for each operation. */
    @State(Scope.Thread)
    public static class KafkaSide {
        org.apache.kafka.storage.internals.log.Cleaner cleaner;
        KafkaLogs logs;
        org.apache.kafka.storage.internals.log.UnifiedLog log;
        long firstDirtyOffset;

        @Setup(Level.Trial)
        public void cleaner() throws NoSuchAlgorithmException {
            cleaner = kafkaCleaner();
        }

        @Setup(Level.Iteration)
        public void open(Workload workload) throws IOException {
            logs = new KafkaLogs();
            log = logs.open(workload.copy("kafka-"), kafkaConfig(), true);
            log.updateHighWatermark(log.logEndOffset());
            firstDirtyOffset = workload.firstDirtyOffset;
        }

        @TearDown(Level.Iteration)
        public void close(Workload workload) throws IOException, InterruptedException {
            log.close();
            logs.shutdown();
            Scratch.delete(log.dir().toPath().getParent());
        }
    }

    @Benchmark
    public long cleanKrabka(KrabkaSide side) throws IOException {
        return clean(side);
    }

    @Benchmark
    public long cleanKafka(KafkaSide side) throws IOException, DigestException {
        return clean(side);
    }

    static long clean(KrabkaSide side) throws IOException {
        LogToClean cleanable =
                LogToClean.of(side.log, 0, side.log.activeSegment().baseOffset(), false);
        return side.cleaner.doClean(cleanable, System.currentTimeMillis()).nextDirtyOffset();
    }

    static long clean(KafkaSide side) throws IOException, DigestException {
        var cleanable = new org.apache.kafka.storage.internals.log.LogToClean(
                side.log, side.firstDirtyOffset, side.log.activeSegment().baseOffset(), false);
        return side.cleaner.doClean(cleanable, Time.SYSTEM.milliseconds()).getKey();
    }
}
