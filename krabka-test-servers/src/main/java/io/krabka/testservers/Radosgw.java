package io.krabka.testservers;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One Ceph radosgw per JVM, started on first use by the repository's {@code scripts/rgw.sh} on a free port and
 * stopped when the JVM exits. Its OSD keeps data in RAM (2 GiB at most, deleted objects freed within seconds):
 * tests keep their data small.
 */
public final class Radosgw {
    /**
     * The endpoint of a radosgw already started with {@code scripts/rgw.sh start} (its default keys), to reuse
     * instead of starting one: handy while developing, since a machine runs one at a time (Ceph's monitor ports).
     */
    public static final String RUNNING_ENDPOINT = "KRABKA_RGW_ENDPOINT";

    private static final String ACCESS_KEY = "krabka";
    private static final String SECRET_KEY = "krabka-secret";
    private static S3Server server;

    private Radosgw() {}

    /**
     * The running server, started if it is not yet.
     *
     * <p>Fails or skips the caller ({@link RequiredServers}) when radosgw is not installed; fails when it is
     * installed but does not start.
     */
    public static synchronized S3Server get() {
        if (server == null) {
            String running = System.getenv(RUNNING_ENDPOINT);
            if (running != null && !running.isBlank()) {
                server = new S3Server(URI.create(running), ACCESS_KEY, SECRET_KEY, true);
                return server;
            }
            if (!installed()) {
                throw RequiredServers.missing(
                        "Ceph radosgw is not installed (apt-get install radosgw ceph-mon ceph-osd)");
            }
            server = start();
        }
        return server;
    }

    private static boolean installed() {
        return Files.isExecutable(Path.of("/usr/bin/radosgw"))
                && Files.isExecutable(Path.of("/usr/bin/ceph-mon"))
                && Files.isExecutable(Path.of("/usr/bin/ceph-osd"));
    }

    private static S3Server start() {
        Path script = RepositoryRoot.find().resolve("scripts/rgw.sh");
        try {
            // work/ holds the cluster (the script recreates it); the script's output goes beside it.
            Path home = Files.createTempDirectory("krabka-rgw-");
            Path dir = home.resolve("work");
            int port = LoopbackPorts.free();
            Map<String, String> env = Map.of(
                    "RGW_DIR",
                    dir.toString(),
                    "RGW_PORT",
                    Integer.toString(port),
                    "RGW_ACCESS_KEY",
                    ACCESS_KEY,
                    "RGW_SECRET_KEY",
                    SECRET_KEY);
            run(script, "start", env, home);
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
                try {
                    run(script, "stop", env, home);
                    deleteTree(home);
                } catch (IOException e) {
                    System.err.println("stopping radosgw in " + home + " failed: " + e);
                }
            }));
            return new S3Server(URI.create("http://127.0.0.1:" + port), ACCESS_KEY, SECRET_KEY, true);
        } catch (IOException e) {
            throw new IllegalStateException("radosgw did not start: " + e.getMessage(), e);
        }
    }

    private static void run(Path script, String command, Map<String, String> env, Path home) throws IOException {
        Path out = home.resolve(command + ".out");
        ProcessBuilder builder = new ProcessBuilder("bash", script.toString(), command)
                .redirectErrorStream(true)
                .redirectOutput(out.toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        try {
            if (!process.waitFor(3, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException(script + " " + command + " did not finish in 3 minutes");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted waiting for " + script + " " + command, e);
        }
        if (process.exitValue() != 0) {
            throw new IOException(script + " " + command + " exited with " + process.exitValue() + ": "
                    + Files.readString(out, StandardCharsets.UTF_8).strip());
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
