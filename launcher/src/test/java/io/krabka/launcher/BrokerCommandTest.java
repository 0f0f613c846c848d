package io.krabka.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.broker.BrokerConfig;
import io.krabka.kernel.broker.Endpoint;
import io.krabka.kernel.format.Formatter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.apache.commons.cli.DefaultParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code krabka broker} in process, up to the start: how its defaults, {@code --config}, flags and overrides
 * layer, and the exit code and one-line message of everything that stops it before it serves. Serving and
 * signals are krabka-it's BrokerCommandIT, on the real process.
 */
class BrokerCommandTest {

    @TempDir
    Path root;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        out.reset();
        err.reset();
        Console console = new Console(
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Krabka(List.of(new BrokerCommand(new Formatter(Clock.systemUTC())))).run(args, console);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private static BrokerConfig config(String... args) throws Exception {
        return BrokerCommand.config(DefaultParser.builder().get().parse(new BrokerCommand().options(), args));
    }

    @Test
    void krabkasDefaultsAreOneNodeOnLoopbackWithDataInTheWorkingDirectory() throws Exception {
        BrokerConfig config = config();
        assertEquals(1, config.nodeId());
        assertEquals(new Endpoint("PLAINTEXT", "127.0.0.1", 9092), config.listener());
        assertEquals(config.listener(), config.advertisedListener());
        assertEquals(Optional.of(new Endpoint("CONTROLLER", "127.0.0.1", 9093)), config.controllerListener());
        assertEquals(List.of(Path.of("./krabka-data")), config.logDirs());
        assertEquals(Optional.of(new InetSocketAddress("127.0.0.1", 9405)), config.healthListenAddress());
    }

    @Test
    void flagsNameKafkasKeys() throws Exception {
        BrokerConfig config = config(
                "--log-dir",
                "/a,/b",
                "--log-dir",
                "/c",
                "--listen-addr",
                "[::1]:19092",
                "--advertised-listener",
                "broker.example:9092",
                "--process-roles",
                "broker,controller",
                "--node-id",
                "4",
                "--health-listen-addr",
                "none");
        assertEquals(List.of(Path.of("/a"), Path.of("/b"), Path.of("/c")), config.logDirs());
        assertEquals(new Endpoint("PLAINTEXT", "::1", 19092), config.listener());
        assertEquals(Optional.of(new Endpoint("CONTROLLER", "::1", 9093)), config.controllerListener());
        assertEquals(new Endpoint("PLAINTEXT", "broker.example", 9092), config.advertisedListener());
        assertEquals(4, config.nodeId());
        assertEquals(Optional.empty(), config.healthListenAddress());
        assertEquals(
                Optional.of(new Endpoint("CONTROLLER", "127.0.0.2", 9999)),
                config("--controller-listen-addr", "127.0.0.2:9999").controllerListener());
    }

    @Test
    void theFileIsOverKrabkasDefaultsTheFlagsOverTheFileAndOverridesOverAll() throws Exception {
        Path file = root.resolve("server.properties");
        Files.writeString(file, """
                node.id=3
                listeners=PLAINTEXT://127.0.0.1:29092,CONTROLLER://127.0.0.1:29093
                num.partitions=4
                log.retention.hours=1
                """);
        BrokerConfig fileOnly = config("--config", file.toString());
        assertEquals(3, fileOnly.nodeId());
        assertEquals(new Endpoint("PLAINTEXT", "127.0.0.1", 29092), fileOnly.listener());
        assertEquals(4, fileOnly.numPartitions());
        assertEquals(List.of(Path.of("./krabka-data")), fileOnly.logDirs());
        assertEquals("1", fileOnly.originals().get("log.retention.hours"));

        BrokerConfig layered = config(
                "--config",
                file.toString(),
                "--node-id",
                "5",
                "--listen-addr",
                "127.0.0.1:39092",
                "--override",
                "node.id=6",
                "--override",
                "log.retention.ms=5000");
        assertEquals(6, layered.nodeId());
        assertEquals(new Endpoint("PLAINTEXT", "127.0.0.1", 39092), layered.listener());
        assertEquals("5000", layered.originals().get("log.retention.ms"));
        assertEquals(4, layered.numPartitions());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--node-id x                                  | invalid value x for node.id",
                "--node-id -1                                 | node.id",
                "--process-roles broker                       | process.roles",
                "--listen-addr localhost                      | --listen-addr",
                "--controller-listen-addr :99999              | --controller-listen-addr",
                "--advertised-listener 0.0.0.0:9092           | advertised.listeners",
                "--health-listen-addr 9405                    | krabka.health.listen.addr",
                "--override num.partitions                    | --override",
                "--override num.partitions=0                  | num.partitions",
                "--override log.segment.bytes=10              | log.segment.bytes",
                "--config /no/such/server.properties          | no such file",
                "--bogus                                      | Unrecognized option",
                "--log-dir                                    | Missing argument"
            })
    void badFlagsAndValuesExit2WithOneLine(String args, String named) {
        assertEquals(ExitCode.USAGE, run(("broker " + args.trim()).split(" ")), err());
        assertEquals(1, err().lines().count(), err());
        assertTrue(err().startsWith("krabka broker: "), err());
        assertTrue(err().contains(named), err());
    }

