package io.krabka.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * Krabka's broker in a child process, as a user runs it: {@code bin/krabka format} then {@code bin/krabka broker}
 * of the built distribution, on free loopback ports. It can be stopped with SIGTERM, killed with SIGKILL and
 * started again on the same directory.
 */
final class KrabkaBroker implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private final Path workDir;
    private final Path dist;
    private final List<String> overrides;
    private final int port = freePort();
    private final int healthPort = freePort();
    private Process process;
    private int starts;

    private KrabkaBroker(Path workDir, Path dist, List<String> overrides) {
        this.workDir = workDir;
        this.dist = dist;
        this.overrides = overrides;
    }

    /**
     * Formats a log directory under {@code workDir} (emptied first) and starts the broker on it, returning once an admin client
     * sees the cluster.
     *
     * @param settings broker settings, each passed as {@code --override KEY=VALUE}
     */
    static KrabkaBroker start(Path workDir, Map<String, String> settings) throws IOException, InterruptedException {
        // A directory left by an earlier run is replaced.
        KafkaLogWriter.deleteRecursively(workDir);
        List<String> overrides = new ArrayList<>();
        settings.forEach((key, value) -> overrides.addAll(List.of("--override", key + "=" + value)));
        KrabkaBroker broker = new KrabkaBroker(workDir, KrabkaCommand.dist(), overrides);
        ToolRun format = ToolRun.run(workDir, "format", List.of("sh", broker.krabka(), "format", "--log-dir",
                broker.logDir().toString(), "--node-id", "1", "--standalone"), broker.environment());
        if (format.exitCode() != 0) {
            throw new IllegalStateException("krabka format failed:\n" + format.describe());
        }
        broker.start();
        return broker;
    }

    /** {@code host:port} of the broker's listener. */
    String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** The port of {@code /healthz} and {@code /readyz}. */
    int healthPort() {
        return healthPort;
    }

    /** The broker's log directory. */
    Path logDir() {
        return workDir.resolve("data");
    }

    /** The broker's process. */
    Process process() {
        return process;
    }

    /** Starts the broker (again) on its directory and waits until it serves. */
    void start() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("sh", krabka(), "broker", "--log-dir", logDir().toString(),
                "--listen-addr", bootstrapServers(), "--advertised-listener", bootstrapServers(),
                "--process-roles", "controller,broker", "--health-listen-addr", "127.0.0.1:" + healthPort));
        command.addAll(overrides);
        Path out = workDir.resolve("broker-" + ++starts + ".out");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
        builder.environment().putAll(environment());
        process = builder.start();
        awaitReady(out);
    }

    /** SIGTERM, then waits for the clean shutdown; returns the exit code. */
    int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException("the broker did not stop within " + STOP_TIMEOUT + " of SIGTERM");
        }
        return process.exitValue();
    }

    /** SIGKILL: the broker ends at once, without any shutdown. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** What the broker printed in its latest start. */
    String output() throws IOException {
        return Files.readString(workDir.resolve("broker-" + starts + ".out"));
    }

    /** Stops the broker if it runs; kills it if interrupted meanwhile. */
    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            try {
                stop();
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    private void awaitReady(Path out) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "4000"))) {
            while (process.isAlive() && System.nanoTime() < deadline) {
                try {
                    admin.describeCluster().nodes().get(4, TimeUnit.SECONDS);
                    return;
                } catch (ExecutionException | TimeoutException e) {
                    Thread.sleep(100);
                }
            }
        }
        boolean exited = !process.isAlive();
        process.destroyForcibly().waitFor();
        throw new IllegalStateException("the broker did not start" + (exited ? " (exit " + process.exitValue() + ")"
                : " within " + START_TIMEOUT) + ":\n" + Files.readString(out));
    }

    private String krabka() {
        return dist.resolve("bin/krabka").toString();
    }

    private Map<String, String> environment() {
        return Map.of("JAVA_HOME", System.getProperty("java.home"));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress("127.0.0.1", 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
