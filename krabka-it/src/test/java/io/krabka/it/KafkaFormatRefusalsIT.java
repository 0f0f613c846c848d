package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code krabka format} refuses what Apache Kafka 4.4.0's {@code kafka-storage format} refuses, with Kafka's
 * message, but with the original Krabka's exit codes where Kafka exits 1 for everything: 3 for a directory that is
 * formatted or belongs to another cluster or node, 4 for an invalid voter set, 5 for invalid features. Nothing is
 * written by a refused format.
 */
class KafkaFormatRefusalsIT {
    private static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qk";
    private static final int CONTROLLER_PORT = 19093;

    private static Path work;
    private static KafkaStorageTool kafka;
    private static KrabkaCommand krabka;
    private static int cases;

    @BeforeAll
    static void tools() throws IOException {
        work = Path.of(System.getProperty(KafkaLogs.WORK_PROPERTY)).resolve("kafka-format-refusals");
        KafkaLogWriter.deleteRecursively(work);
        kafka = new KafkaStorageTool(work.resolve("tools"));
        krabka = new KrabkaCommand(work.resolve("tools"));
    }

    static Stream<List<String>> invalidFeatures() {
        return Stream.of(
                List.of("--feature", "group.version=2"),
                List.of("--feature", "foo.version=1"),
                List.of("--feature", "group.version=x"),
                List.of("--feature", "group.version"),
                List.of("--feature", "metadata.version=20", "--release-version", "4.4"),
                List.of("--feature", "metadata.version=34"),
                List.of("--feature", "metadata.version=35"),
                List.of("--release-version", "4.5-IV0"),
                List.of("--feature", "kraft.version=0"),
                List.of("--feature", "kraft.version=2"),
                List.of("--release-version", "4.0-IV0", "--feature", "eligible.leader.replicas.version=1"));
    }

    @ParameterizedTest(name = "--standalone {0}")
    @MethodSource("invalidFeatures")
    void invalidFeaturesAreRefusedWithKafkasMessage(List<String> flags) throws Exception {
        Path dir = caseDir();
        Path krabkaDir = dir.resolve("krabka");
        ToolRun theirs = kafka.format(
                kafka.config(
                        dir.getFileName().toString(), 1, List.of(dir.resolve("kafka")), CONTROLLER_PORT, List.of()),
                concat(List.of("--cluster-id", CLUSTER_ID, "--standalone"), flags));
        ToolRun ours = krabka.run(concat(
                        List.of(
                                "format",
                                "--log-dir",
                                krabkaDir.toString(),
                                "--node-id",
                                "1",
                                "--cluster-id",
                                CLUSTER_ID,
                                "--standalone"),
                        flags)
                .toArray(String[]::new));

        assertEquals(1, theirs.exitCode(), theirs.describe());
        assertEquals(5, ours.exitCode(), ours.describe());
        assertEquals("krabka format: " + kafkaMessage(theirs) + "\n", ours.err());
        assertEquals("", ours.out());
        assertFalse(Files.exists(krabkaDir));
    }

    @Test
    void anInvalidVoterSetIsRefusedWithKafkasMessage() throws Exception {
        for (String voters : List.of(
                "1@h", "1@h:1:0XYIQhIGSoePQhGC5Avl4w,1@g:2:0XYIQhIGSoePQhGC5Avl4w", "x@h:1:0XYIQhIGSoePQhGC5Avl4w")) {
            Path dir = caseDir();
            Path krabkaDir = dir.resolve("krabka");
            ToolRun theirs = kafka.format(
                    kafka.config(
                            dir.getFileName().toString(), 1, List.of(dir.resolve("kafka")), CONTROLLER_PORT, List.of()),
                    List.of("--cluster-id", CLUSTER_ID, "--initial-controllers", voters));
            ToolRun ours = krabka.run(
                    "format",
                    "--log-dir",
                    krabkaDir.toString(),
                    "--node-id",
                    "1",
                    "--cluster-id",
                    CLUSTER_ID,
                    "--initial-controllers",
                    voters);

            assertEquals(1, theirs.exitCode(), theirs.describe());
            assertEquals(2, ours.exitCode(), ours.describe());
            assertEquals("krabka format: --initial-controllers: " + kafkaMessage(theirs) + "\n", ours.err());
            assertFalse(Files.exists(krabkaDir));
        }
    }

