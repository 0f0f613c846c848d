package io.krabka.it;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Apache Kafka's command-line tools (kafka-topics, the console producer and consumer, kafka-consumer-groups,
 * kafka-storage, kafka-dump-log, ...) run by their main classes in child JVMs on the reference jars of one Kafka
 * version, logging to files under the work directory.
 */
final class KafkaTools {
    private final Path workDir;
    private final String version;
    private final List<String> jvmOptions;

    /** Tools of Kafka {@code version}, each JVM also given {@code jvmOptions}. */
    KafkaTools(Path workDir, String version, List<String> jvmOptions) throws IOException {
        this.workDir = Files.createDirectories(workDir);
        this.version = version;
        this.jvmOptions = List.copyOf(jvmOptions);
        try (InputStream in = KafkaTools.class.getResourceAsStream("/reference-kafka-log4j2.properties")) {
            Files.copy(in, workDir.resolve("log4j2.properties"), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Runs {@code main} with its arguments, {@code input} (when not null) on its standard input. */
    ToolRun run(String name, List<String> mainAndArgs, String input) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // Kafka's jars use sun.misc.Unsafe and zstd-jni loads a native library: keep the JDK's warnings out.
                "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                "-Xmx256m",
                "-Dlog4j2.configurationFile=" + workDir.resolve("log4j2.properties"),
                "-Dkafka.logs.dir=" + workDir.resolve("tool-logs")));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", ReferenceKafka.libs(version) + "/*"));
        command.addAll(mainAndArgs);
        return ToolRun.run(workDir, name, command, Map.of(), input);
    }
}
