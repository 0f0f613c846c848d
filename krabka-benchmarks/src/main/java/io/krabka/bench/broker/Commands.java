package io.krabka.bench.broker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/** Child processes of the benchmark: their output goes to a file, named in any failure. */
final class Commands {
    private Commands() {}

    /** Starts {@code command} with {@code env} added, its output to {@code out}. */
    static Process start(Path out, List<String> command, Map<String, String> env) throws IOException {
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
        builder.environment().putAll(env);
        return builder.start();
    }

    /** Runs {@code command} to its end; a non-zero exit is an error naming the output file. */
    static String run(Path out, List<String> command) throws IOException, InterruptedException {
        Process process = start(out, command, Map.of());
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor();
            throw new IOException("timed out: " + String.join(" ", command) + " (output in " + out + ")");
        }
        String output = Files.readString(out);
        if (process.exitValue() != 0) {
            throw new IOException(
                    "exit " + process.exitValue() + ": " + String.join(" ", command) + " (output in " + out + ")");
        }
        return output;
    }

    /** Returns {@code broker} once an admin client sees its cluster; stops it and fails if it never does. */
    static <B extends Broker> B awaitReady(B broker) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Broker.START_TIMEOUT.toNanos();
        Map<String, Object> config = broker.admin(2000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000);
        try (Admin admin = Admin.create(config)) {
            while (System.nanoTime() < deadline && broker.process().isAlive()) {
                try {
                    admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    return broker;
                } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                    Thread.sleep(200);
                }
            }
        }
        broker.close();
        throw new IOException(broker.name() + " did not start (exit "
                + (broker.process().isAlive() ? "-" : broker.process().exitValue()) + ")");
    }
}
