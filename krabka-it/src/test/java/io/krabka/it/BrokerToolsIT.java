package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Other clients than the Java one against Krabka's broker: Apache Kafka 4.4's own command-line tools
 * (kafka-topics, the console producer and consumer, kafka-consumer-groups) and librdkafka through {@code kcat}
 * (Debian's package; {@code .ci/run} installs it).
 */
class BrokerToolsIT {
    private static final String KAFKA = "4.4.0";
    private static final String KCAT = "/usr/bin/kcat";

    private static KrabkaBroker broker;
    private static KafkaTools tools;
    private static Path work;

    @BeforeAll
    static void start() throws Exception {
        work = Path.of(System.getProperty(KafkaLogs.WORK_PROPERTY), "broker-tools");
        broker = KrabkaBroker.start(work.resolve("broker"), Map.of("group.initial.rebalance.delay.ms", "0"));
        tools = new KafkaTools(work.resolve("kafka-tools"), KAFKA, List.of());
    }

    @AfterAll
    static void stop() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void kafkasToolsCreateProduceConsumeAndDescribeGroups() throws Exception {
        ToolRun created = tool(
                "topics-create",
                null,
                "org.apache.kafka.tools.TopicCommand",
                "--create",
                "--topic",
                "tools",
                "--partitions",
                "3",
                "--replication-factor",
                "1");
        assertTrue(created.out().contains("Created topic tools."), created.describe());
        ToolRun described =
                tool("topics-describe", null, "org.apache.kafka.tools.TopicCommand", "--describe", "--topic", "tools");
        assertTrue(described.out().contains("PartitionCount: 3"), described.describe());
        ToolRun listed = tool("topics-list", null, "org.apache.kafka.tools.TopicCommand", "--list");
        assertTrue(listed.out().lines().anyMatch("tools"::equals), listed.describe());

        String lines = IntStream.range(0, 300)
                .mapToObj(i -> "key-" + i + ":value-" + i)
                .collect(Collectors.joining("\n", "", "\n"));
        tool(
                "console-producer",
                lines,
                "org.apache.kafka.tools.ConsoleProducer",
                "--topic",
                "tools",
                "--property",
                "parse.key=true",
                "--property",
                "key.separator=:");
        ToolRun consumed = tool(
                "console-consumer",
                null,
                "org.apache.kafka.tools.consumer.ConsoleConsumer",
                "--topic",
                "tools",
                "--from-beginning",
                "--max-messages",
                "300",
                "--group",
                "tools-group",
                "--formatter-property",
                "print.key=true",
                "--formatter-property",
                "key.separator=:");
        assertEquals(
                lines.lines().sorted().toList(), consumed.out().lines().sorted().toList(), consumed.describe());

        ToolRun groups =
                tool("groups-list", null, "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand", "--list");
        assertTrue(groups.out().lines().anyMatch("tools-group"::equals), groups.describe());
        ToolRun group = tool(
                "groups-describe",
                null,
                "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
                "--describe",
                "--group",
                "tools-group");
        // Every partition of the topic, each with a lag of 0: the console consumer committed what it read.
        List<String> rows = group.out()
                .lines()
                .filter(line -> line.startsWith("tools-group"))
                .toList();
        assertEquals(3, rows.size(), group.describe());
        rows.forEach(row -> assertEquals("0", row.split("\\s+")[5], "LAG column of " + row));

        ToolRun deleted =
                tool("topics-delete", null, "org.apache.kafka.tools.TopicCommand", "--delete", "--topic", "tools");
        assertEquals(0, deleted.exitCode(), deleted.describe());
    }

    @Test
    void librdkafkaProducesAndConsumesThroughKcat() throws Exception {
        String lines =
                IntStream.range(0, 500).mapToObj(i -> "k" + i + ":v" + i).collect(Collectors.joining("\n", "", "\n"));
        ToolRun produced = ToolRun.run(
                work,
                "kcat-produce",
                List.of(KCAT, "-b", broker.bootstrapServers(), "-P", "-t", "kcat", "-K", ":"),
                Map.of(),
                lines);
        assertEquals(0, produced.exitCode(), produced.describe());
        ToolRun consumed = ToolRun.run(
                work,
                "kcat-consume",
                List.of(
                        KCAT,
                        "-b",
                        broker.bootstrapServers(),
                        "-C",
                        "-t",
                        "kcat",
                        "-o",
                        "beginning",
                        "-e",
                        "-f",
                        "%k:%s\\n"),
                Map.of());
        assertEquals(0, consumed.exitCode(), consumed.describe());
        assertEquals(
                lines.lines().sorted().toList(), consumed.out().lines().sorted().toList(), consumed.describe());

        ToolRun metadata = ToolRun.run(
                work, "kcat-metadata", List.of(KCAT, "-b", broker.bootstrapServers(), "-L", "-t", "kcat"), Map.of());
        assertTrue(metadata.out().contains("topic \"kcat\" with"), metadata.describe());
    }

    private static ToolRun tool(String name, String input, String main, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(main, "--bootstrap-server", broker.bootstrapServers()));
        command.addAll(List.of(args));
        ToolRun run = tools.run(name, command, input);
        assertEquals(0, run.exitCode(), run.describe());
        return run;
    }
}
