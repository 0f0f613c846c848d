package io.krabka.bench;

import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.UnifiedLog;
import java.io.IOException;
import java.io.Serial;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

/**
 * Recovery of a 1 GiB log after {@code kill -9}, Krabka's {@code UnifiedLog} against Apache Kafka 4.4.0's: each
 * side's log is written by a child JVM that is then killed ({@link KilledLogWriter}); each round opens a fresh
 * copy of each side's own log as a broker opens a log after an unclean shutdown (no clean-shutdown marker,
 * recovery point 0): every batch is validated, the indexes and the producer state rebuilt ({@link KilledLog}).
 *
 * <p>The two sides take turns within each round, the first alternating from round to round, so that a change in
 * the load of a shared machine falls on both: the median of the per-round ratios is the figure to read. One
 * round of each side warms the JIT up first and is not counted: the first recovery in the JVM also warms up the
 * JDK code both sides use (file channels, CRC32C), so it says little about either side.
 *
 * <p>{@code java -cp <classpath> io.krabka.bench.RecoveryTime [rounds]}, 8 rounds by default; run by
 * {@code krabka-benchmarks/run-recovery}.
 */
public final class RecoveryTime {
    private static final int DEFAULT_ROUNDS = 8;

    private RecoveryTime() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_ROUNDS;
        if (rounds < 1 || args.length > 1) {
            System.err.println("usage: RecoveryTime [rounds]");
            System.exit(2);
        }
        Path directory = Scratch.create("recovery-");
        try {
            KrabkaLog krabka = new KrabkaLog(directory);
            KafkaLog kafka = new KafkaLog(directory);
            System.out.printf(
                    Locale.ROOT, "logs killed at offset %d (Krabka) and %d (Kafka)%n", krabka.acked, kafka.acked);
            System.out.printf(
                    Locale.ROOT,
                    "warm-up, not counted: Krabka %.0f ms, then Kafka %.0f ms%n",
                    millis(krabka.recover()),
                    millis(kafka.recover()));
            double[] krabkaMs = new double[rounds];
            double[] kafkaMs = new double[rounds];
            double[] ratios = new double[rounds];
            for (int round = 0; round < rounds; round++) {
                if (round % 2 == 0) {
                    krabkaMs[round] = millis(krabka.recover());
                    kafkaMs[round] = millis(kafka.recover());
                } else {
                    kafkaMs[round] = millis(kafka.recover());
                    krabkaMs[round] = millis(krabka.recover());
                }
                ratios[round] = krabkaMs[round] / kafkaMs[round];
                System.out.printf(
                        Locale.ROOT,
                        "round %d: Krabka %.0f ms, Kafka %.0f ms, ratio %.2f%n",
                        round + 1,
                        krabkaMs[round],
                        kafkaMs[round],
                        ratios[round]);
            }
            System.out.printf(
                    Locale.ROOT,
                    "median over %d rounds: Krabka %.0f ms, Kafka %.0f ms; ratio of the medians"
                            + " %.2f, median of the rounds' ratios %.2f (Krabka/Kafka time: below 1, Krabka is faster)%n",
                    rounds,
                    median(krabkaMs),
                    median(kafkaMs),
                    median(krabkaMs) / median(kafkaMs),
                    median(ratios));
            krabka.shutdown();
            kafka.shutdown();
        } finally {
            Scratch.delete(directory);
        }
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** Krabka's side: its account of recovery is the segments it recovered at load. */
    private static final class KrabkaLog extends KilledLog {
        private final KrabkaLogs logs = new KrabkaLogs();
        private UnifiedLog log;

        KrabkaLog(Path directory) throws IOException, InterruptedException {
            super("krabka", directory);
        }

        @Override
        void open(Path dir) throws IOException {
            log = logs.open(dir, false);
        }

        @Override
        void checkAndDelete() throws IOException {
            List<Long> recovered = log.segmentsRecoveredAtLoad();
            List<Long> segments =
                    log.logSegments().stream().map(LogSegment::baseOffset).toList();
            check(
                    log.logEndOffset(),
                    log.producerStateManager()
                            .lastEntry(KilledLogWriter.PRODUCER_ID)
                            .orElseThrow()
                            .lastDataOffset(),
                    recovered.equals(segments),
                    "segments " + segments + ", recovered at load " + recovered);
            log.delete();
        }

        void shutdown() throws InterruptedException {
            logs.shutdown();
        }
    }

    /** Kafka's side: its account of recovery is the count of segments left to recover it keeps for its metrics. */
    private static final class KafkaLog extends KilledLog {
        private final KafkaLogs logs = new KafkaLogs();
        private RemainingSegments remaining;
        private org.apache.kafka.storage.internals.log.UnifiedLog log;

        KafkaLog(Path directory) throws IOException, InterruptedException {
            super("kafka", directory);
        }

        @Override
        void open(Path dir) throws IOException {
            remaining = new RemainingSegments();
            log = logs.open(dir, false, remaining);
        }

        @Override
        void checkAndDelete() {
            // Kafka puts the number of segments it sets out to recover, then one count per segment recovered,
            // down to 0.
            int segments = log.numberOfSegments();
            List<Integer> countdown = IntStream.rangeClosed(0, segments)
                    .map(n -> segments - n)
                    .boxed()
                    .toList();
            check(
                    log.logEndOffset(),
                    log.producerStateManager()
                            .lastEntry(KilledLogWriter.PRODUCER_ID)
                            .orElseThrow()
                            .lastDataOffset(),
                    remaining.counts().equals(countdown),
                    segments + " segments, counted down " + remaining.counts());
            log.delete();
        }

        void shutdown() throws InterruptedException {
            logs.shutdown();
        }
    }

    /** The counts Kafka's recovery puts, per loading thread, for its log manager's metrics, in order. */
    private static final class RemainingSegments extends ConcurrentHashMap<String, Integer> {
        @Serial
        private static final long serialVersionUID = 1L;

        private final transient List<Integer> counts = new CopyOnWriteArrayList<>();

        @Override
        public Integer put(String thread, Integer count) {
            counts.add(count);
            return super.put(thread, count);
        }

        List<Integer> counts() {
            return new ArrayList<>(counts);
        }
    }
}
