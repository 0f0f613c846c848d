package io.krabka.it;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A consume-transform-produce loop as Kafka's exactly-once examples write it, run by {@link TransactionalCopyIT} in
 * a child JVM: a read_committed consumer of {@value #INPUT} in group {@value #GROUP}, and a transactional producer
 * that writes each record, transformed, to {@value #OUTPUT} and commits the consumer's offsets in the same
 * transaction ({@code sendOffsetsToTransaction}). Killed at any point and started again with the same
 * transactional id, it copies each input record exactly once.
 *
 * <p>Arguments: the bootstrap servers and the transactional id.
 */
public final class TransactionalCopyApplication {
    static final String INPUT = "copy-input";
    static final String OUTPUT = "copy-output";
    static final String GROUP = "copier";

    private TransactionalCopyApplication() {}

    /** What the loop makes of an input value. */
    static String transform(String value) {
        return "copied " + value;
    }

    public static void main(String[] args) {
        Properties consumerProps = new Properties();
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
        consumerProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerProps.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 50);
        // A killed instance's member leaves the group when its session ends: a short one lets the next start soon.
        consumerProps.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6_000);
        consumerProps.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 1_000);
        Properties producerProps = new Properties();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        producerProps.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, args[1]);
        try (KafkaConsumer<String, String> consumer =
                        new KafkaConsumer<>(consumerProps, new StringDeserializer(), new StringDeserializer());
                KafkaProducer<String, String> producer =
                        new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
            // Fences the producer of a killed instance and aborts the transaction it left open.
            producer.initTransactions();
            consumer.subscribe(List.of(INPUT));
            while (true) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(100));
                if (records.isEmpty()) {
                    continue;
                }
                producer.beginTransaction();
                Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
                for (ConsumerRecord<String, String> record : records) {
                    producer.send(new ProducerRecord<>(OUTPUT, record.key(), transform(record.value())));
                    next.put(
                            new TopicPartition(record.topic(), record.partition()),
                            new OffsetAndMetadata(record.offset() + 1));
                }
                producer.sendOffsetsToTransaction(next, consumer.groupMetadata());
                producer.commitTransaction();
            }
        }
    }
}
