package io.krabka.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code krabka} command of the built distribution ({@code krabka.dist}): its own {@code bin/krabka}, as
 * {@code ./krabka} runs it, on this test's JDK.
 */
final class KrabkaCommand {
    private final Path dist;
    private final Path workDir;
    private int runs;

    KrabkaCommand(Path workDir) {
        this.dist = dist();
        this.workDir = workDir;
    }

    /**
     * The built distribution's root.
     *
     * @throws IllegalStateException if there is no distribution
     */
    static Path dist() {
        String property = System.getProperty(DistributionPlugins.DIST_PROPERTY);
        if (property == null
                || !Files.isDirectory(Path.of(property, "boot"))
                || !Files.isDirectory(Path.of(property, "lib"))) {
            throw new IllegalStateException("no Krabka distribution at " + property + " (system property "
                    + DistributionPlugins.DIST_PROPERTY + "): build jlink first (./run-tests does)");
        }
        return Path.of(property);
    }

    /** {@code krabka <args>} started and left running, as {@link #run} would run it. */
    KrabkaProcess start(String... args) throws IOException {
        List<String> command =
                new ArrayList<>(List.of("sh", dist.resolve("bin/krabka").toString()));
        command.addAll(List.of(args));
        return KrabkaProcess.start(
                workDir,
                "krabka-" + ++runs,
                command,
                Map.of(
                        "JAVA_HOME",
                        System.getProperty("java.home"),
                        "KRABKA_JAVA_OPTS",
                        "-Djava.properties.date=" + KafkaStorageTool.PROPERTIES_DATE));
    }

    /** {@code krabka <args>}, with {@code meta.properties} dated as Kafka's in {@link KafkaStorageTool}. */
    ToolRun run(String... args) throws IOException, InterruptedException {
        return run(Map.of(), args);
    }

    /** {@code krabka <args>} with more environment variables (credentials from the SDKs' default chains). */
    ToolRun run(Map<String, String> environment, String... args) throws IOException, InterruptedException {
        List<String> command =
                new ArrayList<>(List.of("sh", dist.resolve("bin/krabka").toString()));
        command.addAll(List.of(args));
        Map<String, String> all = new HashMap<>(environment);
        all.put("JAVA_HOME", System.getProperty("java.home"));
        all.put("KRABKA_JAVA_OPTS", "-Djava.properties.date=" + KafkaStorageTool.PROPERTIES_DATE);
        return ToolRun.run(workDir, "krabka-" + ++runs, command, all);
    }
}
