package io.krabka.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * Apache Kafka 4.4.0's own {@code kafka-storage} ({@code kafka.tools.StorageTool}) and {@code kafka-dump-log}, run
 * in child JVMs on the reference jars: the judges of {@code krabka format}. Every JVM gets the same
 * {@code java.properties.date} (the JDK's setting for the date comment {@code Properties.store} writes), so that a
 * {@code meta.properties} Kafka writes and one Krabka writes can be compared byte for byte.
 */
final class KafkaStorageTool {
    static final String KAFKA_VERSION = "4.4.0";
    /**
     * The date line of every {@code meta.properties} written in these tests; one word, because
     * {@code KRABKA_JAVA_OPTS} is split on spaces as Kafka's {@code KAFKA_OPTS} is.
     */
    static final String PROPERTIES_DATE = "2026-11-30T00:00:00Z";

    private final Path workDir;
    private final KafkaTools tools;
    private int runs;

    KafkaStorageTool(Path workDir) throws IOException {
        this.workDir = Files.createDirectories(workDir);
        this.tools = new KafkaTools(workDir, KAFKA_VERSION, List.of("-Djava.properties.date=" + PROPERTIES_DATE));
    }

    /**
     * Writes the {@code server.properties} of a combined broker and controller, node {@code nodeId}, with
     * {@code logDirs} and a controller listener on {@code 127.0.0.1:<controllerPort>}.
     *
     * @param extra more settings, {@code key=value}
     */
    Path config(String name, int nodeId, List<Path> logDirs, int controllerPort, List<String> extra)
            throws IOException {
        Properties server = new Properties();
        server.put("process.roles", "broker,controller");
        server.put("node.id", Integer.toString(nodeId));
        server.put("listeners", "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:" + controllerPort);
        server.put("controller.listener.names", "CONTROLLER");
        server.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        server.put("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        server.put("log.dirs", logDirs.stream().map(Path::toString).collect(Collectors.joining(",")));
        for (String setting : extra) {
            server.put(setting.substring(0, setting.indexOf('=')), setting.substring(setting.indexOf('=') + 1));
        }
        Path config = workDir.resolve(name + ".properties");
        try (var out = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
            server.store(out, "kafka-storage format");
        }
        return config;
    }

    /** {@code kafka-storage format -c <config> <args>}. */
    ToolRun format(Path config, List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kafka.tools.StorageTool", "format", "-c", config.toString()));
        command.addAll(args);
        return run("storage-tool-format", command);
    }

    /** {@code kafka-storage info -c <config>}: what Kafka finds in the log directories. */
    ToolRun info(Path config) throws IOException, InterruptedException {
        return run("storage-tool-info", List.of("kafka.tools.StorageTool", "info", "-c", config.toString()));
    }

    /** {@code kafka-dump-log --cluster-metadata-decoder --deep-iteration --print-data-log} of a KRaft snapshot. */
    ToolRun dumpSnapshot(Path checkpoint) throws IOException, InterruptedException {
        return run(
                "dump-log",
                List.of(
                        "org.apache.kafka.tools.DumpLogSegments",
                        "--cluster-metadata-decoder",
                        "--deep-iteration",
                        "--print-data-log",
                        "--files",
                        checkpoint.toString()));
    }

    private ToolRun run(String name, List<String> mainAndArgs) throws IOException, InterruptedException {
        return tools.run(name + "-" + ++runs, mainAndArgs, null);
    }
}
