package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.testservers.faults.InjectedFaults;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * I/O errors other than a full disk, injected beneath the broker's JVM ({@link InjectedFaults}: the process runs on a
 * file system that fails writes and fsyncs where the test says, as a failing disk does), Krabka and Kafka 4.4 put
 * through the same scenario: a broker with two log directories loses the one where a write failed (EIO) — the
 * produce answers KAFKA_STORAGE_ERROR, the partition has no leader, DescribeLogDirs (the Admin client's and Kafka's
 * {@code kafka-log-dirs.sh}) reports the directory offline — and serves the other on; when an fsync fails in the last
 * one, the broker stops by itself (Krabka with exit code 6, Kafka halts with 1). Krabka, restarted on a disk that
 * works again, has every acknowledged record at its offset, and Kafka's DumpLogSegments finds the recovered
 * partitions whole.
 */
@ResourceLock(ReferenceKafka.BROKER_LOCK)
class LogDirFailureIT {
    private static final String KAFKA = "4.4.0";
    private static final int RECORDS = 20;
    private static final List<String> TOPICS = List.of("alpha", "beta");

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path work;

    /** Where the test's two partitions are, one in each log directory. */
    private record Placement(TopicPartition onFirst, TopicPartition onSecond) {}

    @Test
    void anIoErrorTakesItsLogDirectoryOfflineAndTheLastOneStopsTheBroker() throws Exception {
        Path control = work.resolve("faults");
        Path brokerDir = work.resolve("broker");
        Path first = brokerDir.resolve("data-1");
        Path second = brokerDir.resolve("data-2");
        try (KrabkaBroker broker = KrabkaBroker.onLogDirs(
                brokerDir, List.of(first, second), Map.of("KRABKA_JAVA_OPTS", InjectedFaults.jvmOptions(control)))) {
            String bootstrap = broker.bootstrapServers();
            Map<TopicPartition, List<Long>> acked = new HashMap<>();
            Placement placement = loseTheSecondDirectory(bootstrap, first, second, control, acked);
            assertTrue(
                    broker.metrics().contains("kafka_log_logmanager_offlinelogdirectorycount_value 1"),
                    broker.metrics());

            loseTheLastDirectory(bootstrap, placement, control, first);
            assertEquals(6, broker.awaitExit(), broker.describe());
            assertTrue(broker.describe().contains("Shutdown broker because all log dirs in"), broker.describe());

            InjectedFaults.clear(control);
            broker.start();
            try (Admin admin = admin(broker.bootstrapServers())) {
                Map<String, LogDirDescription> dirs = describe(admin);
                assertNull(dirs.get(first.toString()).error(), dirs.toString());
                assertNull(dirs.get(second.toString()).error(), dirs.toString());
            }
            for (Map.Entry<TopicPartition, List<Long>> partition : acked.entrySet()) {
                assertAcked(broker.bootstrapServers(), partition.getKey(), partition.getValue());
            }
            assertEquals(0, broker.stop());
            List<Path> files = new ArrayList<>(
                    PartitionFiles.scan(first.resolve(placement.onFirst().toString()))
                            .dumpable());
            files.addAll(PartitionFiles.scan(second.resolve(placement.onSecond().toString()))
                    .dumpable());
            assertEquals(
                    List.of(),
                    new DumpLogSegments(work.resolve("dump")).check(files).errors(),
                    "Kafka's DumpLogSegments on the recovered partitions");
        }
    }

    @Test
    void kafkaAnswersTheSame() throws Exception {
        Path control = work.resolve("kafka-faults");
        Path kafkaDir = work.resolve("kafka");
        Path first = kafkaDir.resolve("data-1");
        Path second = kafkaDir.resolve("data-2");
        ReferenceKafka kafka = ReferenceKafka.startOnInjectedFaults(
                KAFKA, kafkaDir, Map.of("log.dirs", first + "," + second), control);
        try {
            Placement placement =
                    loseTheSecondDirectory(kafka.bootstrapServers(), first, second, control, new HashMap<>());
            loseTheLastDirectory(kafka.bootstrapServers(), placement, control, first);
            assertEquals(1, kafka.awaitExit(), "Kafka halts when no log directory is left");
        } finally {
            kafka.close();
        }
    }

