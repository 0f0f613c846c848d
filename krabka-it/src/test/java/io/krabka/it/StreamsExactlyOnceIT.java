package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A Kafka Streams application with {@code processing.guarantee=exactly_once_v2} against Krabka's broker, as the
 * issue asks: {@link WordCountApplication} (a repartition by word, a persistent state store) in a child JVM, killed
 * outright (SIGKILL) while its input is still being written and started again on the same state directory, then the
 * broker killed outright and started again under it, more input written after each. Every word's counts, read
 * read_committed from the output, are exactly 1, 2, ... N for the N times it was written: nothing counted twice,
 * nothing lost, no count of an aborted transaction seen. Streams deletes what it committed of its repartition topic
 * (DeleteRecords) as it goes.
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
    private static final Duration BOUND = Duration.ofMinutes(3);

    private final Map<String, Long> written = new TreeMap<>();
    private final Random random = new Random(15);

    @Test
    void countsAreExactAcrossAKilledApplicationAndAKilledBroker() throws Exception {
        Path work = Path.of(System.getProperty(KafkaLogs.WORK_PROPERTY), "streams-exactly-once");
        Path stateDir = work.resolve("state");
        try (KrabkaBroker broker =
                KrabkaBroker.start(work.resolve("broker"), Map.of("group.initial.rebalance.delay.ms", "0"))) {
            String bootstrap = broker.bootstrapServers();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(
                                new NewTopic(WordCountApplication.INPUT, 2, (short) 1),
                                new NewTopic(WordCountApplication.OUTPUT, 2, (short) 1)))
                        .all()
                        .get(1, TimeUnit.MINUTES);
            }
            List<String> args = List.of(bootstrap, stateDir.toString());
            List<String> lines = lines(1_500);
            CompletableFuture<Void> input = CompletableFuture.runAsync(() -> write(bootstrap, lines));
            KrabkaProcess application = ChildJvm.start(work, "word-count-1", WordCountApplication.class, args);
            Counts counts = new Counts(bootstrap);
            try (counts) {
                counts.readUntil(() -> counts.total() >= 1_000, application);
                application.signal("KILL");
                application.awaitExit();
                assertTrue(
                        counts.total() < lines.size() * WORDS_PER_LINE,
                        "the application was killed mid-stream, " + counts.total() + " words counted");
                application = ChildJvm.start(work, "word-count-2", WordCountApplication.class, args);
                input.get(1, TimeUnit.MINUTES);
                counts.readUntil(() -> counts.reached(written), application);

                broker.kill();
                broker.start();
                write(bootstrap, lines(500));
                counts.readUntil(() -> counts.reached(written), application);
                // A count committed twice would show here.
                counts.drain();
            } finally {
                application.close();
            }
            List<String> wrong = new ArrayList<>();
            written.forEach((word, times) -> {
                List<Long> expected = LongStream.rangeClosed(1, times).boxed().toList();
                List<Long> seen = counts.of(word);
                if (!expected.equals(seen)) {
                    wrong.add(word + " written " + times + " times, counted " + seen);
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

    private List<String> lines(int count) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            List<String> words = new ArrayList<>();
            for (int w = 0; w < WORDS_PER_LINE; w++) {
                String word = WORDS.get(random.nextInt(WORDS.size()));
                words.add(word);
                written.merge(word, 1L, Long::sum);
            }
            lines.add(String.join(" ", words));
        }
        return lines;
    }

    // The lines in small batches (the pause is pacing, so that the application is killed with input still coming).
    private static void write(String bootstrap, List<String> lines) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < lines.size(); i++) {
                producer.send(new ProducerRecord<>(WordCountApplication.INPUT, lines.get(i)));
                if (i % 50 == 49) {
                    producer.flush();
                    Thread.sleep(50);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing the input", e);
        }
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
