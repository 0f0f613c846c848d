package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kafka-clients' own producer (idempotent with acks=all, each codec) and consumer (assigned partitions: ListOffsets for the
 * reset, Fetch with incremental sessions and topic ids) against the data plane: every acknowledged record is read
 * back once, in order, at the offset the producer was told.
 */
class KafkaClientsIT {

    private static final int RECORDS = 2000;

    @RegisterExtension
    final DataPlane plane = DataPlane.perTest("orders", 3, Map.of());

    @ParameterizedTest
    @CsvSource({"all, none", "1, lz4", "all, zstd", "all, gzip"})
    void everyAcknowledgedRecordIsConsumedOnceInOrder(String acks, String compression) throws Exception {
        Map<TopicPartition, List<Long>> acknowledged = new HashMap<>();
        Properties producerProps = new Properties();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, plane.bootstrap());
        producerProps.put(ProducerConfig.ACKS_CONFIG, acks);
        producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, String.valueOf(acks.equals("all")));
        producerProps.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        producerProps.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                sends.add(producer.send(new ProducerRecord<>("orders", i % 3, "k" + i, "v" + i)));
            }
            for (Future<RecordMetadata> send : sends) {
                RecordMetadata metadata = send.get();
                acknowledged
                        .computeIfAbsent(new TopicPartition("orders", metadata.partition()), p -> new ArrayList<>())
                        .add(metadata.offset());
            }
        }
        Properties consumerProps = new Properties();
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, plane.bootstrap());
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerProps.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, "4096");
        Map<TopicPartition, List<ConsumerRecord<String, String>>> consumed = new HashMap<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(consumerProps, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = List.of(
                    new TopicPartition("orders", 0), new TopicPartition("orders", 1), new TopicPartition("orders", 2));
            consumer.assign(partitions);
            int total = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (total < RECORDS && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    consumed.computeIfAbsent(
                                    new TopicPartition(record.topic(), record.partition()), p -> new ArrayList<>())
                            .add(record);
                    total++;
                }
            }
            assertEquals(RECORDS, total);
            Map<TopicPartition, Long> ends = new HashMap<>();
            acknowledged.forEach((partition, offsets) -> ends.put(partition, (long) offsets.size()));
            assertEquals(ends, consumer.endOffsets(partitions));
            assertEquals(1, plane.fetchManager.cache().size(), "the consumer fetches in an incremental session");
        }
        for (int p = 0; p < 3; p++) {
            TopicPartition partition = new TopicPartition("orders", p);
            List<ConsumerRecord<String, String>> records = consumed.get(partition);
            List<Long> offsets = records.stream().map(ConsumerRecord::offset).toList();
            assertEquals(acknowledged.get(partition), offsets, "each acknowledged offset read once, in order");
            for (int i = 0; i < records.size(); i++) {
                assertEquals(i, records.get(i).offset());
                assertEquals("v" + (p + 3 * i), records.get(i).value());
            }
        }
    }
}
