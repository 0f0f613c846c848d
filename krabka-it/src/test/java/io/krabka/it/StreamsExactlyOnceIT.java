package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * A Kafka Streams application with {@code processing.guarantee=exactly_once_v2} against Krabka's broker, as the
 * issue asks: {@link WordCountApplication} (a repartition by word, a persistent state store) in a child JVM while its
 * input keeps arriving, killed outright (SIGKILL) with a transaction open and started again on the same state
 * directory, then the broker killed outright and started again under it. Every word's counts, read read_committed
 * from the output, are exactly 1, 2, ... N for the N times it was written: nothing counted twice, nothing lost, no
 * count of an aborted transaction seen. Streams deletes what it committed of its repartition topic (DeleteRecords)
 * as it goes.
 */
class StreamsExactlyOnceIT {
    private static final List<String> WORDS = List.of(
            "alpha",
            "bravo",
            "charlie",
            "delta",
            "echo",
            "foxtrot",
            "golf",
            "hotel",
            "india",
            "juliett",
            "kilo",
            "lima",
            "mike",
            "november",
            "oscar",
            "papa",
            "quebec",
            "romeo",
            "sierra",
            "tango");
    private static final int WORDS_PER_LINE = 3;
    private static final int MOST_LINES = 30_000;
    private static final Duration BOUND = Duration.ofMinutes(3);

    @Test
    void countsAreExactAcrossAKilledApplicationAndAKilledBroker() throws Exception {
        Path work = Path.of(System.getProperty(KafkaLogs.WORK_PROPERTY), "streams-exactly-once");
        KafkaLogWriter.deleteRecursively(work);
        Path stateDir = work.resolve("state");
        try (KrabkaBroker broker =
                KrabkaBroker.start(work.resolve("broker"), Map.of("group.initial.rebalance.delay.ms", "0"))) {
            String bootstrap = broker.bootstrapServers();
            broker.createTopics(2, WordCountApplication.INPUT, WordCountApplication.OUTPUT);
            List<String> args = List.of(bootstrap, stateDir.toString());
            Map<String, Long> written = new TreeMap<>();
            KrabkaProcess application = null;
            Counts counts = new Counts(bootstrap);
            try (counts;
                    PacedInput input = PacedInput.start(
                            bootstrap, WordCountApplication.INPUT, StreamsExactlyOnceIT::line, MOST_LINES)) {
                application = ChildJvm.start(work, "word-count-1", WordCountApplication.class, args);
                counts.readUntil(() -> counts.total() >= 500, application);
                assertFalse(OpenTransactions.killInOne(application, bootstrap).isEmpty());
                assertTrue(input.written() < MOST_LINES, "the input still arrived when the application was killed");
                int atKill = counts.total();
                application = ChildJvm.start(work, "word-count-2", WordCountApplication.class, args);
                counts.readUntil(() -> counts.total() >= atKill + 500, application);

                broker.kill();
                broker.start();
                int atRestart = counts.total();
                counts.readUntil(() -> counts.total() >= atRestart + 500, application);
                int lines = input.stop();
                for (int i = 0; i < lines; i++) {
                    for (String word : line(i).split(" ")) {
                        written.merge(word, 1L, Long::sum);
                    }
                }
                counts.readUntil(() -> counts.reached(written), application);
                // A count committed twice would show here.
                counts.drain();
            } finally {
                if (application != null) {
                    application.close();
                }
            }
            List<String> wrong = new ArrayList<>();
            written.forEach((word, times) -> {
                List<Long> expected = LongStream.rangeClosed(1, times).boxed().toList();
                List<Long> seen = counts.of(word);
                if (!expected.equals(seen)) {
                    int first = 0;
                    while (first < Math.min(expected.size(), seen.size())
                            && expected.get(first).equals(seen.get(first))) {
                        first++;
                    }
                    wrong.add(word + " written " + times + " times: " + seen.size() + " counts, from the " + (first + 1)
                            + "th on " + seen.subList(first, Math.min(seen.size(), first + 5)));
                }
            });
            assertEquals(List.of(), wrong);
            assertEquals(written.keySet(), counts.words());
            assertTrue(repartitionPurged(bootstrap), "Streams deleted the committed records of its repartition topic");
        }
    }

    // Whether the log start of a partition of the repartition topic moved up (DeleteRecords).
    private static boolean repartitionPurged(String bootstrap) throws Exception {
        String topic = WordCountApplication.APPLICATION_ID + "-" + WordCountApplication.REPARTITION + "-repartition";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            Map<TopicPartition, OffsetSpec> earliest = Map.of(
                    new TopicPartition(topic, 0),
                    OffsetSpec.earliest(),
                    new TopicPartition(topic, 1),
                    OffsetSpec.earliest());
            return admin.listOffsets(earliest).all().get(1, TimeUnit.MINUTES).values().stream()
                    .anyMatch(offset -> offset.offset() > 0);
        }
    }

    /** Line {@code i} of the input: {@value #WORDS_PER_LINE} words, the same for the same {@code i}. */
    private static String line(int i) {
        Random random = new Random(i);
        List<String> words = new ArrayList<>();
        for (int w = 0; w < WORDS_PER_LINE; w++) {
            words.add(WORDS.get(random.nextInt(WORDS.size())));
        }
        return String.join(" ", words);
    }

    /** The output read read_committed from the start: each word's counts in the order they were committed. */
    private static final class Counts implements AutoCloseable {
        private final KafkaConsumer<String, Long> consumer;
        private final Map<String, List<Long>> counts = new TreeMap<>();
        private int total;

        Counts(String bootstrap) {
            Properties props = new Properties();
            props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
            consumer = new KafkaConsumer<>(props, new StringDeserializer(), new LongDeserializer());
            List<TopicPartition> partitions = List.of(
                    new TopicPartition(WordCountApplication.OUTPUT, 0),
                    new TopicPartition(WordCountApplication.OUTPUT, 1));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        }

        // The bound only keeps a run that stalls from hanging the build.
        void readUntil(BooleanSupplier condition, KrabkaProcess application) throws Exception {
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (!condition.getAsBoolean()) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("after " + BOUND + ": " + counts + "\n" + application.describe());
                }
                poll();
            }
        }

        void drain() {
            for (int polls = 0; polls < 10; polls++) {
                poll();
            }
        }

        private void poll() {
            for (ConsumerRecord<String, Long> record : consumer.poll(Duration.ofMillis(100))) {
                counts.computeIfAbsent(record.key(), word -> new ArrayList<>()).add(record.value());
                total++;
            }
        }

        int total() {
            return total;
        }

        /** Whether every word has been counted as many times as it was written (or more). */
        boolean reached(Map<String, Long> written) {
            return written.entrySet().stream().allMatch(entry -> {
                List<Long> seen = counts.get(entry.getKey());
                return seen != null && seen.getLast() >= entry.getValue();
            });
        }

        List<Long> of(String word) {
            return counts.getOrDefault(word, List.of());
        }

        java.util.Set<String> words() {
            return counts.keySet();
        }

        @Override
        public void close() {
            consumer.close();
        }
    }
}
