package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.format.BootstrapFeatures;
import io.krabka.kernel.format.DirectoryId;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.QuorumInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code krabka format}, run from the distribution, against Apache Kafka 4.4.0's own {@code kafka-storage format}
 * for the same cluster id, node id and directory id: the same files, the same bytes and permissions. Only the
 * times Kafka reads from its clock differ ({@link SnapshotTimes}: the snapshot's batch timestamps and header
 * timestamp, and the CRCs over them); the comparison puts Kafka's times into Krabka's snapshot, recomputes the
 * CRCs, and wants Kafka's file byte for byte, after checking every CRC of both files and every time against the
 * run that wrote it. A data directory's id is random in both (Kafka takes none), so it is compared as a valid,
 * distinct id, and the rest of the file byte for byte. The {@code meta.properties} date line is the JDK's
 * {@code java.properties.date}, set alike for both. Then Kafka's own readers read Krabka's files: kafka-dump-log
 * decodes the snapshot as it decodes its own, {@code kafka-storage info} finds the directory well formed, and a
 * Kafka 4.4 broker starts on it with Krabka's cluster id, feature levels and voter.
 */
@ResourceLock(ReferenceKafka.BROKER_LOCK)
class KafkaFormatIT {
    private static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qk";
    private static final int CONTROLLER_PORT = 19093;
    private static final String STANDALONE_LISTENER = "127.0.0.1:" + CONTROLLER_PORT;
    private static final String SNAPSHOT = "__cluster_metadata-0/00000000000000000000-0000000000.checkpoint";
    // Names Kafka would look up are left out: the lookups would leave the machine.
    private static final String VOTERS = "17@10.0.0.17:9093:AAAAAAAAAAAAAAAAAAAAEQ,1@" + STANDALONE_LISTENER
            + ":0XYIQhIGSoePQhGC5Avl4w,33@[::1]:9093:AAAAAAAAAAAAAAAAAAAAIQ,16@localhost:9093:AAAAAAAAAAAAAAAAAAAAEA,"
            + "100000@[fe80::1]:9093:kFtEAwnxTqKW0CKbOLkH0g,2@:9093:AAAAAAAAAAAAAAAAAAAAAg";

    private static Path work;
    private static KafkaStorageTool kafka;
    private static KrabkaCommand krabka;

    @BeforeAll
    static void tools() throws IOException {
        work = Path.of(System.getProperty(KafkaLogs.WORK_PROPERTY)).resolve("kafka-format");
        KafkaLogWriter.deleteRecursively(work);
        kafka = new KafkaStorageTool(work.resolve("tools"));
        krabka = new KrabkaCommand(work.resolve("tools"));
    }

