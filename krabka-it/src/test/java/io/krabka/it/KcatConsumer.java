package io.krabka.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * librdkafka's balanced consumer as {@code kcat -G} runs it, in a child process: a member of a classic group
 * (JoinGroup v0-v5), static with {@code group.instance.id} when given. Its rebalances are read from what kcat prints
 * on standard error ({@code % Group G rebalanced (memberid M): assigned: t [0], t [1]}).
 */
final class KcatConsumer implements AutoCloseable {
    static final String KCAT = "/usr/bin/kcat";
    private static final Pattern PARTITION = Pattern.compile("(\\S+) \\[(\\d+)]");

    private final Process process;
    private final Path err;

    private KcatConsumer(Process process, Path err) {
        this.process = process;
        this.err = err;
    }

    /**
     * Starts {@code kcat -G group topic}, its standard error in {@code <workDir>/<name>.err}.
     *
     * @param instanceId {@code group.instance.id}, or null for a dynamic member
     */
    static KcatConsumer start(
            Path workDir, String name, String bootstrap, String group, String topic, String instanceId)
            throws IOException {
        Files.createDirectories(workDir);
        List<String> command = new ArrayList<>(List.of(KCAT, "-b", bootstrap, "-G", group));
        if (instanceId != null) {
            command.addAll(List.of("-X", "group.instance.id=" + instanceId));
        }
        command.add(topic);
        Path err = workDir.resolve(name + ".err");
        Process process = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(err.toFile())
                .start();
        return new KcatConsumer(process, err);
    }

    /** Every assignment it was given, in order, each as sorted {@code topic-partition}s. */
    List<List<String>> assignments() throws IOException {
        List<List<String>> assignments = new ArrayList<>();
        // kcat writes an assignment's line in pieces: a line is read only once its newline is written.
        String written = Files.readString(err, StandardCharsets.UTF_8);
        for (String line :
                written.substring(0, written.lastIndexOf('\n') + 1).lines().toList()) {
            int at = line.indexOf("assigned: ");
            if (line.startsWith("% Group ") && at >= 0) {
                TreeSet<String> partitions = new TreeSet<>();
                Matcher matcher = PARTITION.matcher(line.substring(at));
                while (matcher.find()) {
                    partitions.add(matcher.group(1) + "-" + matcher.group(2));
                }
                assignments.add(List.copyOf(partitions));
            }
        }
        return assignments;
    }

    /** Waits until it has had {@code count} assignments; returns the last. */
    List<String> awaitAssignments(int count, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (assignments().size() < count) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "kcat exited with " + process.exitValue() + ": " + Files.readString(err));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "kcat had no assignment " + count + " within " + timeout + ": " + Files.readString(err));
            }
            Thread.sleep(20);
        }
        return assignments().get(count - 1);
    }

    /**
     * Stops kcat as a user does (SIGTERM: the consumer closes; a static member stays in its group), killing it if it
     * does not stop in time or the wait is interrupted (the interrupt is kept).
     */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(1, TimeUnit.MINUTES)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