    /**
     * Both partitions take records; then writes fail in the second directory: the produce there answers
     * KAFKA_STORAGE_ERROR, the directory is reported offline, its partition has no leader, and the partition in the
     * first directory serves on.
     */
    private Placement loseTheSecondDirectory(
            String bootstrap, Path first, Path second, Path control, Map<TopicPartition, List<Long>> acked)
            throws Exception {
        Placement placement;
        try (Admin admin = admin(bootstrap)) {
            Map<String, LogDirDescription> dirs = createTopics(admin);
            assertEquals(2, dirs.size(), dirs.toString());
            placement = new Placement(
                    onlyPartition(dirs.get(first.toString())), onlyPartition(dirs.get(second.toString())));
            assertTrue(dirs.get(second.toString()).totalBytes().orElse(0) > 0, dirs.toString());
        }
        for (TopicPartition partition : List.of(placement.onFirst(), placement.onSecond())) {
            acked.put(partition, produce(bootstrap, partition, 0, RECORDS));
        }

        InjectedFaults.failWritesUnder(control, second);
        ExecutionException refused = assertThrows(
                ExecutionException.class, () -> produce(bootstrap, placement.onSecond(), RECORDS, RECORDS + 1));
        assertInstanceOf(KafkaStorageException.class, refused.getCause(), refused.toString());
        try (Admin admin = admin(bootstrap)) {
            LogDirDescription offline = awaitOffline(admin, second);
            assertTrue(offline.replicaInfos().isEmpty(), offline.toString());
            assertTrue(offline.totalBytes().isEmpty() && offline.usableBytes().isEmpty(), offline.toString());
            LogDirDescription online = describe(admin).get(first.toString());
            assertNull(online.error(), online.toString());
            assertEquals(List.of(placement.onFirst()), testPartitions(online));
            awaitNoLeader(admin, placement.onSecond());
        }
        ExecutionException stillRefused = assertThrows(
                ExecutionException.class, () -> produce(bootstrap, placement.onSecond(), RECORDS, RECORDS + 1));
        assertInstanceOf(TimeoutException.class, stillRefused.getCause(), "no leader to send to: " + stillRefused);
        String tool = new KafkaTools(work.resolve("kafka-tools"), KAFKA, List.of())
                .run(
                        "log-dirs",
                        List.of("org.apache.kafka.tools.LogDirsCommand", "--bootstrap-server", bootstrap, "--describe"),
                        null)
                .out();
        assertTrue(
                tool.contains("{\"partitions\":[],\"error\":\"" + KafkaStorageException.class.getName()
                        + "\",\"logDir\":\"" + second + "\"}"),
                tool);
        assertTrue(tool.contains("\"error\":null,\"logDir\":\"" + first + "\"}"), tool);
        assertTrue(tool.contains("{\"partition\":\"" + placement.onFirst() + "\",\"size\":"), tool);

        acked.get(placement.onFirst()).addAll(produce(bootstrap, placement.onFirst(), RECORDS, 2 * RECORDS));
        assertAcked(bootstrap, placement.onFirst(), acked.get(placement.onFirst()));
        return placement;
    }

    /** An fsync fails in the first directory, the last one left: the produce there is refused. */
    private static void loseTheLastDirectory(String bootstrap, Placement placement, Path control, Path first)
            throws Exception {
        InjectedFaults.failFsyncUnder(control, first);
        assertThrows(
                ExecutionException.class, () -> produce(bootstrap, placement.onFirst(), 2 * RECORDS, 2 * RECORDS + 1));
    }

