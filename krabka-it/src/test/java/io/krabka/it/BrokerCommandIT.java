package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.ApiVersions;
import org.apache.kafka.clients.BootstrapConfiguration;
import org.apache.kafka.clients.ManualMetadataUpdater;
import org.apache.kafka.clients.MetadataRecoveryStrategy;
import org.apache.kafka.clients.NetworkClient;
import org.apache.kafka.clients.NetworkClientUtils;
import org.apache.kafka.clients.NodeApiVersions;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.network.PlaintextChannelBuilder;
import org.apache.kafka.common.network.Selector;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.internals.LogContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code krabka broker} as a real process of the distribution: a first start formats ({@code --format-if-needed}),
 * serves ApiVersions to Kafka's NetworkClient and reports ready; SIGTERM and SIGINT shut it down cleanly with exit 0,
 * so the next start recovers nothing; what stops it before it serves exits with its code and one line.
 */
class BrokerCommandIT {
    private static final String CLEAN_SHUTDOWN_MARKER = ".kafka_cleanshutdown";
    private static final String RECOVERING = "recovering them";

    private Path work;
    private KrabkaCommand krabka;

    @BeforeEach
    void work() throws IOException {
        work = Path.of(System.getProperty(KafkaLogs.WORK_PROPERTY)).resolve("broker-command");
        KafkaLogWriter.deleteRecursively(work);
        krabka = new KrabkaCommand(work.resolve("runs"));
    }