    @Test
    void formattedDirectoriesAreRefusedOrSkippedAsKafkaRefusesOrSkipsThem() throws Exception {
        Path dir = caseDir();
        Path kafkaDir = dir.resolve("kafka");
        Path krabkaDir = dir.resolve("krabka");
        Path config = kafka.config("formatted", 1, List.of(kafkaDir), CONTROLLER_PORT, List.of());
        Path otherNode = kafka.config("formatted-node-2", 2, List.of(kafkaDir), CONTROLLER_PORT, List.of());
        List<String> krabkaFormat = List.of("format", "--log-dir", krabkaDir.toString(), "--standalone");
        assertEquals(
                0,
                kafka.format(config, List.of("--cluster-id", CLUSTER_ID, "--standalone"))
                        .exitCode());
        assertEquals(
                0,
                krabka.run(concat(krabkaFormat, List.of("--node-id", "1", "--cluster-id", CLUSTER_ID))
                                .toArray(String[]::new))
                        .exitCode());

        record Refusal(Path config, List<String> kafkaFlags, List<String> krabkaFlags) {}
        for (Refusal refusal : List.of(
                new Refusal(
                        config,
                        List.of("--cluster-id", CLUSTER_ID),
                        List.of("--node-id", "1", "--cluster-id", CLUSTER_ID)),
                new Refusal(
                        config,
                        List.of("--cluster-id", "AAAAAAAAAAAAAAAAAAAAAA", "--ignore-formatted"),
                        List.of("--node-id", "1", "--cluster-id", "AAAAAAAAAAAAAAAAAAAAAA", "--ignore-formatted")),
                new Refusal(
                        otherNode,
                        List.of("--cluster-id", CLUSTER_ID),
                        List.of("--node-id", "2", "--cluster-id", CLUSTER_ID)))) {
            ToolRun theirs = kafka.format(refusal.config(), concat(List.of("--standalone"), refusal.kafkaFlags()));
            ToolRun ours =
                    krabka.run(concat(krabkaFormat, refusal.krabkaFlags()).toArray(String[]::new));

            assertEquals(1, theirs.exitCode(), theirs.describe());
            assertEquals(3, ours.exitCode(), ours.describe());
            assertEquals(
                    "krabka format: " + kafkaMessage(theirs).replace(kafkaDir.toString(), krabkaDir.toString()) + "\n",
                    ours.err());
        }

        ToolRun theirs =
                kafka.format(config, List.of("--cluster-id", CLUSTER_ID, "--standalone", "--ignore-formatted"));
        ToolRun ours = krabka.run(
                concat(krabkaFormat, List.of("--node-id", "1", "--cluster-id", CLUSTER_ID, "--ignore-formatted"))
                        .toArray(String[]::new));
        assertEquals(0, theirs.exitCode(), theirs.describe());
        assertEquals(0, ours.exitCode(), ours.describe());
        assertTrue(theirs.out().endsWith("All of the log directories are already formatted.\n"), theirs.describe());
        assertTrue(ours.out().endsWith("All of the log directories are already formatted.\n"), ours.describe());
    }

    // What Kafka says: the first line of its output that is not the bootstrap metadata or a stack frame, without the
    // "Exception in thread" prefix of a failure it did not catch.
    private static String kafkaMessage(ToolRun run) {
        String line = Stream.concat(run.err().lines(), run.out().lines())
                .filter(l -> !l.startsWith("Bootstrap metadata:")
                        && !l.startsWith("\tat ")
                        && !l.startsWith("WARNING:")
                        && !l.isBlank())
                .findFirst()
                .orElseThrow(() -> new AssertionError("Kafka said nothing: " + run.describe()));
        return line.replaceFirst("^Exception in thread \"main\" [\\w.$]+: ", "");
    }

    private static Path caseDir() {
        return work.resolve("case-" + ++cases);
    }

    private static List<String> concat(List<String> head, List<String> tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(tail);
        return all;
    }
}
