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
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Exactly once across a crash of the application: {@link TransactionalCopyApplication} (a read_committed consumer
 * and a transactional producer committing the consumer's offsets with {@code sendOffsetsToTransaction}) runs in a
 * child JVM against Krabka's broker while its input keeps arriving, is killed outright (SIGKILL) with a transaction
 * open, and is started again with the same transactional id, which aborts it: the output, read_committed, holds each
 * input record exactly once.
 */
class TransactionalCopyIT {
    private static final int MOST_RECORDS = 20_000;
    private static final Duration BOUND = Duration.ofMinutes(2);

    @Test
    void eachInputIsCopiedExactlyOnceAcrossAKill() throws Exception {
        Path work = Path.of(System.getProperty(KafkaLogs.WORK_PROPERTY), "transactional-copy");
        KafkaLogWriter.deleteRecursively(work);
        List<String> copied = new ArrayList<>();
        int records;
        try (KrabkaBroker broker =
                KrabkaBroker.start(work.resolve("broker"), Map.of("group.initial.rebalance.delay.ms", "0"))) {
            String bootstrap = broker.bootstrapServers();
            broker.createTopics(2, TransactionalCopyApplication.INPUT, TransactionalCopyApplication.OUTPUT);
            List<String> args = List.of(bootstrap, "copier-1");
            KrabkaProcess application = null;
            try (PacedInput input = PacedInput.start(
                            bootstrap, TransactionalCopyApplication.INPUT, i -> "record-" + i, MOST_RECORDS);
                    KafkaConsumer<String, String> output = outputConsumer(bootstrap)) {
                application = ChildJvm.start(work, "copy-1", TransactionalCopyApplication.class, args);
                readUntil(output, copied, () -> copied.size() >= 300, application);
                assertEquals(Set.of("copier-1"), OpenTransactions.killInOne(application, bootstrap));
                assertTrue(input.written() < MOST_RECORDS, "the input still arrived when the application was killed");
                int atKill = copied.size();
                application = ChildJvm.start(work, "copy-2", TransactionalCopyApplication.class, args);
                readUntil(output, copied, () -> copied.size() >= atKill + 300, application);
                records = input.stop();
                int written = records;
                readUntil(output, copied, () -> copied.size() >= written, application);
                // A copy committed twice would show here.
                drain(output, copied);
            } finally {
                if (application != null) {
                    application.close();
                }
            }
        }
        Map<String, Integer> copies = new HashMap<>();
        copied.forEach(value -> copies.merge(value, 1, Integer::sum));
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            String expected = TransactionalCopyApplication.transform("record-" + i);
            int count = copies.getOrDefault(expected, 0);
            if (count != 1) {
                wrong.add(expected + " copied " + count + " times");
            }
        }
        assertEquals(List.of(), wrong);
        assertEquals(records, copied.size());
    }

    private static KafkaConsumer<String, String> outputConsumer(String bootstrap) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
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
