package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code krabka restore} end to end: Krabka's broker tiers a topic of three partitions (keys, headers, uncompressed,
 * zstd and lz4 batches from three idempotent producers) into the {@code local} remote tier and stops; the archive is
 * restored with each kind of bound into a fresh directory; Krabka starts on it, and Apache Kafka 4.4 on a copy,
 * and a consumer reads on both exactly the records expected — everything up to the bound, less the excluded — at
 * their original offsets. Kafka's DumpLogSegments accepts every restored file. Then the command's failures: a
 * flipped byte (exit 5 naming the object, or skipped with {@code --continue-on-corrupt}) and a dirty target (3).
 */
@ResourceLock(ReferenceKafka.BROKER_LOCK)
class RestoreIT {
    private static final String TOPIC = "events";
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 1500;
    private static final int CHUNK = 50;
    private static final ObjectMapper JSON = new ObjectMapper();
    // Two days back: the workload lies wholly before the cut that every case adds, the filler after it.
    private static final long T0 =
            System.currentTimeMillis() - Duration.ofDays(2).toMillis();
    private static final long CUT = T0 + Duration.ofDays(1).toMillis();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path work;

    private static Path tier;
    private static long producerB;
    private static KrabkaCommand krabka;

    /** A record as produced, and as a consumer reads it back. */
    private record Read(int partition, long offset, long timestamp, String key, String value, String origin) {}

