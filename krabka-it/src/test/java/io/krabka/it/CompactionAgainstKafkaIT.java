package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
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
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Log compaction judged by Apache Kafka 4.4. The same workload (keys overwritten, tombstones, idempotent producers
 * in every codec, segments of 1 MiB rolled by size and by {@code segment.ms}) runs on Kafka and on Krabka, each
 * cleaning with {@code min.cleanable.dirty.ratio=0.01} and a short {@code log.cleaner.backoff.ms}; once both have
 * cleaned up to the last record, a consumer reads each topic from its start: both hold exactly the latest record of
 * every key at its offset, tombstones included (kept for {@code delete.retention.ms}), and nothing else. Kafka's
 * DumpLogSegments then finds nothing wrong in Krabka's cleaned segments and indexes, and Kafka started on Krabka's
 * log directory serves the same records.
 */
@ResourceLock(ReferenceKafka.BROKER_LOCK)
class CompactionAgainstKafkaIT {

    private static final String KAFKA = "4.4.0";
    private static final String TOPIC = "compacted";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    private static final Map<String, String> TOPIC_CONFIGS = Map.of(
            "cleanup.policy", "compact",
            "segment.bytes", "1048576",
            "segment.ms", "4000",
            "min.cleanable.dirty.ratio", "0.01",
            "compression.type", "producer");
    private static final Map<String, String> BROKER = Map.of("log.cleaner.backoff.ms", "100");
    private static final int KEYS = 1500;

    /** One record as a consumer reads it back: "offset key=value" (value "null" for a tombstone). */
    private record Read(long offset, String key, String value) {
        @Override
        public String toString() {
            return offset + " " + key + "=" + value;
        }
    }

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path work;

    @Test
    void krabkaCompactsAsKafkaAndKafkaServesKrabkasCleanedDirectory() throws Exception {
        List<Read> kafka;
        List<Read> expected;
        try (ReferenceKafka reference = ReferenceKafka.start(KAFKA, work.resolve("kafka"), BROKER)) {
            expected = workload(reference.bootstrapServers());
            awaitCleaned(reference.logDir(), expected.getLast().offset(), "Kafka");
            kafka = readAll(reference.bootstrapServers());
        }
        assertTrue(expected.size() <= KEYS + 1 && expected.size() > KEYS / 2, "keys left: " + expected.size());
        assertEquals(expected, kafka, "Kafka keeps the latest record of each key at its offset");

        int controllerPort = ReferenceKafka.freePort();
        Path krabkaDir = work.resolve("krabka");
        List<Read> krabka;
        try (KrabkaBroker broker =
                KrabkaBroker.start(krabkaDir, BROKER, KrabkaBroker.formattedForController(krabkaDir, controllerPort))) {
            workload(broker.bootstrapServers());
            awaitCleaned(broker.logDir(), expected.getLast().offset(), "Krabka");
            krabka = readAll(broker.bootstrapServers());
            assertEquals(0, broker.stop(), "Krabka's exit code");
        }
        assertEquals(kafka, krabka, "Krabka keeps what Kafka keeps");

        Path partition = krabkaDir.resolve("data").resolve(TOPIC + "-0");
        DumpCheck check = new DumpLogSegments(work.resolve("dump-log-segments")).check(files(partition));
        // A compacted log's offsets have gaps: DumpLogSegments lists them, for Kafka's own cleaned logs too.
        List<DumpError> errors = check.errors().stream()
                .filter(error -> !(error instanceof DumpError.NonConsecutiveOffsets))
                .toList();
        assertEquals(List.of(), errors, check.describe());
        assertTrue(
                check.errors().stream().anyMatch(error -> error instanceof DumpError.NonConsecutiveOffsets),
                "DumpLogSegments read the compacted segments: " + check.describe());

        try (ReferenceKafka takeover = ReferenceKafka.start(
                KAFKA,
                work.resolve("kafka-on-krabka"),
                Map.of(),
                (config, kafkaLogDir, controllerListener) -> FileTrees.copy(krabkaDir.resolve("data"), kafkaLogDir),
                controllerPort)) {
            assertEquals(krabka, readAll(takeover.bootstrapServers()), "Kafka on Krabka's cleaned directory");
        }
    }

