package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A remote tier that fails copies and fetches on a schedule ({@link FlakyRemoteStorageManager}): the broker keeps
 * serving local data, retries, reports the errors in its metrics, and neither loses nor duplicates a segment.
 */
class TieredStorageFaultIT {
    @TempDir
    Path work;

    @Test
    void failingCopiesAndFetchesAreRetriedCountedAndLoseNothing() throws Exception {
        Path tier = Files.createDirectories(work.resolve("tier"));
        try (KrabkaBroker broker = KrabkaBroker.start(
                work.resolve("broker"),
                Map.of(
                        "remote.log.storage.system.enable", "true",
                        "remote.log.storage.manager.class.name", FlakyRemoteStorageManager.class.getName(),
                        "remote.log.storage.manager.class.path", flakyClassPath(),
                        "rsm.config.dir", tier.toString(),
                        "rsm.config.fail.copy.every", "3",
                        "rsm.config.fail.fetch.every", "4",
                        "remote.log.metadata.manager.class.name", "inmemory",
                        "remote.log.manager.task.interval.ms", "500",
                        "remote.log.manager.task.retry.backoff.ms", "100",
                        "log.retention.check.interval.ms", "500"))) {
            TopicPartition tiered = new TopicPartition("flaky", 0);
            TopicPartition local = new TopicPartition("local", 0);
            TopicIdPartition idPartition;
            try (Admin admin =
                    Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                admin.createTopics(List.of(
                                new NewTopic(tiered.topic(), 1, (short) 1)
                                        .configs(Map.of(
                                                "remote.storage.enable",
                                                "true",
                                                "local.retention.bytes",
                                                "1",
                                                "segment.bytes",
                                                "1048576")),
                                new NewTopic(local.topic(), 1, (short) 1)))
                        .all()
                        .get(1, TimeUnit.MINUTES);
                idPartition = new TopicIdPartition(
                        Uuid.fromString(admin.describeTopics(List.of(tiered.topic()))
                                .allTopicNames()
                                .get(1, TimeUnit.MINUTES)
                                .get(tiered.topic())
                                .topicId()
                                .toString()),
                        tiered.topic(),
                        0);
            }
            long records = TieredRecords.count(24);
            TieredRecords.produce(broker.bootstrapServers(), tiered, 0, records, n -> System.currentTimeMillis());
            // Local data is served while copies fail.
            TieredRecords.produce(broker.bootstrapServers(), local, 0, 500, n -> System.currentTimeMillis());
            TieredRecords.assertReadsExactly(broker.bootstrapServers(), local, 0, 500);

            Path partitionDir = broker.logDir().resolve("flaky-0");
            TieredRecords.await("every closed segment copied despite the failures, and deleted locally", () -> {
                List<Path> logs = logs(partitionDir);
                return logs.size() == 1 && latestTiered(broker, tiered) == base(logs.getFirst()) - 1;
            });
            long activeBase = base(logs(partitionDir).getFirst());
            RemoteTier.assertExactlyCovers(
                    RemoteTier.segments(broker.tieredStorageDir(), idPartition, work),
                    0,
                    activeBase - 1,
                    tier,
                    idPartition);
            // Every fourth segment fetch fails: the consumer is answered with an error and fetches again.
            TieredRecords.assertReadsExactly(broker.bootstrapServers(), tiered, 0, records);

            String metrics = broker.metrics();
            assertTrue(TieredStorageIT.counter(metrics, "remotecopyerrorspersec_count", "flaky") > 0, metrics);
            assertTrue(TieredStorageIT.counter(metrics, "remotefetcherrorspersec_count", "flaky") > 0, metrics);
            assertEquals(0, TieredStorageIT.counter(metrics, "remotecopylagsegments_value", "flaky"), metrics);
        }
    }

    /** This class's own directory and the distribution's {@code local} plugin, as Kafka's class.path takes them. */
    private static String flakyClassPath() throws IOException, URISyntaxException {
        List<String> entries = new ArrayList<>();
        entries.add(Path.of(FlakyRemoteStorageManager.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .toString());
        try (Stream<Path> jars = Files.list(
                Path.of(System.getProperty(DistributionPlugins.DIST_PROPERTY)).resolve("plugins/local"))) {
            jars.filter(j -> j.toString().endsWith(".jar")).map(Path::toString).forEach(entries::add);
        }
        return entries.stream().collect(Collectors.joining(":"));
    }

    private static long latestTiered(KrabkaBroker broker, TopicPartition partition) throws Exception {
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            return admin.listOffsets(Map.of(partition, OffsetSpec.latestTiered()))
                    .partitionResult(partition)
                    .get(1, TimeUnit.MINUTES)
                    .offset();
        }
    }

    private static List<Path> logs(Path partitionDir) throws IOException {
        try (Stream<Path> files = Files.list(partitionDir)) {
            return files.filter(f -> f.getFileName().toString().matches("\\d{20}\\.log"))
                    .sorted()
                    .toList();
        }
    }

    private static long base(Path segment) {
        return Long.parseLong(segment.getFileName().toString().substring(0, 20));
    }
}
