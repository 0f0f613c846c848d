package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Apache Kafka's Java producer and consumer (kafka-clients 4.4) against Krabka's broker run as a user runs it: a
 * producer on its defaults (idempotent, acks=all) sends a million records over six partitions; a group of three
 * consumers reads every one exactly once and in order per partition, through the rebalance when one leaves; the
 * group's committed offsets survive a restart; and a kill -9 in the middle of producing loses no acknowledged
 * record.
 */
class BrokerClientsIT {
    private static final int PARTITIONS = 6;
    private static final int RECORDS = 1_000_000;
    private static final Duration WAIT = Duration.ofMinutes(5);

    private static KrabkaBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = KrabkaBroker.start(
                Path.of(System.getProperty(KafkaLogs.WORK_PROPERTY), "broker-clients"),
                Map.of("group.initial.rebalance.delay.ms", "0"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aMillionRecordsAreReadExactlyOnceInOrderThroughARebalanceAndTheOffsetsOutliveARestart() throws Exception {
        createTopic("million");
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            for (int i = 0; i < RECORDS; i++) {
                int partition = i % PARTITIONS;
                producer.send(new ProducerRecord<>("million", partition, null, value(partition, i / PARTITIONS)));
            }
            producer.flush();
        }

        Map<Integer, AtomicLong> next = new ConcurrentHashMap<>();
        AtomicLong read = new AtomicLong();
        try (ExecutorService threads = Executors.newFixedThreadPool(3)) {
            List<Future<Long>> members = new ArrayList<>();
            // The third member leaves once it has read a tenth of the records; the others take its partitions.
            members.add(threads.submit(() -> consume("million", RECORDS / 10, next, read)));
            members.add(threads.submit(() -> consume("million", Long.MAX_VALUE, next, read)));
            members.add(threads.submit(() -> consume("million", Long.MAX_VALUE, next, read)));
            for (Future<Long> member : members) {
                member.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        }
        assertEquals(RECORDS, read.get(), "every record read once");
        for (int partition = 0; partition < PARTITIONS; partition++) {
            assertEquals(expectedInPartition(partition), next.get(partition).get(), "partition " + partition);
        }

        assertEquals(0, broker.stop(), "a clean stop");
        broker.start();
        try (Admin admin = admin()) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets("readers")
                    .partitionsToOffsetAndMetadata()
                    .get(1, TimeUnit.MINUTES);
            for (int partition = 0; partition < PARTITIONS; partition++) {
                assertEquals(
                        expectedInPartition(partition),
                        committed.get(new TopicPartition("million", partition)).offset(),
                        "committed " + partition);
            }
        }
    }

    @Test
    void aKillMidProduceLosesNoAcknowledgedRecord() throws Exception {
        createTopic("killed");
        Map<TopicPartition, Map<Long, byte[]>> acked = new ConcurrentHashMap<>();
        AtomicLong acks = new AtomicLong();
        KafkaProducer<byte[], byte[]> producer = producer();
        try (ExecutorService sender = Executors.newSingleThreadExecutor()) {
            Future<?> sending = sender.submit(() -> {
                for (int i = 0; !Thread.currentThread().isInterrupted(); i++) {
                    int partition = i % PARTITIONS;
                    byte[] value = value(partition, i / PARTITIONS);
                    producer.send(new ProducerRecord<>("killed", partition, null, value), (metadata, error) -> {
                        if (error == null) {
                            acked.computeIfAbsent(
                                            new TopicPartition("killed", metadata.partition()),
                                            tp -> new ConcurrentHashMap<>())
                                    .put(metadata.offset(), value);
                            acks.incrementAndGet();
                        }
                    });
                }
            });
            while (acks.get() < 50_000) {
                Thread.sleep(10);
            }
            broker.kill();
            sending.cancel(true);
        } finally {
            producer.close(Duration.ZERO);
        }

        broker.start();
        Map<TopicPartition, Map<Long, byte[]>> stored = readAll("killed");
        long checked = 0;
        for (var partition : acked.entrySet()) {
            for (var record : partition.getValue().entrySet()) {
                byte[] value = stored.getOrDefault(partition.getKey(), Map.of()).get(record.getKey());
                assertTrue(
                        value != null && ByteBuffer.wrap(value).equals(ByteBuffer.wrap(record.getValue())),
                        "acknowledged record at " + partition.getKey() + "@" + record.getKey() + " kept");
                checked++;
            }
        }
        assertTrue(checked >= 50_000, checked + " acknowledged records checked");
    }

    private static long consume(String topic, long quota, Map<Integer, AtomicLong> next, AtomicLong read) {
        long mine = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG, "readers",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    consumer.commitSync();
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}
            });
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (mine < quota && read.get() < RECORDS && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    ByteBuffer value = ByteBuffer.wrap(record.value());
                    assertEquals(record.partition(), value.getInt(), "partition in the value");
                    long expected = next.computeIfAbsent(record.partition(), p -> new AtomicLong())
                            .getAndIncrement();
                    assertEquals(
                            expected,
                            value.getLong(),
                            "record " + record.partition() + "@" + record.offset() + " in order, once");
                    mine++;
                    read.incrementAndGet();
                }
                consumer.commitSync();
            }
        }
        return mine;
    }

    private static Map<TopicPartition, Map<Long, byte[]>> readAll(String topic) throws Exception {
        Map<TopicPartition, Long> ends = new HashMap<>();
        try (Admin admin = admin()) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int partition = 0; partition < PARTITIONS; partition++) {
                latest.put(new TopicPartition(topic, partition), OffsetSpec.latest());
            }
            admin.listOffsets(latest)
                    .all()
                    .get(1, TimeUnit.MINUTES)
                    .forEach((partition, info) -> ends.put(partition, info.offset()));
        }
        Map<TopicPartition, Map<Long, byte[]>> stored = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(ends.keySet());
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (ends.entrySet().stream().anyMatch(end -> consumer.position(end.getKey()) < end.getValue())
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    stored.computeIfAbsent(new TopicPartition(topic, record.partition()), tp -> new HashMap<>())
                            .put(record.offset(), record.value());
                }
            }
        }
        return stored;
    }

    private static long expectedInPartition(int partition) {
        return (long) RECORDS / PARTITIONS + (partition < RECORDS % PARTITIONS ? 1 : 0);
    }

    private static byte[] value(int partition, long sequence) {
        return ByteBuffer.allocate(100).putInt(partition).putLong(sequence).array();
    }

    private static void createTopic(String topic) throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1)))
                    .all()
                    .get(1, TimeUnit.MINUTES);
        }
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    private static KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new ByteArraySerializer(),
                new ByteArraySerializer());
    }
}