    @Test
    void aFirstStartFormatsServesAndStopsCleanlyOnSigtermThenRestartsWithoutRecoveryAndStopsOnSigint()
            throws Exception {
        Path data = work.resolve("data");
        int port = freePort();
        InetSocketAddress health = new InetSocketAddress("127.0.0.1", freePort());
        List<String> args = List.of(
                "broker",
                "--log-dir",
                data.toString(),
                "--listen-addr",
                "127.0.0.1:" + port,
                "--controller-listen-addr",
                "127.0.0.1:" + freePort(),
                "--health-listen-addr",
                "127.0.0.1:" + health.getPort());

        ToolRun first;
        try (KrabkaProcess broker = krabka.start(concat(args, "--format-if-needed"))) {
            broker.awaitReady(health);
            assertEquals(200, KrabkaProcess.status(health, "/healthz"));
            // Kafka's client negotiates with it (every API advertised is listed in BrokerIT).
            assertTrue(negotiate(port)
                    .allSupportedApiVersions()
                    .keySet()
                    .containsAll(Set.of(ApiKeys.API_VERSIONS, ApiKeys.METADATA, ApiKeys.PRODUCE, ApiKeys.FETCH)));
            broker.terminate();
            first = broker.awaitExit();
        }
        assertEquals(0, first.exitCode(), first.describe());
        assertTrue(
                first.out()
                        .contains("Formatting dynamic metadata voter directory "
                                + data.toAbsolutePath().normalize()),
                first.describe());
        assertTrue(first.err().contains("Shut down cleanly"), first.describe());
        assertTrue(Files.exists(data.resolve("meta.properties")));
        assertTrue(Files.exists(data.resolve(CLEAN_SHUTDOWN_MARKER)), first.describe());
        assertEquals(-1, KrabkaProcess.status(health, "/healthz"), "the health endpoint stopped with the broker");

        ToolRun second;
        try (KrabkaProcess broker = krabka.start(args.toArray(String[]::new))) {
            broker.awaitReady(health);
            // Kafka's client negotiates with it (every API advertised is listed in BrokerIT).
            assertTrue(negotiate(port)
                    .allSupportedApiVersions()
                    .keySet()
                    .containsAll(Set.of(ApiKeys.API_VERSIONS, ApiKeys.METADATA, ApiKeys.PRODUCE, ApiKeys.FETCH)));
            // Logs to shut down cleanly here, and to recover after the kill below.
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port))) {
                admin.createTopics(List.of(new NewTopic("logs", 2, (short) 1)))
                        .all()
                        .get(1, TimeUnit.MINUTES);
            }
            broker.signal("INT");
            second = broker.awaitExit();
        }
        assertEquals(0, second.exitCode(), second.describe());
        assertFalse(second.out().contains("Formatting"), second.describe());
        assertFalse(second.err().contains(RECOVERING), "a clean shutdown needs no recovery:\n" + second.describe());
        assertTrue(second.err().contains("Shut down cleanly"), second.describe());
        // kafka-clients logs through slf4j, bound in the distribution to java.util.logging: no slf4j complaints.
        assertFalse(second.err().contains("SLF4J"), second.describe());
        // With no tiered partition, the topic-based metadata manager has nothing to read and waits quietly.
        assertFalse(second.err().contains("reading __remote_log_metadata failed"), second.describe());

        // The check above can fail: a broker killed without its shutdown leaves logs the next start recovers.
        try (KrabkaProcess broker = krabka.start(args.toArray(String[]::new))) {
            broker.awaitReady(health);
            broker.signal("KILL");
            assertEquals(137, broker.awaitExit().exitCode());
        }
        try (KrabkaProcess broker = krabka.start(args.toArray(String[]::new))) {
            broker.awaitReady(health);
            broker.terminate();
            ToolRun afterKill = broker.awaitExit();
            assertEquals(0, afterKill.exitCode(), afterKill.describe());
            assertTrue(afterKill.err().contains(RECOVERING), afterKill.describe());
        }
    }

    @Test
    void badFlagsExit2AndAnUnformattedDirectoryExits3EachWithOneLine() throws Exception {
        ToolRun badFlag = krabka.run("broker", "--node-id", "x");
        assertEquals(2, badFlag.exitCode(), badFlag.describe());
        assertEquals("krabka broker: invalid value x for node.id: expected int\n", badFlag.err(), badFlag.describe());

        ToolRun unknown = krabka.run("broker", "--listen", "127.0.0.1:9092");
        assertEquals(2, unknown.exitCode(), unknown.describe());

        ToolRun badOverride = krabka.run("broker", "--override", "log.retention.hours=soon");
        assertEquals(2, badOverride.exitCode(), badOverride.describe());
        assertTrue(
                badOverride.err().startsWith("krabka broker: invalid value soon for log.retention.hours"),
                badOverride.describe());

        ToolRun misspelt = krabka.run(
                "broker",
                "--format-if-needed",
                "--log-dir",
                work.resolve("tiered").toString(),
                "--listen-addr",
                "127.0.0.1:0",
                "--health-listen-addr",
                "none",
                "--override",
                "remote.log.storage.system.enable=true",
                "--override",
                "remote.log.storage.manager.class.name=local",
                "--override",
                "rsm.config.dirr=/tmp");
        assertEquals(2, misspelt.exitCode(), misspelt.describe());
        assertTrue(
                misspelt.err()
                        .contains("krabka broker: the remote storage manager 'local' refuses its settings"
                                + " (rsm.config.*): unknown setting dirr; known: dir,"),
                misspelt.describe());

        Path empty = Files.createDirectories(work.resolve("empty"));
        ToolRun unformatted = krabka.run(
                "broker",
                "--log-dir",
                empty.toString(),
                "--listen-addr",
                "127.0.0.1:0",
                "--health-listen-addr",
                "none");
        assertEquals(3, unformatted.exitCode(), unformatted.describe());
        assertTrue(unformatted.err().contains("krabka format"), unformatted.describe());
        assertEquals(
                1,
                unformatted
                        .err()
                        .lines()
                        .filter(line -> line.startsWith("krabka broker: "))
                        .count(),
                unformatted.describe());
    }

    private static String[] concat(List<String> args, String... more) {
        return java.util.stream.Stream.concat(args.stream(), java.util.stream.Stream.of(more))
                .toArray(String[]::new);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static NodeApiVersions negotiate(int port) throws IOException {
        Node node = new Node(1, "127.0.0.1", port);
        ApiVersions apiVersions = new ApiVersions();
        LogContext logContext = new LogContext();
        PlaintextChannelBuilder channelBuilder = new PlaintextChannelBuilder(null);
        channelBuilder.configure(Map.of());
        try (Metrics metrics = new Metrics();
                NetworkClient client = new NetworkClient(
                        new Selector(60_000, metrics, Time.SYSTEM, "krabka-it", channelBuilder, logContext),
                        new ManualMetadataUpdater(List.of(node)),
                        "krabka-it",
                        5,
                        50,
                        1000,
                        64 * 1024,
                        64 * 1024,
                        30_000,
                        10_000,
                        30_000,
                        Time.SYSTEM,
                        true,
                        apiVersions,
                        logContext,
                        MetadataRecoveryStrategy.NONE,
                        BootstrapConfiguration.DISABLED,
                        false)) {
            assertTrue(NetworkClientUtils.awaitReady(client, node, Time.SYSTEM, 30_000), "the client got ready");
            return apiVersions.get(node.idString());
        }
    }
}
