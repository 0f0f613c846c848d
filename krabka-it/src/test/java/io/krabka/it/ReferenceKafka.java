package io.krabka.it;

import io.krabka.spi.common.Uuid;
import io.krabka.testservers.faults.InjectedFaults;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A single-node Apache Kafka broker (broker and controller in one KRaft process) run as a child process from
 * the reference jars that the {@code reference-kafka} modules copy from Maven Central: the judge in
 * compatibility tests.
 */
final class ReferenceKafka implements AutoCloseable {
    /**
     * The lock of the test classes that run a reference Kafka broker: with two test classes at a time, no two Kafka
     * brokers (each a JVM that wants most of a core while it starts) run at once.
     */
    static final String BROKER_LOCK = "reference-kafka-broker";

    /**
     * What a single node needs besides its listeners and log directory: topics of one partition, internal topics of
     * one replica, no delayed first rebalance.
     */
    static final Map<String, String> SINGLE_NODE = Map.of(
            "num.partitions", "1",
            "offsets.topic.replication.factor", "1",
            "transaction.state.log.replication.factor", "1",
            "transaction.state.log.min.isr", "1",
            "share.coordinator.state.topic.replication.factor", "1",
            "share.coordinator.state.topic.min.isr", "1",
            "group.initial.rebalance.delay.ms", "0");

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private final String version;
    private final Path workDir;
    private final Path config;
    private final Map<String, Object> client;
    private final Optional<Path> faultControl;
    private Process process;

    private ReferenceKafka(
            String version, Path workDir, Path config, Map<String, Object> client, Optional<Path> faultControl) {
        this.version = version;
        this.workDir = workDir;
        this.config = config;
        this.client = Map.copyOf(client);
        this.faultControl = faultControl;
    }

    /** How a reference broker's log directory is formatted before it starts. */
    @FunctionalInterface
    interface Format {
        /**
         * Formats {@code logDir} for node 1.
         *
         * @param config             the broker's {@code server.properties}
         * @param controllerListener the controller listener, {@code 127.0.0.1:<port>}
         */
        void format(Path config, Path logDir, String controllerListener) throws IOException, InterruptedException;
    }

    /**
     * Formats a fresh log directory under {@code workDir} with Kafka's own {@code kafka-storage format --standalone}
     * and starts Kafka {@code version} on free loopback ports, returning once it answers an admin request.
     *
     * @param extraProperties broker settings added to the single-node defaults
     */
    static ReferenceKafka start(String version, Path workDir, Map<String, String> extraProperties)
            throws IOException, InterruptedException {
        return start(version, workDir, extraProperties, Optional.empty());
    }

    /**
     * As {@link #start(String, Path, Map)}, the broker's JVM on the file system that fails the writes and fsyncs
     * {@code faultControl} asks for ({@link InjectedFaults}).
     */
    static ReferenceKafka startOnInjectedFaults(
            String version, Path workDir, Map<String, String> extraProperties, Path faultControl)
            throws IOException, InterruptedException {
        return start(version, workDir, extraProperties, Optional.of(faultControl));
    }

    private static ReferenceKafka start(
            String version, Path workDir, Map<String, String> extraProperties, Optional<Path> faultControl)
            throws IOException, InterruptedException {
        return start(
                version,
                workDir,
                extraProperties,
                (config, logDir, controllerListener) -> formatStandalone(version, workDir, config, List.of()),
                freePort(),
                faultControl);
    }

    /**
     * Starts Kafka {@code version} on free loopback ports on a log directory under {@code workDir} that
     * {@code format} formats, returning once it answers an admin request.
     *
     * @param extraProperties broker settings added to the single-node defaults
     */
    static ReferenceKafka start(String version, Path workDir, Map<String, String> extraProperties, Format format)
            throws IOException, InterruptedException {
        return start(version, workDir, extraProperties, format, freePort());
    }

    /**
     * As {@link #start(String, Path, Map, Format)}, with the controller on {@code controllerPort}: the port of the
     * standalone voter a log directory formatted elsewhere names, for Kafka to run on that directory.
     */
    static ReferenceKafka start(
            String version, Path workDir, Map<String, String> extraProperties, Format format, int controllerPort)
            throws IOException, InterruptedException {
        return start(version, workDir, extraProperties, format, controllerPort, Optional.empty());
    }

