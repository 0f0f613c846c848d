package io.krabka.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One run of a command-line tool in a child process: its exit code and what it printed.
 *
 * @param command  the command line
 * @param exitCode its exit code
 * @param out      its standard output
 * @param err      its standard error
 */
record ToolRun(List<String> command, int exitCode, String out, String err) {
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    /**
     * Runs {@code command}, its output kept in {@code <workDir>/<name>.out} and {@code .err}.
     *
     * @throws IllegalStateException if it does not finish in two minutes
     */
    static ToolRun run(Path workDir, String name, List<String> command) throws IOException, InterruptedException {
        return run(workDir, name, command, Map.of());
    }

    /** Runs {@code command} with {@code environment} added to this process's environment. */
    static ToolRun run(Path workDir, String name, List<String> command, Map<String, String> environment)
            throws IOException, InterruptedException {
        return run(workDir, name, command, environment, null);
    }

    /** Runs {@code command} with {@code input}, when not null, as its standard input. */
    static ToolRun run(Path workDir, String name, List<String> command, Map<String, String> environment, String input)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path out = workDir.resolve(name + ".out");
        Path err = workDir.resolve(name + ".err");
        Files.writeString(workDir.resolve(name + ".cmd"), String.join(" ", command) + "\n");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        if (input != null) {
            Path in = Files.writeString(workDir.resolve(name + ".in"), input, StandardCharsets.UTF_8);
            builder.redirectInput(in.toFile());
        }
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException(String.join(" ", command) + " did not finish within " + TIMEOUT);
        }
        return new ToolRun(
                command,
                process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /** For assertion messages. */
    String describe() {
        return String.join(" ", command) + "\nexit " + exitCode + "\n--- out\n" + out + "--- err\n" + err;
    }
}