    @BeforeAll
    static void aBrokerTiersTheTopic() throws Exception {
        tier = Files.createDirectories(work.resolve("tier"));
        krabka = new KrabkaCommand(Files.createDirectories(work.resolve("runs")));
        Map<String, String> settings = Map.of(
                "remote.log.storage.system.enable", "true",
                "remote.log.storage.manager.class.name", "local",
                "rsm.config.dir", tier.toString(),
                "remote.log.metadata.manager.class.name", "inmemory",
                "remote.log.manager.task.interval.ms", "500",
                "log.retention.check.interval.ms", "500");
        try (KrabkaBroker broker = KrabkaBroker.start(work.resolve("source"), settings);
                Admin admin = admin(broker.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1)
                            .configs(Map.of(
                                    "remote.storage.enable",
                                    "true",
                                    "local.retention.bytes",
                                    "1",
                                    "segment.bytes",
                                    "1048576",
                                    "retention.ms",
                                    "-1"))))
                    .all()
                    .get(1, TimeUnit.MINUTES);
            try (KafkaProducer<byte[], byte[]> a = producer(broker, "none");
                    KafkaProducer<byte[], byte[]> b = producer(broker, "zstd");
                    KafkaProducer<byte[], byte[]> c = producer(broker, "lz4")) {
                List<List<KafkaProducer<byte[], byte[]>>> writers = List.of(List.of(a, b), List.of(c), List.of(a, c));
                for (int partition = 0; partition < PARTITIONS; partition++) {
                    List<KafkaProducer<byte[], byte[]>> producers = writers.get(partition);
                    for (int i = 0; i < RECORDS; i += CHUNK) {
                        // One producer per chunk, flushed before the next: offsets follow the order of sending.
                        KafkaProducer<byte[], byte[]> producer = producers.get(i / CHUNK % producers.size());
                        for (int n = i; n < i + CHUNK; n++) {
                            send(producer, produced(partition, n));
                        }
                        producer.flush();
                    }
                }
                // Filler after the cut, so that every segment of the workload rolls and is tiered.
                for (int partition = 0; partition < PARTITIONS; partition++) {
                    for (int n = 0; n < 700; n++) {
                        a.send(new ProducerRecord<>(
                                TOPIC, partition, System.currentTimeMillis(), null, new byte[2000]));
                    }
                }
                a.flush();
            }
            TieredRecords.await("the workload tiered", () -> {
                for (int partition = 0; partition < PARTITIONS; partition++) {
                    TopicPartition tp = new TopicPartition(TOPIC, partition);
                    long tiered = admin.listOffsets(Map.of(tp, OffsetSpec.latestTiered()))
                            .partitionResult(tp)
                            .get(1, TimeUnit.MINUTES)
                            .offset();
                    if (tiered < RECORDS - 1) {
                        return false;
                    }
                }
                return true;
            });
            assertEquals(0, broker.stop());
        }
        // Chunks alternate between producers a and b in partition 0: b wrote offsets 50 to 99.
        producerB = producerOf(0, CHUNK);
        assertTrue(producerB != producerOf(0, 0), "two producers wrote partition 0");
    }

    private static Read produced(int partition, int n) {
        String value = "value-" + partition + "-" + n + "-" + "x".repeat(2000 + n % 97);
        return new Read(partition, n, T0 + n * 10L, "k-" + partition + "-" + n, value, n % 3 == 0 ? "b" : "a");
    }

    private static List<Read> workload(Predicate<Read> kept) {
        List<Read> all = new ArrayList<>();
        for (int partition = 0; partition < PARTITIONS; partition++) {
            for (int n = 0; n < RECORDS; n++) {
                if (kept.test(produced(partition, n))) {
                    all.add(produced(partition, n));
                }
            }
        }
        return all;
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, Read record) {
        ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(
                TOPIC,
                record.partition(),
                record.timestamp(),
                record.key().getBytes(StandardCharsets.UTF_8),
                record.value().getBytes(StandardCharsets.UTF_8),
                List.of(new RecordHeader("origin", record.origin().getBytes(StandardCharsets.UTF_8))));
        producer.send(out);
    }

    /** The producer id of the batch holding {@code offset} in the tier, as Kafka's DumpLogSegments reads it. */
    private static long producerOf(int partition, long offset) throws Exception {
        List<Path> logs = new ArrayList<>();
        Path named = Files.createTempDirectory(work, "producers-");
        try (Stream<Path> files = Files.walk(tier)) {
            for (Path log : files.filter(
                            f -> f.getParent().getFileName().toString().startsWith(TOPIC + "-" + partition + "-"))
                    .filter(f -> f.toString().endsWith(".log"))
                    .sorted()
                    .toList()) {
                // DumpLogSegments takes the base offset from a log file's name, which in the tier carries the segment
                // id.
                logs.add(Files.copy(
                        log, named.resolve(log.getFileName().toString().substring(0, 20) + ".log")));
            }
        }
        DumpReport dump = new DumpLogSegments(work.resolve("producers")).dump(Set.of(), logs);
        return logs.stream()
                .flatMap(log -> dump.log(log).batches().stream())
                .filter(batch -> batch.baseOffset() <= offset && offset <= batch.lastOffset())
                .findFirst()
                .orElseThrow()
                .producerId();
    }

    @Test
    void everyBoundRestoresExactlyItsRecordsIntoKrabkaAndKafka() throws Exception {
        String cut = String.valueOf(CUT);
        check("whole", false, workload(r -> true), "--to-timestamp", cut);
        check(
                "to-offset",
                false,
                workload(r -> r.partition() != 0 || r.offset() <= 700),
                "--to-offset",
                TOPIC + ":0=700",
                "--to-timestamp",
                cut);
        long instant = T0 + 500 * 10L;
        check(
                "to-timestamp",
                false,
                workload(r -> r.timestamp() < instant),
                "--to-timestamp",
                Instant.ofEpochMilli(instant).toString());
        JsonNode report = check(
                "exclusions",
                true,
                workload(r -> !(r.partition() == 0 && r.offset() / CHUNK % 2 == 1)
                        && !r.key().startsWith("k-1-1")
                        && !r.origin().equals("b")
                        && !(r.partition() == 2 && r.offset() >= 10 && r.offset() < 20)),
                "--exclude-producer-id",
                String.valueOf(producerB),
                "--exclude-key",
                "^k-1-1",
                "--exclude-header",
                "origin=^b$",
                "--exclude-offset",
                TOPIC + ":2=10..20",
                "--to-timestamp",
                cut);
        long emptied = 0;
        long rewritten = 0;
        for (JsonNode partition : report.path("partitions")) {
            for (JsonNode segment : partition.path("segments")) {
                emptied += segment.path("batches_emptied").asLong();
                rewritten += segment.path("batches_rewritten").asLong();
            }
        }
        assertTrue(emptied > 0 && rewritten > 0, report.toPrettyString());
    }

    /**
     * Restores with {@code bounds}, judges the files with DumpLogSegments, and reads them in Krabka and Kafka.
     *
     * @param gaps whether excluded records leave empty offsets, which DumpLogSegments lists
     */
    private JsonNode check(String name, boolean gaps, List<Read> expected, String... bounds) throws Exception {
        Path restored = work.resolve(name).resolve("restored");
        List<String> args = new ArrayList<>(List.of(
                "restore",
                "--archive-local",
                tier.toString(),
                "--log-dir",
                restored.toString(),
                "--node-id",
                "1",
                "--standalone",
                "--report",
                "json"));
        args.addAll(Arrays.asList(bounds));
        ToolRun run = krabka.run(args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.describe());
        JsonNode report = JSON.readTree(run.out());

        // An excluded record leaves its offset empty, as compaction does: DumpLogSegments lists such gaps, and
        // nothing else may it find.
        List<DumpError> errors = new DumpLogSegments(work.resolve(name).resolve("dump"))
                .check(partitionFiles(restored)).errors().stream()
                        .filter(error -> !(gaps && error instanceof DumpError.NonConsecutiveOffsets))
                        .toList();
        assertEquals(List.of(), errors, name + ": DumpLogSegments found errors");

        try (KrabkaBroker broker = KrabkaBroker.start(
                work.resolve(name).resolve("krabka"), Map.of(), (bin, logDir) -> FileTrees.copy(restored, logDir))) {
            assertEquals(expected, consume(broker.bootstrapServers()), name + ", read from Krabka");
        }
        try (ReferenceKafka kafka = ReferenceKafka.start(
                "4.4.0", work.resolve(name).resolve("kafka"), Map.of(), (config, logDir, controllerListener) -> {
                    // Kafka's standalone voter must be the listener it runs on: restored for it, as an operator would.
                    Path forKafka = work.resolve(name).resolve("restored-for-kafka");
                    ToolRun again = krabka.run(Stream.concat(
                                    args.stream().map(a -> a.equals(restored.toString()) ? forKafka.toString() : a),
                                    Stream.of("--controller-listener", controllerListener))
                            .toArray(String[]::new));
                    assertEquals(0, again.exitCode(), again.describe());
                    FileTrees.copy(forKafka, logDir);
                })) {
            assertEquals(expected, consume(kafka.bootstrapServers()), name + ", read from Apache Kafka 4.4");
        }
        return report;
    }

    private static List<Path> partitionFiles(Path logDir) throws IOException {
        try (Stream<Path> files = Files.walk(logDir)) {
            return files.filter(f -> f.getParent().getFileName().toString().startsWith(TOPIC + "-"))
                    .filter(f -> Stream.of(".log", ".index", ".timeindex", ".snapshot", ".txnindex")
                            .anyMatch(f.toString()::endsWith))
                    .sorted()
                    .toList();
        }
    }

    /** Every record of the topic, partition by partition, from its start to its end. */
    private static List<Read> consume(String bootstrap) {
        List<Read> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            for (int partition = 0; partition < PARTITIONS; partition++) {
                TopicPartition tp = new TopicPartition(TOPIC, partition);
                consumer.assign(List.of(tp));
                consumer.seekToBeginning(List.of(tp));
                long end =
                        consumer.endOffsets(List.of(tp), Duration.ofMinutes(1)).get(tp);
                long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
                while (consumer.position(tp, Duration.ofMinutes(1)) < end) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("partition " + partition + " not read to its end " + end);
                    }
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                        read.add(new Read(
                                record.partition(),
                                record.offset(),
                                record.timestamp(),
                                new String(record.key(), StandardCharsets.UTF_8),
                                new String(record.value(), StandardCharsets.UTF_8),
                                new String(record.headers().lastHeader("origin").value(), StandardCharsets.UTF_8)));
                    }
                }
            }
        }
        return read;
    }

    @Test
    void aFlippedByteStopsTheRestoreNamingTheObjectOrIsSkippedAndADirtyTargetIsRefused() throws Exception {
        Path copy = work.resolve("flipped-tier");
        FileTrees.copy(tier, copy);
        Path log;
        try (Stream<Path> files = Files.walk(copy)) {
            log = files.filter(
                            f -> f.toString().endsWith(".log") && f.toString().contains(TOPIC + "-0-"))
                    .sorted()
                    .skip(1)
                    .findFirst()
                    .orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(log);
        bytes[bytes.length / 2] ^= 1;
        Files.write(log, bytes);

        ToolRun stopped = krabka.run(
                "restore",
                "--archive-local",
                copy.toString(),
                "--log-dir",
                work.resolve("flipped").toString(),
                "--node-id",
                "1");
        assertEquals(5, stopped.exitCode(), stopped.describe());
        assertTrue(
                stopped.err().contains(log.getFileName().toString())
                        && stopped.err().contains("at byte"),
                stopped.describe());
        assertTrue(!Files.exists(work.resolve("flipped")), "a failed restore leaves no directory");

        ToolRun skipped = krabka.run(
                "restore",
                "--archive-local",
                copy.toString(),
                "--log-dir",
                work.resolve("skipped").toString(),
                "--node-id",
                "1",
                "--continue-on-corrupt",
                "--report",
                "json");
        assertEquals(0, skipped.exitCode(), skipped.describe());
        JsonNode report = JSON.readTree(skipped.out());
        assertEquals(1, report.path("skipped").size(), skipped.out());
        Map<Integer, Integer> segments = new TreeMap<>();
        for (JsonNode partition : report.path("partitions")) {
            segments.put(
                    partition.path("partition").asInt(),
                    partition.path("segments").size());
        }
        assertEquals(1, segments.get(0), "partition 0 keeps only the segment before the flipped one: " + segments);

        Path dirty = Files.createDirectories(work.resolve("dirty"));
        Files.writeString(dirty.resolve("keep"), "mine");
        ToolRun refused = krabka.run(
                "restore", "--archive-local", copy.toString(), "--log-dir", dirty.toString(), "--node-id", "1");
        assertEquals(3, refused.exitCode(), refused.describe());
        assertEquals(1, refused.err().strip().lines().count(), refused.describe());
        assertEquals("mine", Files.readString(dirty.resolve("keep")));
    }

    private static KafkaProducer<byte[], byte[]> producer(KrabkaBroker broker, String compression) {
        return new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                        ProducerConfig.ACKS_CONFIG, "all",
                        ProducerConfig.COMPRESSION_TYPE_CONFIG, compression,
                        ProducerConfig.LINGER_MS_CONFIG, "5"),
                new ByteArraySerializer(),
                new ByteArraySerializer());
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }
}
