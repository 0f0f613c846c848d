package io.krabka.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The two sides of {@link RestoreThroughput}, each a child process over the same archive into a new directory beside
 * it, then {@code sync}, both inside the time: the operator's {@code cp -r}, and {@code krabka restore} of the
 * distribution (under {@code /usr/bin/time -v} when there is one, for its peak RSS). After each, outside the time,
 * the output is checked and deleted, and the deletes synced.
 */
final class RestoreSides {
    private static final Path TIME = Path.of("/usr/bin/time");
    private static final Pattern MAX_RSS = Pattern.compile("Maximum resident set size \\(kbytes\\): (\\d+)");

    private final Path work;
    private final Path archive;
    private final Path krabka;
    private final OptionalLong parallelism;
    private final SyntheticArchive.Written expected;
    private int runs;

    /**
     * @param work        where the targets and the commands' output go
     * @param archive     the archive's directory, as {@code --archive-local} names it
     * @param dist        the distribution whose {@code bin/krabka} restores
     * @param parallelism {@code --parallelism}, or empty for the command's default
     * @param expected    what the archive holds, which each restore must have written
     */
    RestoreSides(Path work, Path archive, Path dist, OptionalLong parallelism, SyntheticArchive.Written expected) {
        this.work = work;
        this.archive = archive;
        this.krabka = dist.resolve("bin/krabka");
        this.parallelism = parallelism;
        this.expected = expected;
    }

    /** One side's run: the command's time and the {@code sync} after it, and the peak RSS if it was measured. */
    record Timing(long commandNanos, long syncNanos, OptionalLong peakRssBytes) {
        double seconds() {
            return (commandNanos + syncNanos) / 1e9;
        }
    }

    /** {@code cp -r} of the archive to a new directory, then {@code sync}. */
    Timing copy() throws IOException, InterruptedException {
        Path target = work.resolve("copy-" + ++runs);
        Timing timing = timed(List.of("cp", "-r", archive.toString(), target.toString()), target, Map.of());
        long copied = logBytes(target);
        if (copied != expected.logBytes()) {
            throw new IOException("cp -r copied " + copied + " bytes of .log, not " + expected.logBytes());
        }
        delete(target);
        return timing;
    }

    /** {@code krabka restore} of the archive into a new log directory, then {@code sync}. */
    Timing restore() throws IOException, InterruptedException {
        return restore("");
    }

    /**
     * {@code krabka restore} as {@link #restore()}, its JVM given {@code javaOptions} after any in {@code
     * KRABKA_JAVA_OPTS}.
     */
    Timing restore(String javaOptions) throws IOException, InterruptedException {
        Path target = work.resolve("restore-" + ++runs);
        List<String> command = new ArrayList<>();
        Path rss = work.resolve("restore-" + runs + ".time");
        if (Files.isExecutable(TIME)) {
            command.addAll(List.of(TIME.toString(), "-v", "-o", rss.toString()));
        }
        command.addAll(List.of(
                krabka.toString(),
                "restore",
                "--archive-local",
                archive.toString(),
                "--log-dir",
                target.toString(),
                "--node-id",
                "1",
                "--standalone",
                "--report",
                "json"));
        parallelism.ifPresent(n -> command.addAll(List.of("--parallelism", Long.toString(n))));
        String options = (System.getenv().getOrDefault("KRABKA_JAVA_OPTS", "") + " " + javaOptions).strip();
        Timing timing = timed(command, target, options.isEmpty() ? Map.of() : Map.of("KRABKA_JAVA_OPTS", options));
        check(target);
        delete(target);
        if (Files.exists(rss)) {
            Matcher kbytes = MAX_RSS.matcher(Files.readString(rss));
            Files.delete(rss);
            if (kbytes.find()) {
                return new Timing(
                        timing.commandNanos(),
                        timing.syncNanos(),
                        OptionalLong.of(Long.parseLong(kbytes.group(1)) * 1024));
            }
        }
        return timing;
    }

    /** Runs {@code command} then {@code sync}, timing each; a failure names the command's output. */
    private Timing timed(List<String> command, Path target, Map<String, String> env)
            throws IOException, InterruptedException {
        Path out = work.resolve(target.getFileName() + ".out");
        long start = System.nanoTime();
        run(command, out, env);
        long ran = System.nanoTime();
        run(List.of("sync"), work.resolve("sync.out"), Map.of());
        return new Timing(ran - start, System.nanoTime() - ran, OptionalLong.empty());
    }

    private static void run(List<String> command, Path out, Map<String, String> env)
            throws IOException, InterruptedException {
        Path err = out.resolveSibling(out.getFileName() + ".err");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        if (!process.waitFor(30, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor();
            throw new IOException("timed out: " + String.join(" ", command) + " (output in " + out + ")");
        }
        if (process.exitValue() != 0) {
            throw new IOException("exit " + process.exitValue() + ": " + String.join(" ", command) + " (output in "
                    + out + " and " + err + ")");
        }
        Files.delete(err);
    }

    // The restore's own account (its JSON report) and the files it left must both hold every byte and record.
    private void check(Path target) throws IOException {
        Path out = work.resolve(target.getFileName() + ".out");
        String text = Files.readString(out);
        // The report is the last thing on standard output; a JVM option (a flight recording, say) may print first.
        JsonNode report =
                new ObjectMapper().readTree(text.startsWith("{") ? text : text.substring(text.indexOf("\n{") + 1));
        long bytes = 0;
        long records = 0;
        for (JsonNode partition : report.path("partitions")) {
            for (JsonNode segment : partition.path("segments")) {
                bytes += segment.path("bytes_written").asLong();
                records += segment.path("records_kept").asLong();
            }
        }
        long onDisk = logBytes(target);
        if (bytes != expected.logBytes()
                || records != expected.records()
                || onDisk != expected.logBytes()
                || !report.path("skipped").isEmpty()) {
            throw new IOException(
                    "the restore wrote " + bytes + " bytes (" + onDisk + " on disk) and " + records + " records, not "
                            + expected.logBytes() + " and " + expected.records() + " (report in " + out + ")");
        }
        Files.delete(out);
    }

    // The .log bytes of the topic's partitions under dir (not the cluster metadata log a restore also writes).
    private static long logBytes(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            long total = 0;
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".log")
                    && f.getParent().getFileName().toString().startsWith(SyntheticArchive.TOPIC + "-"))::iterator) {
                total += Files.size(file);
            }
            return total;
        }
    }

    /** Deletes a target and syncs, outside the time, so the next run starts with nothing dirty. */
    private void delete(Path target) throws IOException, InterruptedException {
        Scratch.delete(target);
        Files.deleteIfExists(work.resolve(target.getFileName() + ".out"));
        run(List.of("sync"), work.resolve("sync.out"), Map.of());
    }
}
