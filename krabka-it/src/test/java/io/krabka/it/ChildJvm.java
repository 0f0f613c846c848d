package io.krabka.it;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Java program left running in a child JVM of its own (an application under test, Kafka Connect), started as a
 * user starts one: {@code java -cp ... Main args}, its output in files under the work directory. It can be killed
 * outright ({@code KILL}), as a crash ends it.
 */
final class ChildJvm {

    private ChildJvm() {}

    /** Starts {@code main} of this test class path (the applications written for these tests). */
    static KrabkaProcess start(Path workDir, String name, Class<?> main, List<String> args) throws IOException {
        return start(workDir, name, System.getProperty("java.class.path"), List.of(), main.getName(), args);
    }

    /** Starts {@code mainClass} on {@code classPath}, the JVM given {@code jvmOptions}. */
    static KrabkaProcess start(
            Path workDir, String name, String classPath, List<String> jvmOptions, String mainClass, List<String> args)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // Kafka's jars use sun.misc.Unsafe, RocksDB and zstd-jni load native libraries: keep the JDK's
                // warnings out of the output.
                "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                "-Xmx256m"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, mainClass));
        command.addAll(args);
        return KrabkaProcess.start(workDir, name, command, Map.of());
    }
}
