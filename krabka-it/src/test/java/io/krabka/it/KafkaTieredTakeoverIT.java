package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Kafka's tiering keeps working under Krabka. Apache Kafka 4.3.1 with its own LocalTieredStorage (loaded from the
 * test jar its {@code remote.log.storage.manager.class.path} names, as Kafka's docs set it up) and
 * TopicBasedRemoteLogMetadataManager tiers a topic and deletes the tiered segments locally; Krabka runs that broker's
 * {@code server.properties} as it is ({@code bin/krabka broker --config}) and serves every record, most of them from
 * the remote tier; Krabka tiers new segments and deletes them locally, and Kafka, started on the directory again,
 * serves them in turn from the remote tier, through the metadata Krabka wrote to {@code __remote_log_metadata}.
 */
@ResourceLock(ReferenceKafka.BROKER_LOCK)
class KafkaTieredTakeoverIT {
    private static final String KAFKA_VERSION = KafkaTierWriter.KAFKA_VERSION;
    private static final TopicPartition PARTITION = new TopicPartition("tiered", 0);
    private static final long ROUND = TieredRecords.count(8);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path work;

    @Test
    void krabkaRunsATieredKafkaBrokersConfigurationAndKafkaServesWhatKrabkaTiered() throws Exception {
        Path tier = Files.createDirectories(work.resolve("tier"));
        Map<String, String> settings = new HashMap<>(KafkaTierWriter.tieredSettings(tier));
        settings.put("remote.log.storage.manager.class.path", testJar().toString());
        Path kafkaDir = work.resolve("kafka");
        ReferenceKafka kafka = ReferenceKafka.start(KAFKA_VERSION, kafkaDir, settings);
        try {
            try (Admin admin = admin(kafka.bootstrapServers())) {
                admin.createTopics(List.of(new NewTopic(PARTITION.topic(), 1, (short) 1)
                                .configs(Map.of(
                                        "remote.storage.enable",
                                        "true",
                                        "segment.bytes",
                                        "1048576",
                                        "local.retention.ms",
                                        "1000",
                                        "retention.ms",
                                        "-1"))))
                        .all()
                        .get(1, TimeUnit.MINUTES);
            }
            TieredRecords.produce(kafka.bootstrapServers(), PARTITION, 0, ROUND, n -> System.currentTimeMillis());
            long localStart = awaitOnlyTheActiveSegmentLocally(kafka.bootstrapServers(), kafka.logDir(), "Kafka");
            Set<String> kafkaTiered = tieredSegments(tier);
            assertTrue(kafkaTiered.size() >= 5, "Kafka tiered " + kafkaTiered);

            kafka.close();
            try (KrabkaBroker krabka =
                    KrabkaBroker.onConfig(work.resolve("krabka"), kafka.config(), kafka.bootstrapServers())) {
                assertEquals(
                        localStart,
                        offset(krabka.bootstrapServers(), OffsetSpec.earliestLocal()),
                        "Krabka finds Kafka's local log where Kafka left it");
                assertTrue(
                        localStart > ROUND / 2, "most records are in the remote tier only: local from " + localStart);
                TieredRecords.assertReadsExactly(krabka.bootstrapServers(), PARTITION, 0, ROUND);

                TieredRecords.produce(
                        krabka.bootstrapServers(), PARTITION, ROUND, 2 * ROUND, n -> System.currentTimeMillis());
                long krabkaLocalStart =
                        awaitOnlyTheActiveSegmentLocally(krabka.bootstrapServers(), kafka.logDir(), "Krabka");
                assertTrue(krabkaLocalStart > ROUND + ROUND / 2, "Krabka's local log starts at " + krabkaLocalStart);
                TieredRecords.assertReadsExactly(krabka.bootstrapServers(), PARTITION, 0, 2 * ROUND);
                assertEquals(0, krabka.stop(), "Krabka's exit code");
            }
            Set<String> krabkaTiered = new TreeSet<>(tieredSegments(tier));
            assertTrue(krabkaTiered.containsAll(kafkaTiered), "Krabka kept Kafka's tiered segments: " + krabkaTiered);
            krabkaTiered.removeAll(kafkaTiered);
            assertTrue(krabkaTiered.size() >= 5, "Krabka tiered " + krabkaTiered + " in Kafka's layout");

            kafka.restart();
            assertEquals(
                    krabkaLocalStart(kafka),
                    offset(kafka.bootstrapServers(), OffsetSpec.earliestLocal()),
                    "Kafka finds Krabka's local log where Krabka left it");
            TieredRecords.assertReadsExactly(kafka.bootstrapServers(), PARTITION, 0, 2 * ROUND);
            assertEquals(
                    2 * ROUND,
                    offset(kafka.bootstrapServers(), OffsetSpec.latest()),
                    "Kafka's log ends where Krabka's did");
        } finally {
            kafka.close();
        }
    }

    /** The local log start Kafka must report: the base offset of the one segment left in the partition directory. */
    private static long krabkaLocalStart(ReferenceKafka kafka) throws IOException {
        List<Long> bases = segmentBases(kafka.logDir().resolve(PARTITION.topic() + "-" + PARTITION.partition()));
        assertEquals(1, bases.size(), "only the active segment is local: " + bases);
        return bases.getFirst();
    }

    /**
     * Waits until every rolled segment is tiered (ListOffsets' latest tiered offset, KIP-1005, is just before the
     * active segment) and deleted locally (the earliest local offset is the active segment's base); returns that base.
     */
    private static long awaitOnlyTheActiveSegmentLocally(String bootstrap, Path logDir, String broker)
            throws Exception {
        Path partitionDir = logDir.resolve(PARTITION.topic() + "-" + PARTITION.partition());
        long[] active = {-1};
        TieredRecords.await(broker + " tiers every rolled segment and keeps only the active one", () -> {
            List<Long> bases = segmentBases(partitionDir);
            if (bases.size() != 1 || bases.getFirst() == 0) {
                return false;
            }
            active[0] = bases.getFirst();
            return offset(bootstrap, OffsetSpec.latestTiered()) == active[0] - 1
                    && offset(bootstrap, OffsetSpec.earliestLocal()) == active[0];
        });
        return active[0];
    }

    private static List<Long> segmentBases(Path partitionDir) throws IOException {
        try (Stream<Path> files = Files.list(partitionDir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.matches("\\d{20}\\.log"))
                    .map(n -> Long.parseLong(n.substring(0, 20)))
                    .sorted()
                    .toList();
        }
    }

    /** The segments in the tier, as {@code <start offset>-<segment id>}, whoever wrote them. */
    private static Set<String> tieredSegments(Path tier) throws IOException {
        return TierSegment.scan(tier).stream()
                .map(segment -> segment.startOffset() + "-" + segment.segmentId())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static long offset(String bootstrap, OffsetSpec spec) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            return admin.listOffsets(Map.of(PARTITION, spec))
                    .partitionResult(PARTITION)
                    .get(30, TimeUnit.SECONDS)
                    .offset();
        }
    }

    private static Path testJar() {
        Path jar = ReferenceKafka.libs(KAFKA_VERSION).resolve("kafka-storage-" + KAFKA_VERSION + "-test.jar");
        assertTrue(Files.isRegularFile(jar), "no " + jar);
        return jar;
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                60_000));
    }
}
