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
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * I/O errors other than a full disk, injected beneath the broker's JVM ({@link InjectedFaults}: the process runs on a
 * file system that fails writes and fsyncs where the test says, as a failing disk does): a broker with two log
 * directories loses the one where a write failed (EIO) — its partition answers KAFKA_STORAGE_ERROR, DescribeLogDirs
 * (the Admin client's and Kafka's {@code kafka-log-dirs.sh}) reports it offline — and serves the other on; when an
 * fsync fails in the last one, the broker stops with exit code 6. Restarted on a disk that works again, it has every
 * acknowledged record at its offset.
 */
class LogDirFailureIT {
    private static final String KAFKA = "4.4.0";
    private static final int RECORDS = 20;
    private static final List<String> TOPICS = List.of("alpha", "beta");

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path work;

    @Test
    void anIoErrorTakesItsLogDirectoryOfflineAndTheLastOneStopsTheBroker() throws Exception {
        Path control = work.resolve("faults");
        Path brokerDir = work.resolve("broker");
        Path first = brokerDir.resolve("data-1");
        Path second = brokerDir.resolve("data-2");
        try (KrabkaBroker broker = KrabkaBroker.onLogDirs(brokerDir, List.of(first, second),
                Map.of("KRABKA_JAVA_OPTS", InjectedFaults.jvmOptions(control)))) {
            String bootstrap = broker.bootstrapServers();
            Map<TopicPartition, List<Long>> acked = new HashMap<>();
            TopicPartition onSecond;
            TopicPartition onFirst;
            try (Admin admin = admin(bootstrap)) {
                // Every append flushed: the fsync that fails at the end is the produce's own.
                admin.createTopics(TOPICS.stream().map(topic -> new NewTopic(topic, 1, (short) 1)
                        .configs(Map.of("flush.messages", "1"))).toList()).all().get(1, TimeUnit.MINUTES);
                Map<String, LogDirDescription> dirs = describe(admin);
                assertEquals(2, dirs.size(), dirs.toString());
                onFirst = onlyPartition(dirs.get(first.toString()));
                onSecond = onlyPartition(dirs.get(second.toString()));
                assertTrue(dirs.get(second.toString()).totalBytes().orElse(0) > 0, dirs.toString());
            }
            for (TopicPartition partition : List.of(onFirst, onSecond)) {
                acked.put(partition, produce(bootstrap, partition, 0, RECORDS));
            }

            InjectedFaults.failWritesUnder(control, second);
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> produce(bootstrap, onSecond, RECORDS, RECORDS + 1));
            assertInstanceOf(KafkaStorageException.class, refused.getCause(), refused.toString());
            try (Admin admin = admin(bootstrap)) {
                LogDirDescription offline = awaitOffline(admin, second);
                assertTrue(offline.replicaInfos().isEmpty(), offline.toString());
                LogDirDescription online = describe(admin).get(first.toString());
                assertNull(online.error(), online.toString());
                assertEquals(List.of(onFirst), testPartitions(online));
            }
            ExecutionException stillRefused = assertThrows(ExecutionException.class,
                    () -> produce(bootstrap, onSecond, RECORDS, RECORDS + 1));
            assertInstanceOf(KafkaStorageException.class, stillRefused.getCause(), stillRefused.toString());
            String tool = new KafkaTools(work.resolve("kafka-tools"), KAFKA, List.of()).run("log-dirs",
                    List.of("org.apache.kafka.tools.LogDirsCommand", "--bootstrap-server", bootstrap, "--describe"),
                    null).out();
            assertTrue(tool.contains("{\"partitions\":[],\"error\":\"" + KafkaStorageException.class.getName()
                    + "\",\"logDir\":\"" + second + "\"}"), tool);
            assertTrue(tool.contains("\"error\":null,\"logDir\":\"" + first + "\"}"), tool);
            assertTrue(tool.contains("{\"partition\":\"" + onFirst + "\",\"size\":"), tool);
            assertTrue(broker.metrics().contains("kafka_log_logmanager_offlinelogdirectorycount_value 1"), broker.metrics());

            // The other directory serves on.
            acked.get(onFirst).addAll(produce(bootstrap, onFirst, RECORDS, 2 * RECORDS));
            assertAcked(bootstrap, onFirst, acked.get(onFirst));

            InjectedFaults.failFsyncUnder(control, first);
            assertThrows(ExecutionException.class, () -> produce(bootstrap, onFirst, 2 * RECORDS, 2 * RECORDS + 1));
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
        return dir.replicaInfos().keySet().stream().filter(p -> TOPICS.contains(p.topic())).toList();
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
        return admin.describeLogDirs(List.of(1)).allDescriptions().get(1, TimeUnit.MINUTES).get(1);
    }

    /** Sends records {@code [from, to)} one at a time, each acknowledged before the next; returns their offsets. */
    private static List<Long> produce(String bootstrap, TopicPartition partition, int from, int to) throws Exception {
        List<Long> offsets = new ArrayList<>();
        // No retries: the first answer is the one the test checks.
        try (Producer<byte[], byte[]> producer = TestProducers.create(bootstrap, Map.of(
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false, ProducerConfig.RETRIES_CONFIG, 0,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 20_000))) {
            for (int n = from; n < to; n++) {
                offsets.add(producer.send(new ProducerRecord<>(partition.topic(), partition.partition(), null,
                        value(partition, n))).get(1, TimeUnit.MINUTES).offset());
            }
        }
        assertEquals(to - from, offsets.size());
        return offsets;
    }

    /** Record {@code n} of each acknowledged is at the offset it was acknowledged at. */
    private static void assertAcked(String bootstrap, TopicPartition partition, List<Long> offsets) {
        Map<Long, String> read = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), Duration.ofMinutes(1)).get(partition);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (consumer.position(partition) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    read.put(record.offset(), new String(record.value(), StandardCharsets.UTF_8));
                }
            }
        }
        for (int n = 0; n < offsets.size(); n++) {
            assertEquals(new String(value(partition, n), StandardCharsets.UTF_8), read.get(offsets.get(n)),
                    partition + ": acknowledged record " + n + " at offset " + offsets.get(n));
        }
    }

    private static byte[] value(TopicPartition partition, int n) {
        return (partition + "#" + n).getBytes(StandardCharsets.UTF_8);
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                20_000));
    }
}
