package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * Kafka Connect in standalone mode against Krabka's broker, run as a user runs {@code connect-standalone.sh}:
 * {@code ConnectStandalone} in a child JVM on Kafka's own jars, with a worker properties file and the two connector
 * configs of Kafka's quickstart, the FileStream connectors in a directory on {@code plugin.path}. FileStreamSource
 * reads a file into a topic the broker creates on first use, FileStreamSink writes the topic to another file: the
 * output is the input, line for line.
 *
 * <p>It is Kafka 4.3.1's Connect, the release of the only FileStream connectors Maven Central serves here
 * ({@code connect-file} 4.4.0 is not there, and 4.3.1's do not load on Connect 4.4).
 */
class ConnectStandaloneIT {
    /** The Kafka release whose Connect runs the connectors. */
    static final String CONNECT = "4.3.1";

    private static final int LINES = 500;
    private static final Duration BOUND = Duration.ofMinutes(2);

    @Test
    void aFileMovesThroughATopicIntoAnotherFile() throws Exception {
        Path work = Path.of(System.getProperty(KafkaLogs.WORK_PROPERTY), "connect-standalone");
        KafkaLogWriter.deleteRecursively(work);
        Path config = Files.createDirectories(work.resolve("config"));
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < LINES; i++) {
            lines.add("line " + i + " of the file Connect moves");
        }
        Path input = Files.write(work.resolve("input.txt"), lines, StandardCharsets.UTF_8);
        Path output = work.resolve("output.txt");
        try (KrabkaBroker broker =
                KrabkaBroker.start(work.resolve("broker"), Map.of("group.initial.rebalance.delay.ms", "0"))) {
            Path worker = write(
                    config.resolve("connect-standalone.properties"),
                    Map.of(
                            "bootstrap.servers",
                            broker.bootstrapServers(),
                            "key.converter",
                            "org.apache.kafka.connect.storage.StringConverter",
                            "value.converter",
                            "org.apache.kafka.connect.storage.StringConverter",
                            "offset.storage.file.filename",
                            work.resolve("connect.offsets").toString(),
                            // The sink flushes its file at each offset commit.
                            "offset.flush.interval.ms",
                            "500",
                            "plugin.path",
                            System.getProperty("connect.plugins"),
                            // The connectors declare themselves (ServiceLoader): no scan of every jar, as Connect's
                            // own warning advises.
                            "plugin.discovery",
                            "service_load",
                            "listeners",
                            "http://127.0.0.1:" + ReferenceKafka.freePort()));
            Path source = write(
                    config.resolve("connect-file-source.properties"),
                    Map.of(
                            "name", "local-file-source",
                            "connector.class", "FileStreamSource",
                            "tasks.max", "1",
                            "file", input.toString(),
                            "topic", "connect-test"));
            Path sink = write(
                    config.resolve("connect-file-sink.properties"),
                    Map.of(
                            "name", "local-file-sink",
                            "connector.class", "FileStreamSink",
                            "tasks.max", "1",
                            "file", output.toString(),
                            "topics", "connect-test"));
            try (KrabkaProcess connect = ChildJvm.start(
                    work,
                    "connect",
                    ReferenceKafka.libs(CONNECT) + "/*",
                    logging(work),
                    "org.apache.kafka.connect.cli.ConnectStandalone",
                    List.of(worker.toString(), source.toString(), sink.toString()))) {
                long deadline = System.nanoTime() + BOUND.toNanos();
                while (linesIn(output) < LINES) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError(linesIn(output) + " lines written after " + BOUND + "\n"
                                + connect.describe() + "\nsee " + work.resolve("logs"));
                    }
                    Thread.sleep(100);
                }
                connect.terminate();
                connect.awaitExit();
            }
        }
        assertEquals(lines, Files.readAllLines(output, StandardCharsets.UTF_8));
    }

    private static Path write(Path file, Map<String, String> settings) throws IOException {
        Properties properties = new Properties();
        properties.putAll(settings);
        try (var out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            properties.store(out, null);
        }
        return file;
    }

    // Connect logs as Kafka's brokers in these tests do, into <work>/logs/server.log.
    private static List<String> logging(Path work) throws IOException {
        Path log4j = work.resolve("log4j2.properties");
        try (InputStream in = ConnectStandaloneIT.class.getResourceAsStream("/reference-kafka-log4j2.properties")) {
            Files.copy(in, log4j);
        }
        return List.of("-Dlog4j2.configurationFile=" + log4j, "-Dkafka.logs.dir=" + work.resolve("logs"));
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