    static Stream<Arguments> formats() {
        List<String> standalone = List.of("--standalone");
        List<String> krabkaStandalone = List.of("--standalone", "--controller-listener", STANDALONE_LISTENER);
        return Stream.of(
                Arguments.of("standalone", standalone, krabkaStandalone, 1),
                Arguments.of(
                        "standalone-3.9",
                        concat(standalone, "--release-version", "3.9-IV0", "--feature", "group.version=1"),
                        concat(krabkaStandalone, "--release-version", "3.9-IV0", "--feature", "group.version=1"),
                        1),
                Arguments.of(
                        "standalone-4.0-features-off",
                        concat(
                                standalone,
                                "--release-version",
                                "4.0",
                                "--feature",
                                "transaction.version=1",
                                "--feature",
                                "group.version=0"),
                        concat(
                                krabkaStandalone,
                                "--release-version",
                                "4.0",
                                "--feature",
                                "transaction.version=1",
                                "--feature",
                                "group.version=0"),
                        1),
                Arguments.of(
                        "standalone-metadata-version-feature",
                        concat(standalone, "--feature", "metadata.version=20"),
                        concat(krabkaStandalone, "--feature", "metadata.version=20"),
                        1),
                Arguments.of("standalone-two-log-dirs", standalone, krabkaStandalone, 2),
                Arguments.of(
                        "initial-controllers",
                        List.of("--initial-controllers", VOTERS),
                        List.of("--initial-controllers", VOTERS),
                        1),
                Arguments.of(
                        "no-initial-controllers",
                        List.of("--no-initial-controllers"),
                        List.of("--no-initial-controllers"),
                        2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void krabkaWritesWhatKafkaWrites(String name, List<String> kafkaFlags, List<String> krabkaFlags, int logDirs)
            throws Exception {
        List<Path> kafkaDirs = dirs(name, "kafka", logDirs);
        List<Path> krabkaDirs = dirs(name, "krabka", logDirs);
        Path config = kafka.config(name, 1, kafkaDirs, CONTROLLER_PORT, List.of());

        long kafkaStart = System.currentTimeMillis();
        ToolRun kafkaRun =
                kafka.format(config, concat(List.of("--cluster-id", CLUSTER_ID), kafkaFlags.toArray(String[]::new)));
        long kafkaEnd = System.currentTimeMillis();
        assertEquals(0, kafkaRun.exitCode(), kafkaRun.describe());
        String directoryId = metaProperties(kafkaDirs.getFirst()).getProperty("directory.id");

        List<String> args = new ArrayList<>(
                List.of("format", "--node-id", "1", "--cluster-id", CLUSTER_ID, "--directory-id", directoryId));
        krabkaDirs.forEach(dir -> args.addAll(List.of("--log-dir", dir.toString())));
        args.addAll(krabkaFlags);
        long krabkaStart = System.currentTimeMillis();
        ToolRun krabkaRun = krabka.run(args.toArray(String[]::new));
        long krabkaEnd = System.currentTimeMillis();
        assertEquals(0, krabkaRun.exitCode(), krabkaRun.describe());

        for (int i = 0; i < logDirs; i++) {
            assertSameDirectory(kafkaDirs.get(i), krabkaDirs.get(i), i == 0);
        }
        assertSameSnapshot(
                kafkaDirs.getFirst().resolve(SNAPSHOT),
                kafkaStart,
                kafkaEnd,
                krabkaDirs.getFirst().resolve(SNAPSHOT),
                krabkaStart,
                krabkaEnd);
        assertKafkaReadsItAsItsOwn(name, kafkaDirs, krabkaDirs);
    }

    @Test
    void aKafkaBrokerRunsOnKrabkasFormat() throws Exception {
        Uuid directoryId = Uuid.fromString("0XYIQhIGSoePQhGC5Avl4w");
        ReferenceKafka.Format format = (config, logDir, controllerListener) -> {
            ToolRun run = krabka.run(
                    "format",
                    "--log-dir",
                    logDir.toString(),
                    "--node-id",
                    "1",
                    "--cluster-id",
                    CLUSTER_ID,
                    "--directory-id",
                    directoryId.toString(),
                    "--standalone",
                    "--controller-listener",
                    controllerListener);
            assertEquals(0, run.exitCode(), run.describe());
        };
        try (ReferenceKafka broker =
                        ReferenceKafka.start(KafkaStorageTool.KAFKA_VERSION, work.resolve("broker"), Map.of(), format);
                Admin admin =
                        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            assertEquals(CLUSTER_ID, admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS));

            Map<String, Short> finalized = new TreeMap<>();
            admin.describeFeatures()
                    .featureMetadata()
                    .get(30, TimeUnit.SECONDS)
                    .finalizedFeatures()
                    .forEach((feature, range) -> finalized.put(feature, range.maxVersionLevel()));
            Map<String, Short> ours = new TreeMap<>(
                    BootstrapFeatures.resolve(Optional.empty(), List.of()).levels());
            ours.values().removeIf(level -> level == 0);
            assertEquals(ours, finalized);

            QuorumInfo quorum = admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS);
            assertEquals(
                    List.of("1 " + directoryId),
                    quorum.voters().stream()
                            .map(voter -> voter.replicaId() + " " + voter.replicaDirectoryId())
                            .toList());
            assertEquals(1, quorum.leaderId());
        }
    }

    private static void assertSameDirectory(Path kafkaDir, Path krabkaDir, boolean metadataDir) throws IOException {
        assertEquals(files(kafkaDir), files(krabkaDir), krabkaDir.toString());
        for (String file : files(kafkaDir)) {
            assertEquals(
                    Files.getPosixFilePermissions(kafkaDir.resolve(file)),
                    Files.getPosixFilePermissions(krabkaDir.resolve(file)),
                    file);
        }
        String theirs = Files.readString(kafkaDir.resolve("meta.properties"));
        String ours = Files.readString(krabkaDir.resolve("meta.properties"));
        if (!metadataDir) {
            Uuid id = Uuid.fromString(metaProperties(krabkaDir).getProperty("directory.id"));
            assertFalse(DirectoryId.isReserved(id));
            assertNotEquals(
                    metaProperties(krabkaDir.resolveSibling("log-dir-0")).getProperty("directory.id"), id.toString());
            theirs = theirs.replace(metaProperties(kafkaDir).getProperty("directory.id"), id.toString());
        }
        assertEquals(theirs, ours, krabkaDir + "/meta.properties");
        assertTrue(ours.startsWith("#\n#" + KafkaStorageTool.PROPERTIES_DATE + "\n"), ours);
    }

    private static void assertSameSnapshot(
            Path kafkaFile, long kafkaStart, long kafkaEnd, Path krabkaFile, long krabkaStart, long krabkaEnd)
            throws IOException {
        byte[] theirs = Files.readAllBytes(kafkaFile);
        byte[] ours = Files.readAllBytes(krabkaFile);
        List<SnapshotTimes.Batch> kafkaBatches = SnapshotTimes.batches(theirs);
        List<SnapshotTimes.Batch> krabkaBatches = SnapshotTimes.batches(ours);
        assertEquals(3, kafkaBatches.size(), "header, features, footer");
        assertTrue(
                Stream.concat(kafkaBatches.stream(), krabkaBatches.stream()).allMatch(SnapshotTimes.Batch::crcValid));

        // Kafka read its clock for the header, then for each batch in turn; Krabka once for all.
        long previous = SnapshotTimes.headerTimestamp(theirs);
        assertTrue(kafkaStart <= previous, "Kafka's header time " + previous + " before its run at " + kafkaStart);
        for (SnapshotTimes.Batch batch : kafkaBatches) {
            assertEquals(batch.baseTimestamp(), batch.maxTimestamp());
            assertTrue(
                    previous <= batch.baseTimestamp() && batch.baseTimestamp() <= kafkaEnd,
                    batch + " after " + previous);
            previous = batch.baseTimestamp();
        }
        long krabkaTime = SnapshotTimes.headerTimestamp(ours);
        assertTrue(krabkaStart <= krabkaTime && krabkaTime <= krabkaEnd, krabkaTime + " outside Krabka's run");
        krabkaBatches.forEach(batch ->
                assertEquals(List.of(krabkaTime, krabkaTime), List.of(batch.baseTimestamp(), batch.maxTimestamp())));

        assertArrayEquals(theirs, SnapshotTimes.withTimesOf(ours, theirs), "Krabka's snapshot with Kafka's times");
    }

    private static void assertKafkaReadsItAsItsOwn(String name, List<Path> kafkaDirs, List<Path> krabkaDirs)
            throws Exception {
        ToolRun theirsDumped = kafka.dumpSnapshot(kafkaDirs.getFirst().resolve(SNAPSHOT));
        ToolRun oursDumped = kafka.dumpSnapshot(krabkaDirs.getFirst().resolve(SNAPSHOT));
        assertEquals(0, oursDumped.exitCode(), oursDumped.describe());
        assertEquals(
                3,
                oursDumped
                        .out()
                        .lines()
                        .filter(line -> line.endsWith("isvalid: true"))
                        .count(),
                oursDumped.describe());
        assertEquals(
                withoutTimes(theirsDumped.out(), kafkaDirs.getFirst()),
                withoutTimes(oursDumped.out(), krabkaDirs.getFirst()));

        ToolRun theirsInfo = kafka.info(kafka.config(name + "-kafka-info", 1, kafkaDirs, CONTROLLER_PORT, List.of()));
        ToolRun oursInfo = kafka.info(kafka.config(name + "-krabka-info", 1, krabkaDirs, CONTROLLER_PORT, List.of()));
        assertEquals(0, oursInfo.exitCode(), oursInfo.describe());
        assertTrue(oursInfo.out().contains("Found metadata: {cluster.id=" + CLUSTER_ID), oursInfo.describe());
        assertFalse(oursInfo.out().contains("problem"), oursInfo.describe());
        String theirs = theirsInfo.out();
        for (int i = 0; i < kafkaDirs.size(); i++) {
            theirs = theirs.replace(
                            kafkaDirs.get(i).toString(), krabkaDirs.get(i).toString())
                    .replace(
                            metaProperties(kafkaDirs.get(i)).getProperty("directory.id"),
                            metaProperties(krabkaDirs.get(i)).getProperty("directory.id"));
        }
        assertEquals(theirs, oursInfo.out());
    }

    private static String withoutTimes(String dump, Path dir) {
        return dump.replace(dir.toString(), "<dir>")
                .replaceAll("CreateTime: \\d+", "CreateTime: <t>")
                .replaceAll("crc: \\d+", "crc: <crc>")
                .replaceAll("\"lastContainedLogTimestamp\":\\d+", "\"lastContainedLogTimestamp\":<t>");
    }

    private static List<Path> dirs(String name, String tool, int count) {
        return Stream.iterate(0, i -> i + 1)
                .limit(count)
                .map(i -> work.resolve(name).resolve(tool).resolve("log-dir-" + i))
                .toList();
    }

    private static List<String> files(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile)
                    .map(file -> dir.relativize(file).toString())
                    .sorted()
                    .collect(Collectors.toList());
        }
    }

    private static Properties metaProperties(Path dir) throws IOException {
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(dir.resolve("meta.properties"))) {
            props.load(in);
        }
        return props;
    }

    private static List<String> concat(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(tail));
        return all;
    }
}
