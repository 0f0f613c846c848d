package io.krabka.bench.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * A single-node broker under test, in a child JVM of its own on loopback: Apache Kafka from the reference jars, or
 * Krabka from its distribution. Both get the same JVM options (Kafka's {@code kafka-server-start.sh} defaults).
 */
sealed interface Broker extends AutoCloseable permits Broker.Kafka, Broker.Krabka {

    /** The JVM options both brokers run with: what {@code kafka-server-start.sh} gives Kafka. */
    List<String> JVM_OPTIONS = List.of(
            "-Xms1g",
            "-Xmx1g",
            "-XX:+UseG1GC",
            "-XX:MaxGCPauseMillis=20",
            "-XX:InitiatingHeapOccupancyPercent=35",
            "-XX:+ExplicitGCInvokesConcurrent");

    Duration START_TIMEOUT = Duration.ofSeconds(90);

    /** Settings both brokers get over their defaults: one node, no delayed first rebalance. */
    Map<String, String> SETTINGS =
            Map.of("offsets.topic.replication.factor", "1", "group.initial.rebalance.delay.ms", "0");

    /** The name in the table. */
    String name();

    /** The broker's process. */
    Process process();

    /** {@code host:port} of the broker's listener. */
    String bootstrapServers();

    /** A client's settings besides the bootstrap servers: its security protocol and credentials; none for PLAINTEXT. */
    Map<String, Object> client();

    /** The security protocol of the broker's listener. */
    default String protocol() {
        return (String) client().getOrDefault("security.protocol", "PLAINTEXT");
    }

    /** An admin client's settings for this broker, the request timeout {@code timeoutMs}. */
    default Map<String, Object> admin(int timeoutMs) {
        Map<String, Object> admin = new HashMap<>(client());
        admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        admin.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
        return admin;
    }

    /** The peak resident set of the broker's JVM so far, in bytes ({@code VmHWM}). */
    default long peakRssBytes() throws IOException {
        for (String line :
                Files.readAllLines(Path.of("/proc", Long.toString(process().pid()), "status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IOException("no VmHWM for process " + process().pid());
    }

    /** Creates a topic of {@code partitions} partitions. */
    default void createTopic(String topic, int partitions) throws InterruptedException {
        try (Admin admin = Admin.create(admin(30_000))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
                    .all()
                    .get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(name() + " did not create topic " + topic + ": " + e.getMessage(), e);
        }
    }

    /** Stops the broker (SIGTERM) and waits for it; kills it if it does not stop within a minute. */
    @Override
    default void close() {
        process().destroy();
        try {
            if (process().waitFor(60, TimeUnit.SECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process().destroyForcibly();
    }

    /** Apache Kafka from the jars in {@code libs}. */
    record Kafka(Process process, String bootstrapServers, Map<String, Object> client) implements Broker {
        static Kafka start(Path java, Path libs, Path workDir) throws IOException, InterruptedException {
            return start(java, libs, workDir, Optional.empty());
        }

        /** Kafka with a PLAINTEXT listener, or the SASL_SSL listener of {@code saslSsl}. */
        static Kafka start(Path java, Path libs, Path workDir, Optional<SaslSsl> saslSsl)
                throws IOException, InterruptedException {
            int port = freePort();
            Path config = writeServerProperties(workDir, port, freePort(), saslSsl);
            Path log4j = workDir.resolve("log4j2.properties");
            try (var in = Broker.class.getResourceAsStream("broker-log4j2.properties")) {
                Files.copy(in, log4j);
            }
            List<String> jvm = new ArrayList<>(List.of(
                    java.toString(),
                    "-Dlog4j2.configurationFile=" + log4j,
                    "-Dkafka.logs.dir=" + workDir.resolve("logs"),
                    "-cp",
                    libs + "/*"));
            List<String> format = new ArrayList<>(jvm);
            format.addAll(List.of(
                    "kafka.tools.StorageTool",
                    "format",
                    "--standalone",
                    "-t",
                    org.apache.kafka.common.Uuid.randomUuid().toString(),
                    "-c",
                    config.toString()));
            Commands.run(workDir.resolve("format.out"), format);
            List<String> broker = new ArrayList<>(jvm);
            broker.addAll(JVM_OPTIONS);
            broker.addAll(List.of("kafka.Kafka", config.toString()));
            return Commands.awaitReady(new Kafka(
                    Commands.start(workDir.resolve("broker.out"), broker, Map.of()),
                    "127.0.0.1:" + port,
                    saslSsl.map(SaslSsl::client).orElse(Map.of())));
        }

        @Override
        public String name() {
            return "Kafka";
        }
    }

    /** Krabka from the distribution at {@code dist}, run by its own {@code bin/krabka}. */
    record Krabka(Process process, String bootstrapServers, Map<String, Object> client) implements Broker {
        static Krabka start(Path java, Path dist, Path workDir) throws IOException, InterruptedException {
            return start(java, dist, workDir, Map.of());
        }

        /** Krabka with {@code extra} settings over {@link #SETTINGS}. */
        static Krabka start(Path java, Path dist, Path workDir, Map<String, String> extra)
                throws IOException, InterruptedException {
            int port = freePort();
            Path data = workDir.resolve("data");
            String krabka = dist.resolve("bin/krabka").toString();
            format(krabka, workDir, freePort());
            List<String> broker = new ArrayList<>(List.of(
                    "sh",
                    krabka,
                    "broker",
                    "--log-dir",
                    data.toString(),
                    "--listen-addr",
                    "127.0.0.1:" + port,
                    "--advertised-listener",
                    "127.0.0.1:" + port,
                    "--process-roles",
                    "controller,broker",
                    "--health-listen-addr",
                    "127.0.0.1:" + freePort()));
            SETTINGS.forEach((key, value) -> broker.addAll(List.of("--override", key + "=" + value)));
            extra.forEach((key, value) -> broker.addAll(List.of("--override", key + "=" + value)));
            return Commands.awaitReady(new Krabka(
                    Commands.start(workDir.resolve("broker.out"), broker, environment(java)),
                    "127.0.0.1:" + port,
                    Map.of()));
        }

        /**
         * Krabka run as {@code krabka broker --config} on the very {@code server.properties} Kafka gets (a PLAINTEXT
         * listener, or {@code saslSsl}'s SASL_SSL listener), after {@code krabka format --standalone}.
         */
        static Krabka startOnConfig(Path java, Path dist, Path workDir, Optional<SaslSsl> saslSsl)
                throws IOException, InterruptedException {
            int port = freePort();
            int controllerPort = freePort();
            Path config = writeServerProperties(workDir, port, controllerPort, saslSsl);
            String krabka = dist.resolve("bin/krabka").toString();
            format(krabka, workDir, controllerPort);
            List<String> broker = List.of(
                    "sh",
                    krabka,
                    "broker",
                    "--config",
                    config.toString(),
                    "--health-listen-addr",
                    "127.0.0.1:" + freePort());
            return Commands.awaitReady(new Krabka(
                    Commands.start(workDir.resolve("broker.out"), broker, environment(java)),
                    "127.0.0.1:" + port,
                    saslSsl.map(SaslSsl::client).orElse(Map.of())));
        }

        // krabka format --standalone of the log directory under workDir, the voter on controllerPort.
        private static void format(String krabka, Path workDir, int controllerPort)
                throws IOException, InterruptedException {
            Commands.run(
                    workDir.resolve("format.out"),
                    List.of(
                            "sh",
                            krabka,
                            "format",
                            "--log-dir",
                            workDir.resolve("data").toString(),
                            "--node-id",
                            "1",
                            "--standalone",
                            "--controller-listener",
                            "127.0.0.1:" + controllerPort));
        }

        // The broker's JVM: the JDK of java, with the JVM options Kafka gets.
        private static Map<String, String> environment(Path java) {
            return Map.of(
                    "JAVA_HOME",
                    java.getParent().getParent().toString(),
                    "KRABKA_JAVA_OPTS",
                    String.join(" ", JVM_OPTIONS));
        }

        @Override
        public String name() {
            return "Krabka";
        }
    }

    /**
     * The {@code server.properties} of a single node: a PLAINTEXT listener on {@code port}, or {@code saslSsl}'s
     * SASL_SSL listener there; the controller on {@code controllerPort}; the data under {@code workDir}.
     */
    private static Path writeServerProperties(Path workDir, int port, int controllerPort, Optional<SaslSsl> saslSsl)
            throws IOException {
        Properties server = new Properties();
        server.put("process.roles", "broker,controller");
        server.put("node.id", "1");
        server.put("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        server.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        server.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        server.put("controller.listener.names", "CONTROLLER");
        server.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        server.put("log.dirs", workDir.resolve("data").toString());
        server.put("transaction.state.log.replication.factor", "1");
        server.put("transaction.state.log.min.isr", "1");
        server.put("share.coordinator.state.topic.replication.factor", "1");
        server.put("share.coordinator.state.topic.min.isr", "1");
        server.putAll(SETTINGS);
        saslSsl.ifPresent(listener -> server.putAll(listener.server(port, controllerPort)));
        Path config = workDir.resolve("server.properties");
        try (var out = Files.newBufferedWriter(config)) {
            server.store(out, "single node under test");
        }
        return config;
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