    private static void awaitNoLeader(Admin admin, TopicPartition partition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (true) {
            TopicPartitionInfo info = admin.describeTopics(List.of(partition.topic()))
                    .allTopicNames()
                    .get(1, TimeUnit.MINUTES)
                    .get(partition.topic())
                    .partitions()
                    .get(partition.partition());
            if (info.leader() == null || System.nanoTime() > deadline) {
                assertNull(info.leader(), partition + " " + info);
                return;
            }
            Thread.sleep(100);
        }
    }

    /**
     * Creates the test's topics, every append flushed (so the fsync that fails is the produce's own), and returns
     * the log directories once both partitions are in them.
     */
    private static Map<String, LogDirDescription> createTopics(Admin admin) throws Exception {
        admin.createTopics(TOPICS.stream()
                        .map(topic -> new NewTopic(topic, 1, (short) 1).configs(Map.of("flush.messages", "1")))
                        .toList())
                .all()
                .get(1, TimeUnit.MINUTES);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (true) {
            Map<String, LogDirDescription> dirs = describe(admin);
            int placed = dirs.values().stream()
                    .mapToInt(dir -> testPartitions(dir).size())
                    .sum();
            if (placed == TOPICS.size() || System.nanoTime() > deadline) {
                return dirs;
            }
            Thread.sleep(100);
        }
    }

    // The test's partition the directory holds (the broker's internal topics are in one of them too).
    private static TopicPartition onlyPartition(LogDirDescription dir) {
        assertNull(dir.error(), dir.toString());
        List<TopicPartition> ours = testPartitions(dir);
        assertEquals(1, ours.size(), dir.toString());
        return ours.getFirst();
    }

    private static List<TopicPartition> testPartitions(LogDirDescription dir) {
        return dir.replicaInfos().keySet().stream()
                .filter(p -> TOPICS.contains(p.topic()))
                .toList();
    }

    private static LogDirDescription awaitOffline(Admin admin, Path dir) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (true) {
            LogDirDescription description = describe(admin).get(dir.toString());
            if (description.error() != null || System.nanoTime() > deadline) {
                assertInstanceOf(KafkaStorageException.class, description.error(), description.toString());
                return description;
            }
            Thread.sleep(100);
        }
    }

    private static Map<String, LogDirDescription> describe(Admin admin) throws Exception {
        return admin.describeLogDirs(List.of(1))
                .allDescriptions()
                .get(1, TimeUnit.MINUTES)
                .get(1);
    }

    /** Sends records {@code [from, to)} one at a time, each acknowledged before the next; returns their offsets. */
    private static List<Long> produce(String bootstrap, TopicPartition partition, int from, int to) throws Exception {
        List<Long> offsets = new ArrayList<>();
        // No retries: the first answer is the one the test checks.
        try (Producer<byte[], byte[]> producer = TestProducers.create(
                bootstrap,
                Map.of(
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        false,
                        ProducerConfig.RETRIES_CONFIG,
                        0,
                        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                        10_000,
                        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                        5_000))) {
            for (int n = from; n < to; n++) {
                offsets.add(producer.send(new ProducerRecord<>(
                                partition.topic(), partition.partition(), null, value(partition, n)))
                        .get(1, TimeUnit.MINUTES)
                        .offset());
            }
        }
        assertEquals(to - from, offsets.size());
        return offsets;
    }

    /** Record {@code n} of each acknowledged is at the offset it was acknowledged at. */
    private static void assertAcked(String bootstrap, TopicPartition partition, List<Long> offsets) {
        Map<Long, String> read = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), Duration.ofMinutes(1))
                    .get(partition);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (consumer.position(partition) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    read.put(record.offset(), new String(record.value(), StandardCharsets.UTF_8));
                }
            }
        }
        for (int n = 0; n < offsets.size(); n++) {
            assertEquals(
                    new String(value(partition, n), StandardCharsets.UTF_8),
                    read.get(offsets.get(n)),
                    partition + ": acknowledged record " + n + " at offset " + offsets.get(n));
        }
    }

    private static byte[] value(TopicPartition partition, int n) {
        return (partition + "#" + n).getBytes(StandardCharsets.UTF_8);
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                60_000,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                20_000));
    }
}
