package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Kafka Connect against Krabka's broker, run as a user runs it: {@code ConnectStandalone} or
 * {@code ConnectDistributed} in a child JVM on Kafka's own jars with a worker properties file, the FileStream
 * connectors in a directory on {@code plugin.path}. FileStreamSource reads a file into a topic, FileStreamSink writes
 * the topic to another file: the output is the input, line for line. Standalone takes the quickstart's two connector
 * configs; distributed mode creates its compacted config, offset and status topics itself, checks their cleanup
 * policy, runs its workers' group (the {@code connect} protocol) and writes its config topic and its source in
 * transactions ({@code exactly.once.source.support=enabled}), the connectors created over its REST API.
 *
 * <p>It is Kafka 4.3.1's Connect, the release of the only FileStream connectors Maven Central serves here
 * ({@code connect-file} 4.4.0 is not there, and 4.3.1's do not load on Connect 4.4).
 */
class KafkaConnectIT {
    /** The Kafka release whose Connect runs the connectors. */
    private static final String CONNECT = "4.3.1";

    private static final int LINES = 500;
    private static final Duration BOUND = Duration.ofMinutes(2);
    private static final Path WORK = Path.of(System.getProperty(KafkaLogs.WORK_PROPERTY), "kafka-connect");
    private static KrabkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        KafkaLogWriter.deleteRecursively(WORK);
        broker = KrabkaBroker.start(WORK.resolve("broker"), Map.of("group.initial.rebalance.delay.ms", "0"));
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void standaloneMovesAFileThroughATopicIntoAnotherFile() throws Exception {
        Move move = Move.prepare("standalone");
        Path work = move.work();
        Map<String, String> worker = worker();
        worker.put(
                "offset.storage.file.filename", work.resolve("connect.offsets").toString());
        Path source =
                properties(work.resolve("connect-file-source.properties"), fileSource(move.input(), "standalone"));
        Path sink = properties(work.resolve("connect-file-sink.properties"), fileSink(move.output(), "standalone"));
        try (KrabkaProcess connect = connect(
                work,
                "org.apache.kafka.connect.cli.ConnectStandalone",
                List.of(
                        properties(work.resolve("connect-standalone.properties"), worker)
                                .toString(),
                        source.toString(),
                        sink.toString()))) {
            awaitLines(move.output(), connect, work);
            connect.terminate();
            connect.awaitExit();
        }
        assertEquals(move.lines(), Files.readAllLines(move.output(), StandardCharsets.UTF_8));
    }

    @Test
    void distributedWithExactlyOnceSourceMovesAFileThroughATopicIntoAnotherFile() throws Exception {
        Move move = Move.prepare("distributed");
        Path work = move.work();
        int restPort = ReferenceKafka.freePort();
        Map<String, String> worker = worker();
        worker.put("listeners", "http://127.0.0.1:" + restPort);
        worker.put("group.id", "connect-cluster");
        worker.put("config.storage.topic", "connect-configs");
        worker.put("offset.storage.topic", "connect-offsets");
        worker.put("status.storage.topic", "connect-status");
        worker.put("config.storage.replication.factor", "1");
        worker.put("offset.storage.replication.factor", "1");
        worker.put("status.storage.replication.factor", "1");
        worker.put("exactly.once.source.support", "enabled");
        try (KrabkaProcess connect = connect(
                work,
                "org.apache.kafka.connect.cli.ConnectDistributed",
                List.of(properties(work.resolve("connect-distributed.properties"), worker)
                        .toString()))) {
            URI connectors = URI.create("http://127.0.0.1:" + restPort + "/connectors");
            create(connectors, "distributed-file-source", fileSource(move.input(), "distributed"), connect, work);
            create(connectors, "distributed-file-sink", fileSink(move.output(), "distributed"), connect, work);
            awaitLines(move.output(), connect, work);
            connect.terminate();
            connect.awaitExit();
        }
        assertEquals(move.lines(), Files.readAllLines(move.output(), StandardCharsets.UTF_8));
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            List<ConfigResource> internal = List.of("connect-configs", "connect-offsets", "connect-status").stream()
                    .map(topic -> new ConfigResource(ConfigResource.Type.TOPIC, topic))
                    .toList();
            Map<ConfigResource, Config> configs =
                    admin.describeConfigs(internal).all().get(1, TimeUnit.MINUTES);
            internal.forEach(topic -> assertEquals(
                    "compact",
                    configs.get(topic).get("cleanup.policy").value(),
                    topic.name() + ", created by Connect"));
        }
    }

    /**
     * The file one mode of Connect moves, and where.
     *
     * @param work   the mode's work directory
     * @param lines  the file's lines
     * @param input  the file, written
     * @param output where the sink is to write it
     */
    private record Move(Path work, List<String> lines, Path input, Path output) {
        static Move prepare(String mode) throws IOException {
            Path work = Files.createDirectories(WORK.resolve(mode));
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < LINES; i++) {
                lines.add("line " + i + " of the file Connect " + mode + " moves");
            }
            Path input = Files.write(work.resolve("input.txt"), lines, StandardCharsets.UTF_8);
            return new Move(work, lines, input, work.resolve("output.txt"));
        }
    }

    private static Map<String, String> worker() {
        Map<String, String> worker = new LinkedHashMap<>();
        worker.put("bootstrap.servers", broker.bootstrapServers());
        worker.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
        worker.put("value.converter", "org.apache.kafka.connect.storage.StringConverter");
        // The sink flushes its file at each offset commit.
        worker.put("offset.flush.interval.ms", "500");
        worker.put("plugin.path", System.getProperty("connect.plugins"));
        // The connectors declare themselves (ServiceLoader): no scan of every jar, as Connect's own warning advises.
        worker.put("plugin.discovery", "service_load");
        worker.put("listeners", "http://127.0.0.1:" + ReferenceKafka.freePort());
        return worker;
    }

    private static Map<String, String> fileSource(Path input, String mode) {
        return Map.of(
                "name",
                mode + "-file-source",
                "connector.class",
                "FileStreamSource",
                "tasks.max",
                "1",
                "file",
                input.toString(),
                "topic",
                "connect-" + mode);
    }

    private static Map<String, String> fileSink(Path output, String mode) {
        return Map.of(
                "name",
                mode + "-file-sink",
                "connector.class",
                "FileStreamSink",
                "tasks.max",
                "1",
                "file",
                output.toString(),
                "topics",
                "connect-" + mode);
    }

    private static KrabkaProcess connect(Path work, String main, List<String> args) throws IOException {
        // Connect logs as Kafka's brokers in these tests do, into <work>/logs/server.log.
        Path log4j = work.resolve("log4j2.properties");
        try (InputStream in = KafkaConnectIT.class.getResourceAsStream("/reference-kafka-log4j2.properties")) {
            Files.copy(in, log4j);
        }
        return ChildJvm.start(
                work,
                "connect",
                ReferenceKafka.libs(CONNECT) + "/*",
                List.of("-Dlog4j2.configurationFile=" + log4j, "-Dkafka.logs.dir=" + work.resolve("logs")),
                main,
                args);
    }

    // POST /connectors, retried while the worker's REST server is not up or the worker not yet in its group.
    private static void create(
            URI connectors, String name, Map<String, String> config, KrabkaProcess connect, Path work)
            throws Exception {
        StringBuilder json = new StringBuilder("{\"name\":\"" + name + "\",\"config\":{");
        config.forEach((key, value) ->
                json.append('"').append(key).append("\":\"").append(value).append("\","));
        json.setCharAt(json.length() - 1, '}');
        json.append('}');
        long deadline = System.nanoTime() + BOUND.toNanos();
        int status = -1;
        while (status != 201) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("POST " + connectors + " answered " + status + " until " + BOUND + "\n"
                        + connect.describe() + "\nsee " + work.resolve("logs"));
            }
            status = post(connectors, json.toString());
            if (status != 201) {
                Thread.sleep(200);
            }
        }
    }

    private static int post(URI uri, String json) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY);
        try {
            connection.setRequestMethod("POST");
            connection.setRequestProperty("Content-Type", "application/json");
            connection.setDoOutput(true);
            try (OutputStream out = connection.getOutputStream()) {
                out.write(json.getBytes(StandardCharsets.UTF_8));
            }
            return connection.getResponseCode();
        } catch (java.net.ConnectException e) {
            return -1;
        } finally {
            connection.disconnect();
        }
    }

    private static Path properties(Path file, Map<String, String> settings) throws IOException {
        Properties properties = new Properties();
        properties.putAll(settings);
        try (var out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            properties.store(out, null);
        }
        return file;
    }

    // The bound only keeps a worker that moves nothing from hanging the build.
    private static void awaitLines(Path output, KrabkaProcess connect, Path work) throws Exception {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (linesIn(output) < LINES) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(linesIn(output) + " lines written after " + BOUND + "\n" + connect.describe()
                        + "\nsee " + work.resolve("logs"));
            }
            Thread.sleep(100);
        }
    }

    private static long linesIn(Path file) throws IOException {
        if (!Files.exists(file)) {
            return 0;
        }
        try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
            return lines.count();
        }
    }
}