    /**
     * Creates the topic and writes the same records in the same order on any broker: producers one after another,
     * each idempotent, in a codec of its own, overwriting keys drawn from a fixed seed, some with tombstones; after
     * {@code segment.ms}, one last record rolls the segment, so that every other record can be cleaned.
     *
     * @return what a cleaning keeps: the latest record of each key at its offset, in offset order
     */
    private static List<Read> workload(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1).configs(TOPIC_CONFIGS)))
                    .all()
                    .get(1, TimeUnit.MINUTES);
        }
        SplittableRandom random = new SplittableRandom(42);
        Map<String, Read> latest = new LinkedHashMap<>();
        String[] codecs = {"none", "lz4", "zstd", "gzip", "snappy", "none"};
        for (int phase = 0; phase < codecs.length; phase++) {
            int records = phase < 2 ? 4000 : 1500;
            boolean tombstones = phase >= 3;
            write(bootstrap, codecs[phase], records, tombstones, phase, random, latest);
        }
        Thread.sleep(Duration.ofMillis(4500));
        write(bootstrap, "none", 1, false, -1, random, latest);
        return latest.values().stream()
                .sorted((a, b) -> Long.compare(a.offset(), b.offset()))
                .toList();
    }

    private static void write(
            String bootstrap,
            String codec,
            int records,
            boolean tombstones,
            int phase,
            SplittableRandom random,
            Map<String, Read> latest)
            throws Exception {
        try (Producer<byte[], byte[]> producer =
                TestProducers.create(bootstrap, Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec))) {
            List<String> keys = new ArrayList<>();
            List<String> values = new ArrayList<>();
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < records; i++) {
                String key = phase < 0 ? "last" : "key-" + random.nextInt(KEYS);
                String value = tombstones && random.nextInt(5) == 0
                        ? null
                        : "phase " + phase + " #" + i + " " + "v".repeat(100 + random.nextInt(200));
                keys.add(key);
                values.add(value);
                sent.add(producer.send(new ProducerRecord<>(
                        TOPIC, 0, key.getBytes(StandardCharsets.UTF_8), value == null ? null : utf8(value))));
            }
            for (int i = 0; i < records; i++) {
                long offset = sent.get(i).get(2, TimeUnit.MINUTES).offset();
                latest.put(keys.get(i), new Read(offset, keys.get(i), String.valueOf(values.get(i))));
            }
        }
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Waits until the broker's cleaner checkpointed the partition as cleaned up to {@code offset}. */
    private static void awaitCleaned(Path logDir, long offset, String broker) throws Exception {
        Path checkpoint = logDir.resolve("cleaner-offset-checkpoint");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (cleanedUpTo(checkpoint) < offset) {
            assertTrue(System.nanoTime() < deadline, broker + " did not clean up to " + offset + " in 2 minutes");
            Thread.sleep(100);
        }
    }

    // Kafka's checkpoint format: version, count, then "topic partition offset" lines.
    private static long cleanedUpTo(Path checkpoint) throws IOException {
        if (!Files.exists(checkpoint)) {
            return -1;
        }
        return Files.readAllLines(checkpoint).stream()
                .skip(2)
                .map(line -> line.split(" "))
                .filter(fields -> fields.length == 3 && fields[0].equals(TOPIC) && fields[1].equals("0"))
                .mapToLong(fields -> Long.parseLong(fields[2]))
                .findFirst()
                .orElse(-1);
    }

    /** Every record of the partition, from its start to its end. */
    private static List<Read> readAll(String bootstrap) {
        List<Read> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        2000),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(PARTITION));
            consumer.seekToBeginning(List.of(PARTITION));
            long end = consumer.endOffsets(List.of(PARTITION), Duration.ofMinutes(1))
                    .get(PARTITION);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (consumer.position(PARTITION) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    read.add(new Read(
                            record.offset(),
                            new String(record.key(), StandardCharsets.UTF_8),
                            record.value() == null ? "null" : new String(record.value(), StandardCharsets.UTF_8)));
                }
            }
        }
        return read;
    }

    /** The files of a partition directory DumpLogSegments judges. */
    private static List<Path> files(Path partition) throws IOException {
        Set<String> suffixes = Set.of(".log", ".index", ".timeindex", ".txnindex", ".snapshot");
        try (Stream<Path> files = Files.list(partition)) {
            return files.filter(f -> suffixes.stream()
                            .anyMatch(s -> f.getFileName().toString().endsWith(s)))
                    .sorted()
                    .collect(Collectors.toList());
        }
    }
}
