package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.testservers.SmallFileSystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker's log directory on a real disk that fills up, a small tmpfs: an idempotent acks=all producer writes
 * while a topic creation and a first consumer group (which creates {@code __consumer_offsets}) are tried on the full
 * disk; then the space comes back. Without a restart, produce, topic creation and the group work; after a clean
 * restart and after a kill -9, every acknowledged record is at the offset it was acknowledged at and none is there
 * twice; Kafka's DumpLogSegments finds nothing wrong with the partition. {@code -Dkrabka.fulldisk.rounds=N} repeats
 * it (the soak: 20 and more; one round in the suite).
 */
class FullDiskIT {
    private static final String TOPIC = "orders";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    private static final long DISK_BYTES = 64L * 1024 * 1024;
    private static final byte[] PADDING = new byte[1000];

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path work;

    @Test
    void aFullDiskLosesNothingAndWedgesNothing() throws Exception {
        int rounds = Integer.getInteger("krabka.fulldisk.rounds", 1);
        for (int round = 0; round < rounds; round++) {
            round(work.resolve("round-" + round));
        }
    }

    private void round(Path dir) throws Exception {
        SmallFileSystem[] disk = new SmallFileSystem[1];
        KrabkaBroker broker = null;
        try {
            broker = KrabkaBroker.start(dir, Map.of(), (bin, logDir) -> {
                disk[0] = SmallFileSystem.mount(logDir, DISK_BYTES);
                ToolRun format = ToolRun.run(
                        dir,
                        "format",
                        List.of("sh", bin, "format", "--log-dir", logDir.toString(), "--node-id", "1", "--standalone"),
                        Map.of("JAVA_HOME", System.getProperty("java.home")));
                assertEquals(0, format.exitCode(), format.describe());
            });
            String bootstrap = broker.bootstrapServers();
            try (Admin admin = admin(bootstrap)) {
                admin.createTopics(
                                List.of(new NewTopic(TOPIC, 1, (short) 1).configs(Map.of("segment.bytes", "4194304"))))
                        .all()
                        .get(1, TimeUnit.MINUTES);
            }
            Map<Long, Long> acked = new ConcurrentHashMap<>();
            long next = produce(bootstrap, 0, 5000, acked);
            assertEquals(5000, acked.size(), "every record acknowledged before the disk fills");

            disk[0].fill();
            next = produce(bootstrap, next, next + 2000, acked);
            try (Admin admin = admin(bootstrap)) {
                ExecutionException refused = assertThrows(
                        ExecutionException.class,
                        () -> admin.createTopics(List.of(new NewTopic("while-full", 1000, (short) 1)))
                                .all()
                                .get(1, TimeUnit.MINUTES));
                assertTrue(refused.getCause().getMessage().contains("metadata log"), refused.toString());
            }
            firstGroupTries(bootstrap, Duration.ofSeconds(5));

            disk[0].free();
            long before = acked.size();
            produce(bootstrap, next, next + 3000, acked);
            assertEquals(before + 3000, acked.size(), "every record acknowledged once there is room again");
            try (Admin admin = admin(bootstrap)) {
                admin.createTopics(List.of(new NewTopic("after-full", 1, (short) 1)))
                        .all()
                        .get(1, TimeUnit.MINUTES);
            }
            assertTrue(firstGroupTries(bootstrap, Duration.ofMinutes(2)) > 0, "the group reads and commits");

            assertEveryAckedRecordOnce(bootstrap, acked, "without a restart");
            assertEquals(0, broker.stop());
            broker.start();
            assertEveryAckedRecordOnce(broker.bootstrapServers(), acked, "after a clean restart");
            broker.kill();
            broker.start();
            assertEveryAckedRecordOnce(broker.bootstrapServers(), acked, "after kill -9");
            assertEquals(0, broker.stop());
            List<DumpError> errors = new DumpLogSegments(dir.resolve("dump"))
                    .check(partitionFiles(broker.logDir()))
                    .errors();
            assertEquals(List.of(), errors, "DumpLogSegments on " + PARTITION);
        } finally {
            if (broker != null) {
                broker.close();
            }
            if (disk[0] != null) {
                disk[0].close();
            }
        }
    }

    /**
     * Sends records {@code [from, to)}, the record's number as its key, and waits for every answer; the acknowledged
     * ones go to {@code acked} as offset → number. The producer gives up on a record after ten seconds, so that on a
     * full disk the sends end.
     */
    private static long produce(String bootstrap, long from, long to, Map<Long, Long> acked) throws Exception {
        try (Producer<byte[], byte[]> producer = TestProducers.create(
                bootstrap,
                Map.of(
                        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                        10_000,
                        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                        5_000))) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (long n = from; n < to; n++) {
                long number = n;
                sent.add(producer.send(new ProducerRecord<>(TOPIC, 0, key(n), value(n)), (metadata, error) -> {
                    if (error == null) {
                        acked.put(metadata.offset(), number);
                    }
                }));
            }
            for (Future<RecordMetadata> future : sent) {
                try {
                    future.get(1, TimeUnit.MINUTES);
                } catch (ExecutionException notAcknowledged) {
                    // On the full disk: this record's fate is the broker's, and only acknowledged ones are checked.
                }
            }
        }
        return to;
    }

    /** A first consumer group reads {@value #TOPIC} and commits, for up to {@code wait}; returns what it read. */
    private static int firstGroupTries(String bootstrap, Duration wait) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "first-group",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(TOPIC));
            long deadline = System.nanoTime() + wait.toNanos();
            int read = 0;
            while (read == 0 && System.nanoTime() < deadline) {
                read += consumer.poll(Duration.ofMillis(500)).count();
            }
            if (read > 0) {
                consumer.commitSync(Duration.ofMinutes(1));
            }
            return read;
        } catch (org.apache.kafka.common.KafkaException whileFull) {
            return 0;
        }
    }

    private static void assertEveryAckedRecordOnce(String bootstrap, Map<Long, Long> acked, String when) {
        Map<Long, Long> read = new TreeMap<>();
        Map<Long, Long> seen = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        5000),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(PARTITION));
            consumer.seekToBeginning(List.of(PARTITION));
            long end = consumer.endOffsets(List.of(PARTITION), Duration.ofMinutes(1))
                    .get(PARTITION);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (consumer.position(PARTITION) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    long number = ByteBuffer.wrap(record.key()).getLong();
                    assertEquals(
                            number + "|",
                            new String(
                                    record.value(), 0, record.value().length - PADDING.length, StandardCharsets.UTF_8),
                            when + ": the value at " + record.offset());
                    read.put(record.offset(), number);
                    Long earlier = seen.put(number, record.offset());
                    assertEquals(
                            null, earlier, when + ": record " + number + " at " + earlier + " and " + record.offset());
                }
            }
        }
        acked.forEach((offset, number) -> assertEquals(
                number, read.get(offset), when + ": the acknowledged record " + number + " at offset " + offset));
    }

    private static byte[] key(long n) {
        return ByteBuffer.allocate(8).putLong(n).array();
    }

    private static byte[] value(long n) {
        byte[] head = (n + "|").getBytes(StandardCharsets.UTF_8);
        byte[] value = new byte[head.length + PADDING.length];
        System.arraycopy(head, 0, value, 0, head.length);
        return value;
    }

    private static List<Path> partitionFiles(Path logDir) throws IOException {
        try (Stream<Path> files = Files.list(logDir.resolve(TOPIC + "-0"))) {
            return files.filter(f -> Stream.of(".log", ".index", ".timeindex", ".snapshot")
                            .anyMatch(f.toString()::endsWith))
                    .sorted()
                    .toList();
        }
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
