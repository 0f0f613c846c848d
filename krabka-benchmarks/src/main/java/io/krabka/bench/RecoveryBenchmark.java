package io.krabka.bench;

import io.krabka.kernel.log.UnifiedLog;
import java.io.IOException;
import java.io.Serial;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Recovery of a 1 GiB log after {@code kill -9}, Krabka's {@code UnifiedLog} against Apache Kafka 4.4.0's: each
 * side's log is written by a child JVM that is then killed ({@link KilledLogWriter}), once per fork; an operation
 * opens a fresh copy of it as a broker opens a log after an unclean shutdown (no clean-shutdown marker, recovery
 * point 0), which validates every batch, rebuilds the indexes and the producer state. The copy is made and forced
 * to disk before the operation: the page cache holds the log, as it does when only the broker process was killed.
 * After each operation, a check that the log really was recovered: its end offset is the one acknowledged before
 * the kill, the producer's last offset is the last record, and the log's own account says it recovered every
 * segment (Krabka: the segments recovered at load; Kafka: the count of segments to recover it keeps for its log
 * manager's metrics).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(2)
public class RecoveryBenchmark {
    private static final String PARTITION = "bench-0";

    /** A log written by a child JVM of one side and killed; the copies of one operation. */
    abstract static class KilledLog {
        Path directory;
        Path written;
        long acked;
        Path copy;

        void write(String side) throws IOException, InterruptedException {
            directory = Scratch.create("recovery-" + side + "-");
            written = directory.resolve("killed").resolve(PARTITION);
            acked = KilledLogWriter.writeAndKill(side, written);
        }

        /** A new copy of the killed log, forced to disk, so the operation has no writeback to wait for. */
        void copy() throws IOException {
            copy = Files.createDirectories(Files.createTempDirectory(directory, "copy-").resolve(PARTITION));
            try (Stream<Path> files = Files.list(written)) {
                for (Path file : files.toList()) {
                    Path target = Files.copy(file, copy.resolve(file.getFileName()));
                    try (FileChannel channel = FileChannel.open(target, StandardOpenOption.WRITE)) {
                        channel.force(true);
                    }
                }
            }
        }

        /**
         * Checks the recovered log.
         *
         * @param everySegment whether the log's own account says it recovered each of its segments
         * @param account      that account, for the message
         */
        void check(String side, long logEndOffset, long lastDataOffset, boolean everySegment, String account) {
            if (logEndOffset != acked || lastDataOffset != acked - 1 || !everySegment) {
                throw new IllegalStateException(side + " did not recover the log killed at offset " + acked
                        + ": log end offset " + logEndOffset + ", the producer's last offset " + lastDataOffset + ", "
                        + account);
            }
        }

        void deleteCopy() throws IOException {
            Scratch.delete(copy.getParent());
        }
    }

    @State(Scope.Thread)
    public static class KrabkaLog extends KilledLog {
        final KrabkaLogs logs = new KrabkaLogs();
        UnifiedLog log;

        @Setup(Level.Trial)
        public void write() throws IOException, InterruptedException {
            write("krabka");
        }

        @Setup(Level.Invocation)
        public void copyLog() throws IOException {
            copy();
        }

        @TearDown(Level.Invocation)
        public void checkAndDelete() throws IOException {
            List<Long> recovered = log.segmentsRecoveredAtLoad();
            List<Long> segments = log.logSegments().stream().map(segment -> segment.baseOffset()).toList();
            check("Krabka", log.logEndOffset(),
                    log.producerStateManager().lastEntry(KilledLogWriter.PRODUCER_ID).orElseThrow().lastDataOffset(),
                    recovered.equals(segments), "segments " + segments + ", recovered at load " + recovered);
            log.delete();
            deleteCopy();
        }

        @TearDown(Level.Trial)
        public void shutdown() throws IOException, InterruptedException {
            logs.shutdown();
            Scratch.delete(directory);
        }
    }

    @State(Scope.Thread)
    public static class KafkaLog extends KilledLog {
        final KafkaLogs logs = new KafkaLogs();
        RemainingSegments remaining;
        org.apache.kafka.storage.internals.log.UnifiedLog log;

        @Setup(Level.Trial)
        public void write() throws IOException, InterruptedException {
            write("kafka");
        }

        @Setup(Level.Invocation)
        public void copyLog() throws IOException {
            copy();
            remaining = new RemainingSegments();
        }

        @TearDown(Level.Invocation)
        public void checkAndDelete() throws IOException {
            // Kafka's recovery puts the number of segments it sets out to recover, then one count per segment
            // recovered, down to 0.
            List<Integer> counts = remaining.counts();
            int segments = log.numberOfSegments();
            List<Integer> countdown = IntStream.rangeClosed(0, segments).map(n -> segments - n)
                    .boxed().toList();
            check("Kafka", log.logEndOffset(),
                    log.producerStateManager().lastEntry(KilledLogWriter.PRODUCER_ID).orElseThrow().lastDataOffset(),
                    counts.equals(countdown), segments + " segments, counted down " + counts);
            log.delete();
            deleteCopy();
        }

        @TearDown(Level.Trial)
        public void shutdown() throws IOException, InterruptedException {
            logs.shutdown();
            Scratch.delete(directory);
        }
    }

    /** The counts Kafka's recovery puts for its log manager's metrics, in order. */
    static final class RemainingSegments extends ConcurrentHashMap<String, Integer> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final transient List<Integer> counts = new CopyOnWriteArrayList<>();

        @Override
        public Integer put(String thread, Integer count) {
            counts.add(count);
            return super.put(thread, count);
        }

        List<Integer> counts() {
            return List.copyOf(counts);
        }
    }

    @Benchmark
    public UnifiedLog recoverKrabka(KrabkaLog killed) throws IOException {
        killed.log = killed.logs.open(killed.copy, false);
        return killed.log;
    }

    @Benchmark
    public org.apache.kafka.storage.internals.log.UnifiedLog recoverKafka(KafkaLog killed) throws IOException {
        killed.log = killed.logs.open(killed.copy, false, killed.remaining);
        return killed.log;
    }
}
