package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Exactly once across a crash of the application: {@link TransactionalCopyApplication} (a read_committed consumer
 * and a transactional producer committing the consumer's offsets with {@code sendOffsetsToTransaction}) runs in a
 * child JVM against Krabka's broker while the input is still being written, is killed outright (SIGKILL) once
 * some output is committed, and is started again with the same transactional id: the output, read_committed, holds
 * each input record exactly once.
 */
class TransactionalCopyIT {
    private static final int RECORDS = 3_000;
    private static final Duration BOUND = Duration.ofMinutes(2);

    @Test
    void eachInputIsCopiedExactlyOnceAcrossAKill() throws Exception {
        Path work = Path.of(System.getProperty(KafkaLogs.WORK_PROPERTY), "transactional-copy");
        try (KrabkaBroker broker =
                KrabkaBroker.start(work.resolve("broker"), Map.of("group.initial.rebalance.delay.ms", "0"))) {
            String bootstrap = broker.bootstrapServers();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(
                                new NewTopic(TransactionalCopyApplication.INPUT, 2, (short) 1),
                                new NewTopic(TransactionalCopyApplication.OUTPUT, 2, (short) 1)))
                        .all()
                        .get(1, TimeUnit.MINUTES);
            }
            List<String> args = List.of(bootstrap, "copier-1");
            CompletableFuture<Void> input = CompletableFuture.runAsync(() -> produceInput(bootstrap));
            KrabkaProcess application = ChildJvm.start(work, "copy-1", TransactionalCopyApplication.class, args);
            List<String> copied = new ArrayList<>();
            try (KafkaConsumer<String, String> output = outputConsumer(bootstrap, IsolationLevel.READ_COMMITTED)) {
                readUntil(output, copied, () -> copied.size() >= RECORDS / 5, application);
                application.signal("KILL");
                application.awaitExit();
                assertTrue(
                        copied.size() < RECORDS,
                        "the application was killed mid-stream, " + copied.size() + " records copied");
                application = ChildJvm.start(work, "copy-2", TransactionalCopyApplication.class, args);
                readUntil(output, copied, () -> copied.size() >= RECORDS, application);
                input.get(1, TimeUnit.MINUTES);
                // A copy committed twice would show here.
                drain(output, copied);
            } finally {
                application.close();
            }
            Map<String, Integer> copies = new HashMap<>();
            copied.forEach(value -> copies.merge(value, 1, Integer::sum));
            List<String> wrong = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                String expected = TransactionalCopyApplication.transform("record-" + i);
                int count = copies.getOrDefault(expected, 0);
                if (count != 1) {
                    wrong.add(expected + " copied " + count + " times");
                }
            }
            assertEquals(List.of(), wrong);
            assertEquals(RECORDS, copied.size());
        }
    }

    // The input, written while the application runs, in small batches (the pause is pacing, not a measurement).
    private static void produceInput(String bootstrap) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(TransactionalCopyApplication.INPUT, "key-" + i, "record-" + i));
                if (i % 100 == 99) {
                    producer.flush();
                    Thread.sleep(50);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing the input", e);
        }
    }

    private static KafkaConsumer<String, String> outputConsumer(String bootstrap, IsolationLevel isolation) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation.toString());
        KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
        List<TopicPartition> partitions = List.of(
                new TopicPartition(TransactionalCopyApplication.OUTPUT, 0),
                new TopicPartition(TransactionalCopyApplication.OUTPUT, 1));
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return consumer;
    }

    // Reads the output until the condition holds; the bound only keeps a run that stalls from hanging the build.
    private static void readUntil(
            KafkaConsumer<String, String> output,
            List<String> copied,
            BooleanSupplier condition,
            KrabkaProcess application)
            throws Exception {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        copied.size() + " records copied after " + BOUND + "\n" + application.describe());
            }
            poll(output, copied);
        }
    }

    // Reads whatever else the output holds now.
    private static void drain(KafkaConsumer<String, String> output, List<String> copied) {
        for (int polls = 0; polls < 10; polls++) {
            poll(output, copied);
        }
    }

    private static void poll(KafkaConsumer<String, String> output, List<String> copied) {
        for (ConsumerRecord<String, String> record : output.poll(Duration.ofMillis(100))) {
            copied.add(record.value());
        }
    }
}
