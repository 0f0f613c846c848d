package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code __consumer_offsets} compacted by the log cleaner: a group commits 20,000 times to a broker without the
 * cleaner, whose coordinator then loads all 20,000 records after a restart; restarted with the cleaner, the topic
 * shrinks to a few records, and the coordinator loads those after the next restart and serves the last commit. The
 * record counts are read by a consumer; the load times are the coordinator's own ("Loaded N records of
 * __consumer_offsets-0 in T ms"), printed for the record.
 */
class ConsumerOffsetsCompactionIT {

    private static final String GROUP = "payments";
    private static final int COMMITS = 20_000;
    private static final TopicPartition OFFSETS = new TopicPartition("__consumer_offsets", 0);
    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);
    private static final Pattern LOADED = Pattern.compile("Loaded (\\d+) records of __consumer_offsets-0 in (\\d+) ms");
    private static final Map<String, String> BROKER = Map.of(
            "offsets.topic.num.partitions", "1",
            "offsets.topic.segment.bytes", "1048576",
            "log.roll.ms", "3000",
            "log.cleaner.backoff.ms", "100");

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path work;

    @Test
    void theCleanerShrinksTheCommitsOfAGroupToAFewRecordsThatLoadFast() throws Exception {
        Map<String, String> withoutCleaner = with(BROKER, "log.cleaner.enable", "false");
        Path written = work.resolve("written");
        long before;
        try (KrabkaBroker broker = KrabkaBroker.start(written, withoutCleaner)) {
            try (Admin admin = admin(broker.bootstrapServers())) {
                admin.createTopics(List.of(new NewTopic(ORDERS.topic(), 1, (short) 1)))
                        .all()
                        .get(1, TimeUnit.MINUTES);
            }
            commitAll(broker.bootstrapServers());
            before = countRecords(broker.bootstrapServers());
            assertEquals(0, broker.stop());
        }
        assertTrue(before >= COMMITS, "every commit is a record: " + before);
        Loaded uncleaned = restartAndLoad(written, work.resolve("reloaded"), withoutCleaner);
        assertEquals(before, uncleaned.records(), "the coordinator loads every record");

        Path cleaned = work.resolve("cleaned");
        long after;
        try (KrabkaBroker broker =
                KrabkaBroker.start(cleaned, BROKER, (bin, logDir) -> FileTrees.copy(written.resolve("data"), logDir))) {
            // After log.roll.ms, one more commit rolls the active segment, so that all the others can be cleaned.
            Thread.sleep(3500);
            commit(broker.bootstrapServers(), COMMITS + 1);
            awaitCleaned(broker.logDir(), COMMITS);
            after = countRecords(broker.bootstrapServers());
            assertCleanerMetrics(broker.metrics());
            assertEquals(0, broker.stop());
        }
        assertTrue(after <= 3, "a few records once cleaned: " + after);
        Loaded reloaded = restartAndLoad(cleaned, work.resolve("cleaned-reloaded"), BROKER);
        assertEquals(after, reloaded.records());
        System.out.printf(
                "__consumer_offsets-0: %d records before cleaning, loaded in %d ms; %d after, loaded in %d ms%n",
                before, uncleaned.millis(), after, reloaded.millis());
    }

    /** What the coordinator said it loaded, and how long it took. */
    private record Loaded(long records, long millis) {}

    private static Map<String, String> with(Map<String, String> settings, String key, String value) {
        Map<String, String> all = new HashMap<>(settings);
        all.put(key, value);
        return all;
    }

    /**
     * Starts a broker in {@code workDir} on a copy of the log directory of {@code from}, checks that the last commit
     * is served, stops it, and returns what its coordinator loaded.
     */
    private static Loaded restartAndLoad(Path from, Path workDir, Map<String, String> settings) throws Exception {
        try (KrabkaBroker broker =
                KrabkaBroker.start(workDir, settings, (bin, logDir) -> FileTrees.copy(from.resolve("data"), logDir))) {
            try (Admin admin = admin(broker.bootstrapServers())) {
                long committed = admin.listConsumerGroupOffsets(GROUP)
                        .partitionsToOffsetAndMetadata()
                        .get(1, TimeUnit.MINUTES)
                        .get(ORDERS)
                        .offset();
                assertTrue(committed >= COMMITS, "the last commit is served: " + committed);
            }
            assertEquals(0, broker.stop());
        }
        Matcher matcher = LOADED.matcher(Files.readString(workDir.resolve("broker-1.err")));
        assertTrue(matcher.find(), "the coordinator's load is logged in " + workDir.resolve("broker-1.err"));
        return new Loaded(Long.parseLong(matcher.group(1)), Long.parseLong(matcher.group(2)));
    }

    /** Kafka's cleaner gauges, as the broker's /metrics gives them, after a cleaning that dropped most records. */
    private static void assertCleanerMetrics(String metrics) {
        for (String gauge : List.of(
                "kafka_log_logcleaner_max_buffer_utilization_percent_value",
                "kafka_log_logcleaner_max_clean_time_secs_value",
                "kafka_log_logcleaner_max_compaction_delay_secs_value",
                "kafka_log_logcleanermanager_max_dirty_percent_value",
                "kafka_log_logcleanermanager_time_since_last_run_ms_value",
                "kafka_log_logcleanermanager_uncleanable_bytes_value{")) {
            assertTrue(metrics.lines().anyMatch(line -> line.startsWith(gauge)), gauge + " in\n" + metrics);
        }
        assertEquals(0, gauge(metrics, "kafka_log_logcleaner_deadthreadcount_value "), "dead cleaner threads");
        assertEquals(
                0,
                gauge(metrics, "kafka_log_logcleanermanager_uncleanable_partitions_count_value{"),
                "uncleanable partitions");
        double recopy = gauge(metrics, "kafka_log_logcleaner_cleaner_recopy_percent_value ");
        assertTrue(recopy < 100, "the last cleaning dropped records: cleaner-recopy-percent " + recopy);
    }

    private static double gauge(String metrics, String prefix) {
        String line = metrics.lines()
                .filter(l -> l.startsWith(prefix))
                .findFirst()
                .orElseThrow(() -> new AssertionError(prefix + " not in\n" + metrics));
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    /**
     * Commits offsets 1 to {@link #COMMITS} for the group, as a consumer committing after each record does: one
     * connection to the coordinator, the commits pipelined and applied in order, the last one waited for.
     */
    private static void commitAll(String bootstrap) {
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.GROUP_ID_CONFIG,
                        GROUP,
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(ORDERS));
            for (int i = 1; i < COMMITS; i++) {
                consumer.commitAsync(Map.of(ORDERS, new OffsetAndMetadata(i)), (offsets, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
            }
            consumer.commitSync(Map.of(ORDERS, new OffsetAndMetadata(COMMITS)), Duration.ofMinutes(2));
            assertEquals(COMMITS, consumer.committed(Set.of(ORDERS)).get(ORDERS).offset());
        }
        assertNull(failure.get(), "every commit succeeds");
    }

    private static void commit(String bootstrap, long offset) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            admin.alterConsumerGroupOffsets(GROUP, Map.of(ORDERS, new OffsetAndMetadata(offset)))
                    .all()
                    .get(1, TimeUnit.MINUTES);
        }
    }

    /** Waits until the cleaner checkpointed {@code __consumer_offsets-0} as cleaned up to {@code offset}. */
    private static void awaitCleaned(Path logDir, long offset) throws Exception {
        Path checkpoint = logDir.resolve("cleaner-offset-checkpoint");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (true) {
            if (Files.exists(checkpoint)) {
                boolean cleaned = Files.readAllLines(checkpoint).stream()
                        .skip(2)
                        .map(line -> line.split(" "))
                        .anyMatch(f ->
                                f[0].equals(OFFSETS.topic()) && f[1].equals("0") && Long.parseLong(f[2]) >= offset);
                if (cleaned) {
                    return;
                }
            }
            assertTrue(System.nanoTime() < deadline, "__consumer_offsets-0 not cleaned within 2 minutes");
            Thread.sleep(100);
        }
    }

    /** The records of {@code __consumer_offsets-0}, read by a consumer from its start to its end. */
    private static long countRecords(String bootstrap) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(OFFSETS));
            consumer.seekToBeginning(List.of(OFFSETS));
            long end =
                    consumer.endOffsets(List.of(OFFSETS), Duration.ofMinutes(1)).get(OFFSETS);
            long count = 0;
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (consumer.position(OFFSETS) < end && System.nanoTime() < deadline) {
                count += consumer.poll(Duration.ofMillis(500)).count();
            }
            return count;
        }
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                60_000));
    }
}