    private static ReferenceKafka start(
            String version,
            Path workDir,
            Map<String, String> extraProperties,
            Format format,
            int controllerPort,
            Optional<Path> faultControl)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir.resolve("logs"));
        try (InputStream in = ReferenceKafka.class.getResourceAsStream("/reference-kafka-log4j2.properties")) {
            Files.copy(in, workDir.resolve("log4j2.properties"));
        }
        int brokerPort = freePort();
        Properties server = new Properties();
        server.put("process.roles", "broker,controller");
        server.put("node.id", "1");
        server.put("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        server.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        server.put(
                "advertised.listeners",
                "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        server.put("controller.listener.names", "CONTROLLER");
        server.put("inter.broker.listener.name", "PLAINTEXT");
        server.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        server.put("log.dirs", workDir.resolve("data").toString());
        server.putAll(SINGLE_NODE);
        server.putAll(extraProperties);
        Path config = workDir.resolve("server.properties");
        try (var out = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
            server.store(out, "reference Apache Kafka " + version);
        }

        format.format(config, workDir.resolve("data"), "127.0.0.1:" + controllerPort);

        ReferenceKafka kafka = new ReferenceKafka(
                version,
                workDir,
                config,
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + brokerPort),
                faultControl);
        kafka.launch();
        return kafka;
    }

    /**
     * Starts Kafka {@code version} on {@code config}, a whole {@code server.properties} as a user writes it (its own
     * listeners, TLS, SASL, authorizer), its log directory formatted first by {@code kafka-storage format
     * --standalone} with {@code formatOptions} added (such as {@code --add-scram}); returns once an admin client of
     * {@code client} (its bootstrap servers and security settings) gets an answer.
     */
    static ReferenceKafka onConfig(
            String version, Path workDir, Path config, List<String> formatOptions, Map<String, Object> client)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir.resolve("logs"));
        try (InputStream in = ReferenceKafka.class.getResourceAsStream("/reference-kafka-log4j2.properties")) {
            Files.copy(in, workDir.resolve("log4j2.properties"));
        }
        formatStandalone(version, workDir, config, formatOptions);
        ReferenceKafka kafka = new ReferenceKafka(version, workDir, config, client, Optional.empty());
        kafka.launch();
        return kafka;
    }

    /** Starts the broker again after {@link #close}, on the same {@code server.properties} and directories. */
    void restart() throws IOException, InterruptedException {
        if (process.isAlive()) {
            throw new IllegalStateException("reference Kafka (pid " + process.pid() + ") still runs");
        }
        launch();
    }

    private void launch() throws IOException, InterruptedException {
        List<String> java = new ArrayList<>(java(version, workDir));
        faultControl.ifPresent(control -> {
            java.addAll(1, InjectedFaults.systemProperties(control));
            java.set(java.size() - 1, java.getLast() + File.pathSeparator + InjectedFaults.classPath());
        });
        process = new ProcessBuilder(concat(java, "-Xms256m", "-Xmx768m", "kafka.Kafka", config.toString()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        workDir.resolve("logs").resolve("stdout.log").toFile()))
                .start();
        try {
            awaitReady();
        } catch (IOException | InterruptedException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Waits for the broker to end by itself (Kafka halts when its log directories fail); returns its exit code. */
    int awaitExit() throws InterruptedException {
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            throw new IllegalStateException(
                    "reference Kafka (pid " + process.pid() + ") still runs after " + STOP_TIMEOUT);
        }
        return process.exitValue();
    }

    /** The broker's {@code server.properties}, as a user would keep it. */
    Path config() {
        return config;
    }

    /** {@code host:port} of the broker listener. */
    String bootstrapServers() {
        return (String) client.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
    }

    /** The broker's log directory. */
    Path logDir() {
        return workDir.resolve("data");
    }

    /** The directory of the broker's own logs ({@code server.log}, {@code stdout.log}), for failure messages. */
    Path logsDir() {
        return workDir.resolve("logs");
    }

    /**
     * Stops the broker cleanly (SIGTERM) and waits for it to exit, killing it if it does not stop in time or
     * the wait is interrupted (the interrupt is kept).
     */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Kills the broker as {@code kill -9} does (SIGKILL: no shutdown hook, no flush, no checkpoint) and waits for
     * it to be gone; what it had written to its files stays in the page cache, as after a process crash.
     */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            throw new IllegalStateException(
                    "reference Kafka (pid " + process.pid() + ") outlived SIGKILL for " + STOP_TIMEOUT);
        }
    }

    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        Map<String, Object> config = new HashMap<>(client);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "reference Kafka exited with " + process.exitValue() + "; see " + logsDir());
            }
            try (Admin admin = Admin.create(config)) {
                admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException | TimeoutException e) {
                Thread.sleep(500);
            }
        }
        throw new IllegalStateException(
                "reference Kafka did not answer within " + START_TIMEOUT + "; see " + logsDir());
    }

    /**
     * The jars of Apache Kafka {@code version}, from the system property {@code kafka.reference.<version>}.
     *
     * @throws IllegalStateException if they are not there
     */
    static Path libs(String version) {
        String property = System.getProperty("kafka.reference." + version);
        if (property == null || !Files.isDirectory(Path.of(property))) {
            throw new IllegalStateException("no Apache Kafka " + version + " jars at " + property
                    + ": build reference-kafka/kafka-" + version + " first (./run-tests does)");
        }
        return Path.of(property);
    }

    // A JVM on Kafka's jars, logging as the brokers of these tests log.
    private static List<String> java(String version, Path workDir) {
        return List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dlog4j2.configurationFile=" + workDir.resolve("log4j2.properties"),
                "-Dkafka.logs.dir=" + workDir.resolve("logs"),
                "-cp",
                libs(version) + "/*");
    }

    // Kafka's own kafka-storage format --standalone of the log directory config names, with a new cluster id.
    private static void formatStandalone(String version, Path workDir, Path config, List<String> options)
            throws IOException, InterruptedException {
        List<String> format = concat(
                java(version, workDir),
                "kafka.tools.StorageTool",
                "format",
                "--standalone",
                "-t",
                Uuid.randomUuid().toString(),
                "-c",
                config.toString());
        format.addAll(options);
        run(workDir.resolve("logs").resolve("format.log"), format);
    }

    private static void run(Path log, List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (process.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + Files.readString(log));
        }
    }

    /** A loopback port free now. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> concat(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(tail));
        return all;
    }
}
