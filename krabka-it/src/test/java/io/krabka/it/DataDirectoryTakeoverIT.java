package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * No lock-in: Apache Kafka 4.4 and Krabka take over each other's log directory as it is. Krabka, on its defaults
 * (tiered storage on, the {@code local} tier in {@code <log dir>-tiered} and the {@code topic} metadata manager),
 * writes topics with configs, an idempotent producer's records and a consumer group's commits; Kafka starts on the
 * directory and serves every record and commit; Krabka takes it back and goes on producing at the next offsets; and
 * Kafka once more. This Kafka runs with tiered storage off, as a plain broker would, so the tiered topic keeps its
 * segments locally too, and what must hold is that Kafka starts and serves those; {@link KafkaTieredTakeoverIT} has
 * Kafka tier and read the tier.
 */
@ResourceLock(ReferenceKafka.BROKER_LOCK)
class DataDirectoryTakeoverIT {

    private static final String PLAIN = "plain";
    private static final String TIERED = "tiered";
    private static final String GROUP = "takeover";
    private static final Map<String, String> PLAIN_CONFIGS =
            Map.of("retention.ms", "864000000", "max.message.bytes", "200000");
    // Rolled segments are copied to the tier at once and stay local as long as retention keeps them.
    private static final Map<String, String> TIERED_CONFIGS =
            Map.of("remote.storage.enable", "true", "segment.bytes", "1048576", "local.retention.ms", "-2");
    private static final Map<String, String> KRABKA = Map.of("remote.log.manager.task.interval.ms", "500");
    private static final int BATCH = 3000;
    private static final byte[] PAYLOAD = new byte[512];

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path work;

    @Test
    void kafkaTakesOverKrabkasDirectoryAndKrabkaTakesItBack() throws Exception {
        int controllerPort = ReferenceKafka.freePort();
        Map<String, List<String>> written = new TreeMap<>();
        Map<TopicPartition, Long> committed = new HashMap<>();
        Path krabkaDir = work.resolve("krabka");
        try (KrabkaBroker krabka =
                KrabkaBroker.start(krabkaDir, KRABKA, KrabkaBroker.formattedForController(krabkaDir, controllerPort))) {
            createTopics(krabka.bootstrapServers());
            produce(krabka.bootstrapServers(), written, 0);
            consumeAndCommit(krabka.bootstrapServers(), BATCH, committed);
            awaitTiered(krabka.tieredStorageDir());
            assertEquals(0, krabka.stop(), "Krabka's exit code");
        }
        assertOnlyWhatKafkaAccepts(krabkaDir.resolve("data"));

        Path kafkaDir = work.resolve("kafka-1");
        try (ReferenceKafka kafka = startKafka(kafkaDir, krabkaDir.resolve("data"), controllerPort)) {
            assertEverything(kafka.bootstrapServers(), written, committed, "Kafka on Krabka's directory");
            produce(kafka.bootstrapServers(), written, 1);
            consumeAndCommit(kafka.bootstrapServers(), 2 * BATCH, committed);
        }

        // Back to Krabka: Kafka's metadata log, commits and producer state, and Krabka's tier beside them.
        Path back = work.resolve("krabka-2");
        try (KrabkaBroker krabka = KrabkaBroker.start(back, KRABKA, (bin, logDir) -> {
            FileTrees.copy(kafkaDir.resolve("data"), logDir);
            FileTrees.copy(krabkaDir.resolve("data-tiered"), logDir.resolveSibling("data-tiered"));
        })) {
            assertEverything(krabka.bootstrapServers(), written, committed, "Krabka on Kafka's directory");
            produce(krabka.bootstrapServers(), written, 2);
            assertEquals(written, readAll(krabka.bootstrapServers()), "Krabka produces at the next offsets");
            assertEquals(0, krabka.stop(), "Krabka's exit code");
        }
        assertOnlyWhatKafkaAccepts(back.resolve("data"));

        try (ReferenceKafka kafka = startKafka(work.resolve("kafka-2"), back.resolve("data"), controllerPort)) {
            assertEverything(kafka.bootstrapServers(), written, committed, "Kafka on the directory once more");
        }
    }

    @Test
    void krabkaTakesOverADirectoryKafkaFormattedAndWrote() throws Exception {
        Map<String, List<String>> written = new TreeMap<>();
        Map<TopicPartition, Long> committed = new HashMap<>();
        Path kafkaDir = work.resolve("kafka");
        try (ReferenceKafka kafka = ReferenceKafka.start(KafkaLogWriter.KAFKA_VERSION, kafkaDir, Map.of())) {
            try (Admin admin = admin(kafka.bootstrapServers())) {
                admin.createTopics(List.of(
                                new NewTopic(PLAIN, 2, (short) 1).configs(PLAIN_CONFIGS),
                                new NewTopic(TIERED, 1, (short) 1)))
                        .all()
                        .get(30, TimeUnit.SECONDS);
            }
            produce(kafka.bootstrapServers(), written, 0);
            consumeAndCommit(kafka.bootstrapServers(), BATCH, committed);
        }
        try (KrabkaBroker krabka = KrabkaBroker.start(
                work.resolve("krabka"), KRABKA, (bin, logDir) -> FileTrees.copy(kafkaDir.resolve("data"), logDir))) {
            assertEquals(written, readAll(krabka.bootstrapServers()), "Krabka on Kafka's directory: the records");
            try (Admin admin = admin(krabka.bootstrapServers())) {
                assertEquals(committed, committedOffsets(admin), "Krabka on Kafka's directory: the commits");
                assertEquals(PLAIN_CONFIGS, topicConfigs(admin, PLAIN), "Krabka on Kafka's directory: the configs");
            }
            produce(krabka.bootstrapServers(), written, 1);
            assertEquals(written, readAll(krabka.bootstrapServers()), "Krabka produces at the next offsets");
        }
    }

