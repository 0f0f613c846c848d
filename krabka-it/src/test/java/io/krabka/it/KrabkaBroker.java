package io.krabka.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * Krabka's broker in a child process ({@link KrabkaProcess}), as a user runs it: {@code bin/krabka format} then
 * {@code bin/krabka broker} of the built distribution, on free loopback ports. It can be stopped with SIGTERM,
 * killed with SIGKILL and started again on the same directory.
 */
final class KrabkaBroker implements AutoCloseable {
    private final Path workDir;
    private final Path dist;
    private final String bootstrapServers;
    private final List<String> arguments;
    private final Map<String, String> environment;
    private final int healthPort = freePort();
    private KrabkaProcess process;
    private int starts;

    private KrabkaBroker(
            Path workDir, Path dist, String bootstrapServers, List<String> arguments, Map<String, String> environment) {
        this.workDir = workDir;
        this.dist = dist;
        this.bootstrapServers = bootstrapServers;
        this.arguments = arguments;
        this.environment = environment;
    }

    /**
     * Starts the broker as {@code bin/krabka broker --config FILE} and nothing else (but the health endpoint, on a
     * free port), its log in {@code workDir}, returning once it is ready.
     *
     * @param bootstrapServers the broker listener {@code config} names
     */
    static KrabkaBroker onConfig(Path workDir, Path config, String bootstrapServers)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        KrabkaBroker broker = new KrabkaBroker(
                workDir, KrabkaCommand.dist(), bootstrapServers, List.of("--config", config.toString()), Map.of());
        broker.start();
        return broker;
    }

    /**
     * Runs {@code krabka format} with {@code formatArguments} (its log directory the one {@code config} names), then
     * starts the broker as {@link #onConfig} does.
     */
    static KrabkaBroker formattedOnConfig(
            Path workDir, Path config, String bootstrapServers, List<String> formatArguments)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        KrabkaBroker broker = new KrabkaBroker(
                workDir, KrabkaCommand.dist(), bootstrapServers, List.of("--config", config.toString()), Map.of());
        List<String> format = new ArrayList<>(List.of("sh", broker.krabka(), "format"));
        format.addAll(formatArguments);
        ToolRun formatted = ToolRun.run(workDir, "format", format, broker.environment());
        if (formatted.exitCode() != 0) {
            throw new IllegalStateException("krabka format failed:\n" + formatted.describe());
        }
        broker.start();
        return broker;
    }

    /**
     * Formats a log directory under {@code workDir} (emptied first) and starts the broker on it, returning once it
     * is ready.
     *
     * @param settings broker settings, each passed as {@code --override KEY=VALUE}
     */
    static KrabkaBroker start(Path workDir, Map<String, String> settings) throws IOException, InterruptedException {
        return start(workDir, settings, (krabka, logDir) -> {
            ToolRun format = ToolRun.run(
                    workDir,
                    "format",
                    List.of("sh", krabka, "format", "--log-dir", logDir.toString(), "--node-id", "1", "--standalone"),
                    Map.of("JAVA_HOME", System.getProperty("java.home")));
            if (format.exitCode() != 0) {
                throw new IllegalStateException("krabka format failed:\n" + format.describe());
            }
        });
    }

    /**
     * Starts the broker on a log directory under {@code workDir} (emptied first) that {@code prepare} fills, for
     * node 1 with the default controller listener, returning once it is ready.
     *
     * @param settings broker settings, each passed as {@code --override KEY=VALUE}
     */
    static KrabkaBroker start(Path workDir, Map<String, String> settings, Prepare prepare)
            throws IOException, InterruptedException {
        // A directory left by an earlier run is replaced.
        KafkaLogWriter.deleteRecursively(workDir);
        String listener = "127.0.0.1:" + freePort();
        List<String> arguments = new ArrayList<>(List.of(
                "--log-dir",
                workDir.resolve("data").toString(),
                "--listen-addr",
                listener,
                "--advertised-listener",
                listener,
                "--process-roles",
                "controller,broker"));
        settings.forEach((key, value) -> arguments.addAll(List.of("--override", key + "=" + value)));
        KrabkaBroker broker = new KrabkaBroker(workDir, KrabkaCommand.dist(), listener, arguments, Map.of());
        Files.createDirectories(workDir);
        prepare.prepare(broker.krabka(), broker.logDir());
        broker.start();
        return broker;
    }

    /**
     * Formats {@code logDirs} under {@code workDir} (emptied first; the first holds the metadata log) and starts
     * the broker on them with {@code environment} added to its own (such as {@code KRABKA_JAVA_OPTS}), returning
     * once it is ready.
     */
    static KrabkaBroker onLogDirs(Path workDir, List<Path> logDirs, Map<String, String> environment)
            throws IOException, InterruptedException {
        KafkaLogWriter.deleteRecursively(workDir);
        Files.createDirectories(workDir);
        String listener = "127.0.0.1:" + freePort();
        List<String> dirs = new ArrayList<>();
        logDirs.forEach(dir -> dirs.addAll(List.of("--log-dir", dir.toString())));
        List<String> arguments = new ArrayList<>(dirs);
        arguments.addAll(List.of(
                "--listen-addr", listener, "--advertised-listener", listener, "--process-roles", "controller,broker"));
        KrabkaBroker broker = new KrabkaBroker(workDir, KrabkaCommand.dist(), listener, arguments, environment);
        List<String> format = new ArrayList<>(List.of("sh", broker.krabka(), "format"));
        format.addAll(dirs);
        format.addAll(List.of("--node-id", "1", "--standalone"));
        ToolRun formatted = ToolRun.run(workDir, "format", format, broker.environment());
        if (formatted.exitCode() != 0) {
            throw new IllegalStateException("krabka format failed:\n" + formatted.describe());
        }
        broker.start();
        return broker;
    }

    /**
     * Formats the log directory for a standalone controller on {@code 127.0.0.1:controllerPort}, the voter a Kafka
     * broker started later on a copy of the directory must listen as ({@link ReferenceKafka}'s {@code
     * controllerPort}).
     */
    static Prepare formattedForController(Path workDir, int controllerPort) {
        return (krabka, logDir) -> {
            ToolRun format = ToolRun.run(
                    workDir,
                    "format",
                    List.of(
                            "sh",
                            krabka,
                            "format",
                            "--log-dir",
                            logDir.toString(),
                            "--node-id",
                            "1",
                            "--standalone",
                            "--controller-listener",
                            "127.0.0.1:" + controllerPort),
                    Map.of("JAVA_HOME", System.getProperty("java.home")));
            if (format.exitCode() != 0) {
                throw new IllegalStateException("krabka format failed:\n" + format.describe());
            }
        };
    }

    /** How the broker's log directory is made before it starts: formatted, or restored. */
    @FunctionalInterface
    interface Prepare {
        /** Fills {@code logDir} (absent) with the distribution's {@code bin/krabka} at {@code krabka}. */
        void prepare(String krabka, Path logDir) throws IOException, InterruptedException;
    }

    /** {@code host:port} of the broker's listener. */
    String bootstrapServers() {
        return bootstrapServers;
    }

    /** Creates topics of {@code partitions} partitions, one replica each, through the Admin client. */
    void createTopics(int partitions, String... names) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            admin.createTopics(Arrays.stream(names)
                            .map(name -> new NewTopic(name, partitions, (short) 1))
                            .toList())
                    .all()
                    .get(1, TimeUnit.MINUTES);
        }
    }

    /** The log directory of a broker {@link #start(Path, Map, Prepare) started} here; one on a config has its own. */
    Path logDir() {
        return workDir.resolve("data");
    }

    /** Where the broker keeps tiered storage's files on its defaults: beside its log directory, never in it. */
    Path tieredStorageDir() {
        return workDir.resolve("data-tiered");
    }

    /** The broker's metrics, as its health endpoint's {@code /metrics} gives them (Prometheus text). */
    String metrics() throws IOException {
        return KrabkaProcess.get(new InetSocketAddress("127.0.0.1", healthPort), "/metrics");
    }

    /** Starts the broker (again) on its directory and waits until {@code /readyz} answers 200. */
    void start() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("sh", krabka(), "broker"));
        command.addAll(arguments);
        command.addAll(List.of("--health-listen-addr", "127.0.0.1:" + healthPort));
        process = KrabkaProcess.start(workDir, "broker-" + ++starts, command, environment());
        try {
            process.awaitReady(new InetSocketAddress("127.0.0.1", healthPort));
        } catch (IOException | InterruptedException | RuntimeException e) {
            process.close();
            throw e;
        }
    }

    /** The broker's command line and what it logged, for a failure's message. */
    String describe() throws IOException {
        return process.describe();
    }

    /** Waits for the broker to end by itself; returns its exit code. */
    int awaitExit() throws IOException, InterruptedException {
        return process.awaitExit().exitCode();
    }

    /** SIGTERM, then waits for the clean shutdown; returns the exit code. */
    int stop() throws IOException, InterruptedException {
        process.terminate();
        return process.awaitExit().exitCode();
    }

    /** SIGKILL: the broker ends at once, without any shutdown. */
    void kill() throws IOException, InterruptedException {
        process.signal("KILL");
        process.awaitExit();
    }

    /** Stops the broker if it still runs (SIGTERM, and SIGKILL if that fails). */
    @Override
    public void close() {
        try {
            stop();
        } catch (IOException | InterruptedException | RuntimeException e) {
            process.close();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private String krabka() {
        return dist.resolve("bin/krabka").toString();
    }

    private Map<String, String> environment() {
        Map<String, String> all = new java.util.HashMap<>(environment);
        all.put("JAVA_HOME", System.getProperty("java.home"));
        return all;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress("127.0.0.1", 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
