package io.krabka.it;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A {@code krabka} command left running in a child process (the broker), its output kept in {@code
 * <workDir>/<name>.out} and {@code .err}. The start script execs Java, so the process is the JVM itself: a signal
 * sent to it reaches the broker.
 */
final class KrabkaProcess implements AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private final List<String> command;
    private final Process process;
    private final Path out;
    private final Path err;

    private KrabkaProcess(List<String> command, Process process, Path out, Path err) {
        this.command = command;
        this.process = process;
        this.out = out;
        this.err = err;
    }

    static KrabkaProcess start(Path workDir, String name, List<String> command, Map<String, String> environment)
            throws IOException {
        Files.createDirectories(workDir);
        Path out = workDir.resolve(name + ".out");
        Path err = workDir.resolve(name + ".err");
        Files.writeString(workDir.resolve(name + ".cmd"), String.join(" ", command) + "\n");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(environment);
        return new KrabkaProcess(command, builder.start(), out, err);
    }

    /**
     * Waits until {@code GET /readyz} on {@code health} answers 200.
     *
     * @throws IllegalStateException if the process ends first, or after two minutes (not a measurement: only
     *                               keeps a broker that never gets ready from hanging the build)
     */
    void awaitReady(InetSocketAddress health) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(TIMEOUT);
        while (status(health, "/readyz") != 200) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the broker ended before it was ready:\n" + describe());
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("the broker was not ready within " + TIMEOUT + ":\n" + describe());
            }
            Thread.sleep(50);
        }
    }

    /** The HTTP status of {@code GET path} on {@code health}; -1 when nothing listens there. */
    static int status(InetSocketAddress health, String path) throws IOException {
        HttpURLConnection connection =
                (HttpURLConnection) URI.create("http://" + health.getHostString() + ":" + health.getPort() + path)
                        .toURL()
                        .openConnection(Proxy.NO_PROXY);
        try {
            return connection.getResponseCode();
        } catch (java.net.ConnectException e) {
            return -1;
        } finally {
            connection.disconnect();
        }
    }

    /** The body of {@code GET path} on {@code health}, which must answer 200. */
    static String get(InetSocketAddress health, String path) throws IOException {
        HttpURLConnection connection =
                (HttpURLConnection) URI.create("http://" + health.getHostString() + ":" + health.getPort() + path)
                        .toURL()
                        .openConnection(Proxy.NO_PROXY);
        try {
            if (connection.getResponseCode() != 200) {
                throw new IOException("GET " + path + " answered " + connection.getResponseCode());
            }
            try (InputStream in = connection.getInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        } finally {
            connection.disconnect();
        }
    }

    /** Sends SIGTERM ({@link Process#destroy()}). */
    void terminate() {
        process.destroy();
    }

    /** Sends {@code signal} (such as INT) to this process, by its id. */
    void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid()))
                .inheritIO()
                .start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /**
     * Waits for the process to end.
     *
     * @throws IllegalStateException if it has not ended in two minutes (it is then killed)
     */
    ToolRun awaitExit() throws IOException, InterruptedException {
        if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException(
                    String.join(" ", command) + " did not end within " + TIMEOUT + ":\n" + describe());
        }
        return new ToolRun(
                command,
                process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /** The command and what it wrote so far. */
    String describe() throws IOException {
        return String.join(" ", command) + "\n--- out\n" + Files.readString(out, StandardCharsets.UTF_8) + "--- err\n"
                + Files.readString(err, StandardCharsets.UTF_8);
    }

    /** Kills the process if it still runs (a failed test). */
    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                process.destroyForcibly().waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
