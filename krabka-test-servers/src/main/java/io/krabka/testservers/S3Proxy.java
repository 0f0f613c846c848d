package io.krabka.testservers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * One S3Proxy per JVM, started on first use as a child {@code java -jar} process on a free port of 127.0.0.1 and
 * stopped when the JVM exits. It keeps objects in memory ({@code transient-nio2}, the only backend with
 * versioning) and enforces {@code If-None-Match: *} on PUT and on CompleteMultipartUpload, in plain and versioned
 * buckets, which radosgw 16 does not; it has no Object Lock. The fat jar comes from the local Maven repository,
 * where the build of this module put it.
 */
public final class S3Proxy {
    private static final String IDENTITY = "krabka";
    private static final String CREDENTIAL = "krabka-secret";
    private static final Duration START_LIMIT = Duration.ofSeconds(60);
    private static S3Server server;

    private S3Proxy() {}

    /**
     * The running server, started if it is not yet.
     *
     * <p>Fails or skips the caller ({@link RequiredServers}) when the jar is missing from the local repository;
     * fails when it is there but does not start.
     */
    public static synchronized S3Server get() {
        if (server == null) {
            Path jar = jar();
            if (!Files.isRegularFile(jar)) {
                throw RequiredServers.missing("S3Proxy's jar " + jar + " is missing (build krabka-test-servers, "
                        + "which fetches it from Maven Central)");
            }
            server = start(jar);
        }
        return server;
    }

    /** Where the build says the fat jar is. */
    private static Path jar() {
        Properties properties = new Properties();
        try (InputStream in = S3Proxy.class.getResourceAsStream("s3proxy.properties")) {
            if (in == null) {
                throw new IllegalStateException("s3proxy.properties is missing from krabka-test-servers");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Path.of(properties.getProperty("jar"));
    }

    private static S3Server start(Path jar) {
        try {
            Path home = Files.createTempDirectory("krabka-s3proxy-");
            int port = LoopbackPorts.free();
            URI endpoint = URI.create("http://127.0.0.1:" + port);
            Path config = Files.writeString(
                    home.resolve("s3proxy.properties"),
                    String.join(
                            "\n",
                            "s3proxy.endpoint=" + endpoint,
                            "s3proxy.authorization=aws-v2-or-v4",
                            "s3proxy.identity=" + IDENTITY,
                            "s3proxy.credential=" + CREDENTIAL,
                            "jclouds.provider=transient-nio2",
                            ""));
            Path log = home.resolve("s3proxy.log");
            Process process = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-Xmx512m",
                            "-jar",
                            jar.toString(),
                            "--properties",
                            config.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> stop(process, home)));
            awaitAnswer(endpoint, process, log);
            return new S3Server(endpoint, IDENTITY, CREDENTIAL, false);
        } catch (IOException e) {
            throw new IllegalStateException("S3Proxy did not start: " + e.getMessage(), e);
        }
    }

    /** Any HTTP answer (an anonymous request gets 403) means it serves. */
    private static void awaitAnswer(URI endpoint, Process process, Path log) throws IOException {
        Instant deadline = Instant.now().plus(START_LIMIT);
        try (HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build()) {
            HttpRequest probe = HttpRequest.newBuilder(endpoint)
                    .timeout(Duration.ofSeconds(2))
                    .GET()
                    .build();
            while (true) {
                if (!process.isAlive()) {
                    throw new IOException("it exited with " + process.exitValue() + ": "
                            + Files.readString(log, StandardCharsets.UTF_8).strip());
                }
                try {
                    http.send(probe, HttpResponse.BodyHandlers.discarding());
                    return;
                } catch (IOException notYet) {
                    if (Instant.now().isAfter(deadline)) {
                        process.destroyForcibly();
                        throw new IOException(
                                "no answer on " + endpoint + " in " + START_LIMIT.toSeconds() + " s; log " + log,
                                notYet);
                    }
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted waiting for S3Proxy", e);
        }
    }

    private static void stop(Process process, Path home) {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            try (var paths = Files.walk(home)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException e) {
            System.err.println("cleaning up S3Proxy in " + home + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
