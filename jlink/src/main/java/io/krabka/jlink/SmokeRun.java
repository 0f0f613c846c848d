package io.krabka.jlink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code bin/krabka version} and {@code bin/krabka plugins} in a freshly built image, as Helidon's Linker tests
 * its image: with no JAVA_HOME and only the system's own folders on the PATH, so the image must bring its Java, and
 * every plugin folder must load on the JDK modules it links.
 */
final class SmokeRun {
    // Not a measurement: only keeps a hung image from hanging the build.
    private static final long LIMIT_SECONDS = 120;
    private static final String SKIPPED = "skipped: ";

    private SmokeRun() {}

    /** Runs {@code version} and returns the version line it printed ({@code krabka <version>}); anything else is an error. */
    static String version(Path image, Path log) throws IOException {
        List<String> printed = run(image, log, "version");
        if (printed.isEmpty() || !printed.getFirst().startsWith("krabka ")) {
            throw new ImageException("smoke run: bin/krabka version printed " + String.join("; ", printed));
        }
        return printed.getFirst();
    }

    /** Runs {@code plugins}: a plugin folder the image's kernel skips, as it cannot load it, is an error. */
    static void plugins(Path image, Path log) throws IOException {
        for (String line : run(image, log, "plugins")) {
            if (line.startsWith(SKIPPED)) {
                throw new ImageException("smoke run: bin/krabka plugins cannot load a plugin folder: "
                        + line.substring(SKIPPED.length()));
            }
        }
    }

    private static List<String> run(Path image, Path log, String command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(image.resolve("bin/krabka").toString(), command)
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
                throw new ImageException(
                        "smoke run: bin/krabka " + command + " did not finish within " + LIMIT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new ImageException("smoke run interrupted", e);
        }
        List<String> printed = Files.readAllLines(log);
        if (process.exitValue() != 0) {
            throw new ImageException("smoke run: bin/krabka " + command + " exited with " + process.exitValue() + ": "
                    + String.join("; ", printed));
        }
        return printed;
    }
}