    @Test
    void anUnformattedDirectoryExits3NamingKrabkaFormat() {
        Path data = root.resolve("data");
        assertEquals(
                ExitCode.STORAGE_REFUSED,
                run(
                        "broker",
                        "--log-dir",
                        data.toString(),
                        "--listen-addr",
                        "127.0.0.1:0",
                        "--health-listen-addr",
                        "none"),
                err());
        assertTrue(err().contains("krabka format"), err());
        assertEquals(1, err().lines().count(), err());
    }

    @Test
    void anUnknownRemoteStoragePluginExits2NamingItAndTheKnownOnes() throws Exception {
        Path home = Files.createDirectories(root.resolve("home/plugins")).getParent();
        String previous = System.setProperty("krabka.home", home.toString());
        try {
            assertEquals(
                    ExitCode.USAGE,
                    run(
                            "broker",
                            "--format-if-needed",
                            "--log-dir",
                            root.resolve("data").toString(),
                            "--listen-addr",
                            "127.0.0.1:0",
                            "--health-listen-addr",
                            "none",
                            "--override",
                            "remote.log.storage.manager.class.name=nope"),
                    err());
            assertEquals(
                    "krabka broker: no remote storage manager plugin is named 'nope', and there is no class path "
                            + "to load a class of that name from; there are none",
                    err().strip());
        } finally {
            if (previous == null) {
                System.clearProperty("krabka.home");
            } else {
                System.setProperty("krabka.home", previous);
            }
        }
    }

    @Test
    void aListenerInUseExits1NamingIt() throws Exception {
        Path data = root.resolve("data");
        try (java.net.ServerSocket taken =
                new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            assertEquals(
                    ExitCode.FAILURE,
                    run(
                            "broker",
                            "--format-if-needed",
                            "--log-dir",
                            data.toString(),
                            "--listen-addr",
                            "127.0.0.1:" + taken.getLocalPort(),
                            "--health-listen-addr",
                            "none",
                            "--override",
                            "remote.log.storage.system.enable=false"),
                    err());
            assertTrue(
                    err().contains("krabka broker: cannot listen on the listener PLAINTEXT://127.0.0.1:"
                            + taken.getLocalPort() + ": "),
                    err());
        }
        // The failed start shut its logs down cleanly: the directory is formatted and marked clean.
        assertTrue(Files.exists(data.resolve("meta.properties")));
        assertTrue(Files.exists(data.resolve(".kafka_cleanshutdown")));
    }

    @Test
    void formatIfNeededRefusesADirectoryWithForeignFiles() throws Exception {
        Path data = Files.createDirectories(root.resolve("data"));
        Files.writeString(data.resolve("notes.txt"), "mine");
        assertEquals(
                ExitCode.STORAGE_REFUSED,
                run(
                        "broker",
                        "--format-if-needed",
                        "--log-dir",
                        data.toString(),
                        "--listen-addr",
                        "127.0.0.1:0",
                        "--health-listen-addr",
                        "none"),
                err());
        assertTrue(err().contains("notes.txt"), err());
        assertEquals("mine", Files.readString(data.resolve("notes.txt")));
        assertFalse(Files.exists(data.resolve("meta.properties")));
    }

    @Test
    void formatIfNeededWantsAControllerHostToRecord() {
        assertEquals(
                ExitCode.USAGE,
                run(
                        "broker",
                        "--format-if-needed",
                        "--log-dir",
                        root.resolve("d").toString(),
                        "--override",
                        "listeners=PLAINTEXT://:0,CONTROLLER://:0",
                        "--health-listen-addr",
                        "none"),
                err());
        assertTrue(err().contains("listeners"), err());
    }
}