    private static ReferenceKafka startKafka(Path kafkaDir, Path logDir, int controllerPort) throws Exception {
        return ReferenceKafka.start(
                KafkaLogWriter.KAFKA_VERSION,
                kafkaDir,
                Map.of(),
                (config, kafkaLogDir, controllerListener) -> FileTrees.copy(logDir, kafkaLogDir),
                controllerPort);
    }

    private static void assertEverything(
            String bootstrap, Map<String, List<String>> written, Map<TopicPartition, Long> committed, String where)
            throws Exception {
        assertEquals(written, readAll(bootstrap), where + ": the records");
        try (Admin admin = admin(bootstrap)) {
            assertEquals(committed, committedOffsets(admin), where + ": the committed offsets");
            assertEquals(PLAIN_CONFIGS, topicConfigs(admin, PLAIN), where + ": " + PLAIN + "'s configs");
            assertEquals(TIERED_CONFIGS, topicConfigs(admin, TIERED), where + ": " + TIERED + "'s configs");
        }
    }

    private static Map<TopicPartition, Long> committedOffsets(Admin admin) throws Exception {
        return admin
                .listConsumerGroupOffsets(GROUP)
                .partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS)
                .entrySet()
                .stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    private static void createTopics(String bootstrap) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            admin.createTopics(List.of(
                            new NewTopic(PLAIN, 2, (short) 1).configs(PLAIN_CONFIGS),
                            new NewTopic(TIERED, 1, (short) 1).configs(TIERED_CONFIGS)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
    }

    /** {@link #BATCH} records to each partition, one idempotent producer, appended to {@code written}. */
    private static void produce(String bootstrap, Map<String, List<String>> written, int round) throws Exception {
        try (Producer<byte[], byte[]> producer = TestProducers.create(bootstrap, Map.of())) {
            List<java.util.concurrent.Future<RecordMetadata>> sent = new ArrayList<>();
            for (String topic : List.of(PLAIN, TIERED)) {
                int partitions = topic.equals(PLAIN) ? 2 : 1;
                for (int partition = 0; partition < partitions; partition++) {
                    for (int i = 0; i < BATCH; i++) {
                        String value = topic + "-" + partition + " round " + round + " #" + i;
                        byte[] bytes = (value + "|").getBytes(StandardCharsets.UTF_8);
                        byte[] padded = topic.equals(TIERED) ? concat(bytes, PAYLOAD) : bytes;
                        sent.add(producer.send(new ProducerRecord<>(topic, partition, null, padded)));
                        written.computeIfAbsent(topic + "-" + partition, k -> new ArrayList<>())
                                .add(value);
                    }
                }
            }
            for (var future : sent) {
                future.get(2, TimeUnit.MINUTES);
            }
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /**
     * A classic consumer group reads {@code count} more records of {@value #PLAIN} and commits where it got to;
     * {@code committed} gets those commits.
     */
    private static void consumeAndCommit(String bootstrap, int count, Map<TopicPartition, Long> committed) {
        Map<String, Object> config = new HashMap<>(consumerConfig(bootstrap));
        config.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(PLAIN));
            Map<TopicPartition, Long> next = new HashMap<>();
            int read = 0;
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (read < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    next.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
                    read++;
                }
            }
            assertTrue(read >= count, "read " + read + " of " + count + " records from " + bootstrap);
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            next.forEach(
                    (partition, offset) -> commit.put(partition, new OffsetAndMetadata(offset, "from " + bootstrap)));
            consumer.commitSync(commit);
            committed.putAll(next);
        }
    }

    /** Every record of both topics by partition, from the log start to the end. */
    private static Map<String, List<String>> readAll(String bootstrap) {
        Map<String, List<String>> read = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                consumerConfig(bootstrap), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions =
                    List.of(new TopicPartition(PLAIN, 0), new TopicPartition(PLAIN, 1), new TopicPartition(TIERED, 0));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofMinutes(1));
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    String value = new String(record.value(), StandardCharsets.UTF_8);
                    read.computeIfAbsent(record.topic() + "-" + record.partition(), k -> new ArrayList<>())
                            .add(value.substring(0, value.indexOf('|')));
                }
            }
        }
        return read;
    }

    private static Map<String, String> topicConfigs(Admin admin, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        return admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource).entries().stream()
                .filter(e -> e.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG)
                .collect(Collectors.toMap(ConfigEntry::name, ConfigEntry::value));
    }

    /** Waits until the local tier holds a copied segment of the tiered topic. */
    private static void awaitTiered(Path tieredStorageDir) throws Exception {
        Path tier = tieredStorageDir.resolve("kafka-tiered-storage");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            if (Files.isDirectory(tier)) {
                try (Stream<Path> files = Files.walk(tier)) {
                    if (files.anyMatch(f -> f.toString().endsWith(".log"))) {
                        return;
                    }
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no segment was tiered to " + tier);
    }

    /** Partitions, {@code __cluster_metadata-0}, the remote index cache and files: what Kafka's LogManager accepts. */
    private static void assertOnlyWhatKafkaAccepts(Path logDir) throws IOException {
        try (Stream<Path> children = Files.list(logDir)) {
            Set<String> dirs = children.filter(Files::isDirectory)
                    .map(d -> d.getFileName().toString())
                    .filter(name -> !name.matches(".+-\\d+") && !name.equals("remote-log-index-cache"))
                    .collect(Collectors.toSet());
            assertTrue(dirs.isEmpty(), "Kafka's LogManager refuses " + dirs + " in " + logDir);
        }
    }

    private static Map<String, Object> consumerConfig(String bootstrap) {
        return Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                60_000));
    }
}
