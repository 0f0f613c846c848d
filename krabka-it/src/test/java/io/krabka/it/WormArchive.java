package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/** A write-once archive in a local directory, as the IT reads and tampers with it, and {@code krabka verify} on it. */
final class WormArchive {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The local store's directory: the {@code dir} the broker's {@code rsm.config.store.dir} names. */
    final Path dir;

    WormArchive(Path dir) {
        this.dir = dir;
    }

    /** The objects' root below the store's directory. */
    Path root() {
        return dir.resolve("kafka-tiered-storage");
    }

    /** A copy of the whole archive, to tamper with. */
    WormArchive copy(Path to) throws IOException {
        FileTrees.copy(dir, to);
        return new WormArchive(to);
    }

    /** The partition directories, by name. */
    List<Path> partitions() throws IOException {
        try (Stream<Path> dirs = Files.list(root())) {
            return dirs.filter(Files::isDirectory).sorted().toList();
        }
    }

    /** The files of a partition directory with a suffix, in key order (so in offset order). */
    static List<Path> files(Path partition, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(partition)) {
            return files.filter(f -> f.getFileName().toString().endsWith("." + suffix))
                    .sorted()
                    .toList();
        }
    }

    /** Every file of the archive, relative to its directory. */
    List<String> allFiles() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .map(f -> dir.relativize(f).toString())
                    .sorted()
                    .toList();
        }
    }

    /** {@code krabka verify --local-dir} on this archive, trusting {@code keys}, with more arguments. */
    ToolRun verify(KrabkaCommand krabka, WormKeys keys, String... more) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(
                "verify",
                "--local-dir",
                dir.toString(),
                "--key-id",
                keys.id(),
                "--public-key",
                keys.publicKey().toString()));
        args.addAll(List.of(more));
        return krabka.run(args.toArray(String[]::new));
    }

    /** The tips a clean {@code verify --format json} reports, by partition directory. */
    static Map<String, String> tips(ToolRun run) {
        assertEquals(0, run.exitCode(), run.describe());
        try {
            Map<String, String> tips = new TreeMap<>();
            for (JsonNode partition : JSON.readTree(run.out()).path("report").path("partitions")) {
                tips.put(
                        partition.path("partition_dir").asText(),
                        partition.path("head").asText());
            }
            return tips;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until each partition keeps only its active segment and has at least {@code segments} archived. */
    static void awaitArchived(KrabkaBroker broker, List<TopicPartition> partitions, int segments) throws Exception {
        TieredRecords.await(segments + " segments of " + partitions + " archived", () -> {
            for (TopicPartition partition : partitions) {
                try (Admin admin =
                        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                    long tiered = admin.listOffsets(Map.of(partition, OffsetSpec.latestTiered()))
                            .partitionResult(partition)
                            .get(1, TimeUnit.MINUTES)
                            .offset();
                    long localStart = admin.listOffsets(Map.of(partition, OffsetSpec.earliestLocal()))
                            .partitionResult(partition)
                            .get(1, TimeUnit.MINUTES)
                            .offset();
                    if (tiered < 0 || localStart != tiered + 1 || tiered + 1 < segments * 100L) {
                        return false;
                    }
                }
            }
            return true;
        });
    }

    /**
     * Creates a one-partition tiered topic of 1 MiB segments that keeps only its active segment locally, produces
     * {@code records} into it, waits until two segments are archived, and reads every record back from offset 0.
     */
    static void archiveOnePartition(KrabkaBroker broker, TopicPartition partition, long records) throws Exception {
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(partition.topic(), 1, (short) 1)
                            .configs(Map.of(
                                    "remote.storage.enable",
                                    "true",
                                    "local.retention.bytes",
                                    "1",
                                    "segment.bytes",
                                    "1048576"))))
                    .all()
                    .get(1, TimeUnit.MINUTES);
        }
        TieredRecords.produce(broker.bootstrapServers(), partition, 0, records, n -> System.currentTimeMillis());
        awaitArchived(broker, List.of(partition), 2);
        TieredRecords.assertReadsExactly(broker.bootstrapServers(), partition, 0, records);
    }

    /**
     * Formats a log directory and starts a broker on it with {@code settings}, which must stop it at start: exit 2
     * and one line of its own on standard error, which this returns.
     */
    static String refusedStart(KrabkaCommand krabka, Path logDir, Map<String, String> settings) throws Exception {
        Files.createDirectories(logDir);
        assertEquals(
                0,
                krabka.run("format", "--log-dir", logDir.toString(), "--node-id", "1", "--standalone")
                        .exitCode());
        List<String> args = new ArrayList<>(List.of(
                "broker",
                "--log-dir",
                logDir.toString(),
                "--listen-addr",
                "127.0.0.1:0",
                "--health-listen-addr",
                "127.0.0.1:0"));
        settings.forEach((key, value) -> args.addAll(List.of("--override", key + "=" + value)));
        ToolRun refused = krabka.run(args.toArray(String[]::new));
        assertEquals(2, refused.exitCode(), refused.describe());
        List<String> lines = refused.err()
                .strip()
                .lines()
                .filter(l -> l.startsWith("krabka broker:"))
                .toList();
        assertEquals(1, lines.size(), refused.describe());
        return lines.getFirst();
    }

    /**
     * Restores the archive that {@code source} names (the restore command's archive flags) with the trusted key,
     * checks the report says it was authenticated, starts Krabka on the result and reads every restored record of
     * {@code partition} back, byte for byte as produced.
     */
    static void assertRestoresAuthenticated(
            KrabkaCommand krabka, Path work, WormKeys keys, TopicPartition partition, String... source)
            throws Exception {
        Path restored = work.resolve("restored");
        List<String> args = new ArrayList<>(List.of("restore"));
        args.addAll(List.of(source));
        args.addAll(List.of(
                "--log-dir",
                restored.toString(),
                "--node-id",
                "1",
                "--worm-key-id",
                keys.id(),
                "--worm-public-key",
                keys.publicKey().toString(),
                "--report",
                "json"));
        ToolRun run = krabka.run(args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.describe());
        JsonNode report = JSON.readTree(run.out());
        assertEquals(1, report.path("authentication").path("partitions").asInt(), run.out());
        JsonNode segments = report.path("partitions").path(0).path("segments");
        assertTrue(segments.size() >= 2, run.out());
        long end = segments.path(segments.size() - 1).path("end_offset").asLong() + 1;
        try (KrabkaBroker broker = KrabkaBroker.start(
                work.resolve("restored-broker"), Map.of(), (bin, logDir) -> FileTrees.copy(restored, logDir))) {
            TieredRecords.assertReadsExactly(broker.bootstrapServers(), partition, 0, end);
        }
    }
}
