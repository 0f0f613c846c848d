package io.krabka.bench;

import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.FetchDataInfo;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.FileSlice;
import io.krabka.kernel.log.ProducerAppendInfo;
import io.krabka.kernel.log.UnifiedLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.server.common.RequestLocal;
import org.apache.kafka.server.common.TransactionVersion;
import org.apache.kafka.storage.internals.log.VerificationGuard;
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
 * A partition log's produce and fetch paths, Krabka's {@code UnifiedLog} against Apache Kafka 4.4.0's own, on the
 * same disk, with Kafka's defaults on both sides (segments roll at 1 GiB, no append is flushed; a rolled segment
 * is flushed in the background, as a broker does).
 *
 * <ul>
 *   <li>append: one {@code appendAsLeader} of a producer's batch ({@link ProducedBatch}: 1 KiB records, as many
 *       as fit in {@code batchBytes}, compressed with {@code compression}): validated (CRC, every record, with
 *       the compressed ones decompressed), given offsets and the leader epoch in place, written to the active
 *       segment and indexed. Each side appends the same bytes again and again, set back to what the producer sent
 *       before each append (two header fields; see {@link ProducedBatch#reset}). Each iteration starts a new
 *       empty log, and deletes it after.</li>
 *   <li>read: one {@code read} of at most 1 MiB (a consumer's default {@code max.partition.fetch.bytes}) up to
 *       the high watermark, the first batch whole, as a fetch does: a zero-copy slice of a segment file. The
 *       reads go through a log of {@value #READ_LOG_MIB} MiB of the same batches in order, from the start to
 *       the end and again, each from where the last one's whole batches end.</li>
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 4, time = 2)
@Fork(1)
public class UnifiedLogBenchmark {
    private static final String PARTITION = "bench-0";
    private static final int LEADER_EPOCH = 0;
    /** A consumer's default {@code max.partition.fetch.bytes}. */
    private static final int FETCH_MAX_BYTES = 1 << 20;

    private static final int READ_LOG_MIB = 512;

    /** The batch both sides append: the parameters. */
    @State(Scope.Benchmark)
    public static class Workload {
        /** The producer's {@code batch.size}: 16 KiB is its default. */
        @Param({"16384", "1048576"})
        public int batchBytes;

        /** The producer's {@code compression.type}; the topic's is {@code producer} (kept as sent). */
        @Param({"none", "lz4", "zstd"})
        public String compression;

        ProducedBatch batch;

        @Setup(Level.Trial)
        public void build() {
            batch = ProducedBatch.of(batchBytes, compression, System.currentTimeMillis());
        }
    }

    /** A new empty Krabka log per iteration, and the buffer appended to it. */
    @State(Scope.Thread)
    public static class KrabkaAppend {
        Path directory;
        KrabkaLogs logs;
        UnifiedLog log;
        ByteBuffer batch;

        @Setup(Level.Iteration)
        public void open(Workload workload) throws IOException {
            directory = Scratch.create("append-krabka-");
            logs = new KrabkaLogs();
            log = logs.open(directory.resolve(PARTITION), true);
            batch = workload.batch.copy();
        }

        @TearDown(Level.Iteration)
        public void delete() throws IOException, InterruptedException {
            logs.shutdown();
            log.delete();
            Scratch.delete(directory);
        }
    }

    /** A new empty Kafka log per iteration, and the records appended to it. */
    @State(Scope.Thread)
    public static class KafkaAppend {
        Path directory;
        KafkaLogs logs;
        org.apache.kafka.storage.internals.log.UnifiedLog log;
        ByteBuffer batch;
        MemoryRecords records;
        /** As a request handler thread has it: decompression buffers reused from one append to the next. */
        final RequestLocal requestLocal = RequestLocal.withThreadConfinedCaching();

        @Setup(Level.Iteration)
        public void open(Workload workload) throws IOException {
            directory = Scratch.create("append-kafka-");
            logs = new KafkaLogs();
            log = logs.open(directory.resolve(PARTITION), true);
            batch = workload.batch.copy();
            records = MemoryRecords.readableRecords(batch);
        }

        @TearDown(Level.Iteration)
        public void delete() throws IOException, InterruptedException {
            logs.shutdown();
            log.delete();
            Scratch.delete(directory);
        }
    }

    /** A Krabka log of {@value #READ_LOG_MIB} MiB, and the reader's place in it. */
    @State(Scope.Thread)
    public static class KrabkaRead {
        Path directory;
        KrabkaLogs logs;
        UnifiedLog log;
        FetchCursor cursor;

        @Setup(Level.Trial)
        public void write(Workload workload) throws IOException {
            directory = Scratch.create("read-krabka-");
            logs = new KrabkaLogs();
            log = logs.open(directory.resolve(PARTITION), true);
            ByteBuffer batch = workload.batch.copy();
            while (log.size() < (long) READ_LOG_MIB << 20) {
                ProducedBatch.reset(batch);
                log.appendAsLeader(batch, LEADER_EPOCH, AppendOrigin.CLIENT, ProducerAppendInfo.TV_UNKNOWN);
            }
            log.updateHighWatermark(log.logEndOffset());
            cursor = FetchCursor.checked(
                    offset -> {
                        FetchDataInfo read = log.read(offset, FETCH_MAX_BYTES, FetchIsolation.HIGH_WATERMARK, true);
                        if (!(read.records() instanceof FileSlice slice)) {
                            throw new IllegalStateException("a read returned " + read.records() + ", not a file slice");
                        }
                        return new FetchCursor.Slice(
                                slice.batches().iterator().next().baseOffset(), slice.sizeInBytes());
                    },
                    workload.batch,
                    FETCH_MAX_BYTES,
                    log.logEndOffset(),
                    log.size());
        }

        @TearDown(Level.Trial)
        public void delete() throws IOException, InterruptedException {
            logs.shutdown();
            log.delete();
            Scratch.delete(directory);
        }
    }

    /** A Kafka log of {@value #READ_LOG_MIB} MiB, and the reader's place in it. */
    @State(Scope.Thread)
    public static class KafkaRead {
        Path directory;
        KafkaLogs logs;
        org.apache.kafka.storage.internals.log.UnifiedLog log;
        FetchCursor cursor;

        @Setup(Level.Trial)
        public void write(Workload workload) throws IOException {
            directory = Scratch.create("read-kafka-");
            logs = new KafkaLogs();
            log = logs.open(directory.resolve(PARTITION), true);
            ByteBuffer batch = workload.batch.copy();
            MemoryRecords records = MemoryRecords.readableRecords(batch);
            RequestLocal requestLocal = RequestLocal.withThreadConfinedCaching();
            while (log.size() < (long) READ_LOG_MIB << 20) {
                ProducedBatch.reset(batch);
                log.appendAsLeader(
                        records,
                        LEADER_EPOCH,
                        org.apache.kafka.storage.internals.log.AppendOrigin.CLIENT,
                        requestLocal,
                        VerificationGuard.SENTINEL,
                        TransactionVersion.TV_UNKNOWN);
            }
            log.updateHighWatermark(log.logEndOffset());
            cursor = FetchCursor.checked(
                    offset -> {
                        var read = log.read(
                                offset,
                                FETCH_MAX_BYTES,
                                org.apache.kafka.server.storage.log.FetchIsolation.HIGH_WATERMARK,
                                true);
                        if (!(read.records instanceof FileRecords slice)) {
                            throw new IllegalStateException("a read returned " + read.records + ", not a file slice");
                        }
                        return new FetchCursor.Slice(
                                slice.batches().iterator().next().baseOffset(), slice.sizeInBytes());
                    },
                    workload.batch,
                    FETCH_MAX_BYTES,
                    log.logEndOffset(),
                    log.size());
        }

        @TearDown(Level.Trial)
        public void delete() throws IOException, InterruptedException {
            logs.shutdown();
            log.delete();
            Scratch.delete(directory);
        }
    }

    @Benchmark
    public long appendKrabka(KrabkaAppend append) throws IOException {
        ProducedBatch.reset(append.batch);
        return append.log
                .appendAsLeader(append.batch, LEADER_EPOCH, AppendOrigin.CLIENT, ProducerAppendInfo.TV_UNKNOWN)
                .lastOffset();
    }

    @Benchmark
    public long appendKafka(KafkaAppend append) throws IOException {
        ProducedBatch.reset(append.batch);
        return append.log
                .appendAsLeader(
                        append.records,
                        LEADER_EPOCH,
                        org.apache.kafka.storage.internals.log.AppendOrigin.CLIENT,
                        append.requestLocal,
                        VerificationGuard.SENTINEL,
                        TransactionVersion.TV_UNKNOWN)
                .lastOffset();
    }

    @Benchmark
    public int readKrabka(KrabkaRead read) throws IOException {
        int size = read.log
                .read(read.cursor.next(), FETCH_MAX_BYTES, FetchIsolation.HIGH_WATERMARK, true)
                .records()
                .sizeInBytes();
        read.cursor.advance(size);
        return size;
    }

    @Benchmark
    public int readKafka(KafkaRead read) throws IOException {
        int size = read.log
                .read(
                        read.cursor.next(),
                        FETCH_MAX_BYTES,
                        org.apache.kafka.server.storage.log.FetchIsolation.HIGH_WATERMARK,
                        true)
                .records
                .sizeInBytes();
        read.cursor.advance(size);
        return size;
    }
}
