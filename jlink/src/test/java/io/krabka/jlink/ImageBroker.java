package io.krabka.jlink;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.Proxy;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code krabka broker} run from an image's {@code bin/krabka} on the image's own Java, with no environment but a
 * {@code PATH}, formatting its log directory on first use, on free loopback ports; its health endpoint read over
 * HTTP.
 */
final class ImageBroker implements AutoCloseable {
    private final Process process;
    private final int healthPort;
    private final Path err;

    private ImageBroker(Process process, int healthPort, Path err) {
        this.process = process;
        this.healthPort = healthPort;
        this.err = err;
    }

    /** Starts the broker of {@code image} with its data under {@code work}, and {@code more} flags. */
    static ImageBroker start(Path image, Path work, String... more) throws IOException {
        int health = freePort();
        List<String> command = new ArrayList<>(List.of(
                image.resolve("bin/krabka").toString(),
                "broker",
                "--format-if-needed",
                "--log-dir",
                work.resolve("broker-data").toString(),
                "--listen-addr",
                "127.0.0.1:" + freePort(),
                "--controller-listen-addr",
                "127.0.0.1:" + freePort(),
                "--health-listen-addr",
                "127.0.0.1:" + health));
        command.addAll(List.of(more));
        Path err = work.resolve("broker.err");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(work.resolve("broker.out").toFile())
                .redirectError(err.toFile());
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/bin:/bin");
        return new ImageBroker(builder.start(), health, err);
    }

    /** Waits until {@code /readyz} answers 200; fails if the broker dies first. */
    void awaitReady() throws IOException, InterruptedException {
        // Not a measurement: the bound only keeps a broker that never gets ready from hanging the build.
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (status("/readyz") != 200) {
            assertTrue(process.isAlive() && System.nanoTime() < deadline, () -> "not ready: " + errors());
            Thread.sleep(50);
        }
    }

    /** The body of a GET of {@code path} on the health endpoint. */
    String get(String path) throws IOException {
        HttpURLConnection connection = open(path);
        try (InputStream in = connection.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            connection.disconnect();
        }
    }

    /** Asks it to stop (SIGTERM) and waits: its exit code. */
    int stop() throws InterruptedException {
        process.destroy();
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), "stopped");
        return process.exitValue();
    }

    /** What it wrote on standard error. */
    String errors() {
        try {
            return Files.readString(err);
        } catch (IOException e) {
            return "(" + err + " unreadable: " + e + ")";
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

    private int status(String path) throws IOException {
        HttpURLConnection connection = open(path);
        try {
            return connection.getResponseCode();
        } catch (ConnectException e) {
            return -1;
        } finally {
            connection.disconnect();
        }
    }

    private HttpURLConnection open(String path) throws IOException {
        return (HttpURLConnection)
                URI.create("http://127.0.0.1:" + healthPort + path).toURL().openConnection(Proxy.NO_PROXY);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
