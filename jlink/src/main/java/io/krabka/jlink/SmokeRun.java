package io.krabka.jlink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code bin/krabka version} in a freshly built image, as Helidon's Linker tests its image: with no
 * JAVA_HOME and only the system's own folders on the PATH, so the image must bring its Java.
 */
final class SmokeRun {
    // Not a measurement: only keeps a hung image from hanging the build.
    private static final long LIMIT_SECONDS = 120;

    private SmokeRun() {}

    /** Runs it and returns the version line it printed ({@code krabka <version>}); anything else is an error. */
    static String version(Path image, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(image.resolve("bin/krabka").toString(), "version")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.remove("JAVA_HOME");
        env.remove("KRABKA_JAVA_OPTS");
        env.put("PATH", "/usr/bin:/bin");
        Process process = builder.start();
        try {
            if (!process.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new ImageException("smoke run: bin/krabka version did not finish within " + LIMIT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new ImageException("smoke run interrupted", e);
        }
        List<String> printed = Files.readAllLines(log);
        if (process.exitValue() != 0 || printed.isEmpty() || !printed.getFirst().startsWith("krabka ")) {
            throw new ImageException("smoke run: bin/krabka version exited with " + process.exitValue() + ": "
                    + String.join("; ", printed));
        }
        return printed.getFirst();
    }
}
