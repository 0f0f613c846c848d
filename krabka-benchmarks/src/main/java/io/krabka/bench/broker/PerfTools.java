package io.krabka.bench.broker;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;

/** Apache Kafka's own ProducerPerformance and ConsumerPerformance, run from the reference jars. */
final class PerfTools {
    // "500000 records sent, 185873.6 records/sec (17.73 MB/sec), 1234.56 ms avg latency, 2000.00 ms max latency,
    // 1100 ms 50th, 1900 ms 95th, 1990 ms 99th, 2000 ms 99.9th."
    private static final Pattern PRODUCER_SUMMARY = Pattern.compile("(\\d+) records sent, ([\\d.]+) records/sec "
            + "\\(([\\d.]+) MB/sec\\).*?, (\\d+) ms 50th, \\d+ ms 95th, (\\d+) ms 99th");

    private final Path java;
    private final Path libs;
    private final List<String> clientOptions;

    PerfTools(Path java, Path libs) {
        this(java, libs, List.of());
    }

    private PerfTools(Path java, Path libs, List<String> clientOptions) {
        this.java = java;
        this.libs = libs;
        this.clientOptions = clientOptions;
    }

    /**
     * These tools as clients of {@code broker}: with its security settings ({@link Broker#client()}) in a
     * {@code --command-config} file under {@code dir}, when it has any.
     */
    PerfTools clientsOf(Broker broker, Path dir) throws IOException {
        if (broker.client().isEmpty()) {
            return this;
        }
        Properties client = new Properties();
        broker.client().forEach((key, value) -> client.put(key, String.valueOf(value)));
        Path file = dir.resolve("client.properties");
        try (Writer out = Files.newBufferedWriter(file)) {
            client.store(out, "the tools' settings for " + broker.name() + " over " + broker.protocol());
        }
        return new PerfTools(java, libs, List.of("--command-config", file.toString()));
    }

    /** What ProducerPerformance measured. */
    record Produced(double recordsPerSec, double mbPerSec, double p50Ms, double p99Ms) {}

    /** What ConsumerPerformance measured. */
    record Consumed(double recordsPerSec, double mbPerSec) {}

    /** Sends {@code records} records of {@code size} bytes as fast as the producer can, with {@code acks}. */
    Produced produce(Path out, String bootstrap, String topic, int records, int size, String acks)
            throws IOException, InterruptedException {
        return produce(out, bootstrap, topic, records, size, List.of(), List.of("acks=" + acks));
    }

    /**
     * Sends {@code records} records of {@code size} bytes in transactions of {@code transactionMs} milliseconds each
     * (ProducerPerformance's {@code --transactional-id}: acks=all, idempotent, a commit every so long).
     */
    Produced produceTransactionally(Path out, String bootstrap, String topic, int records, int size, int transactionMs)
            throws IOException, InterruptedException {
        return produce(
                out,
                bootstrap,
                topic,
                records,
                size,
                List.of(
                        "--transactional-id",
                        "perf-" + topic,
                        "--transaction-duration-ms",
                        Integer.toString(transactionMs)),
                List.of());
    }

    // ProducerPerformance with these options and these producer settings besides the bootstrap servers.
    private Produced produce(
            Path out,
            String bootstrap,
            String topic,
            int records,
            int size,
            List<String> options,
            List<String> producerProps)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(
                "--topic",
                topic,
                "--num-records",
                Integer.toString(records),
                "--record-size",
                Integer.toString(size),
                "--throughput",
                "-1"));
        args.addAll(options);
        args.addAll(clientOptions);
        args.addAll(List.of("--producer-props", "bootstrap.servers=" + bootstrap));
        args.addAll(producerProps);
        String output =
                Commands.run(out, command("org.apache.kafka.tools.ProducerPerformance", args.toArray(String[]::new)));
        // Only the final summary has percentiles; the last one found is the whole run's.
        MatchResult last = PRODUCER_SUMMARY
                .matcher(output)
                .results()
                .reduce((first, second) -> second)
                .filter(summary -> Long.parseLong(summary.group(1)) == records)
                .orElseThrow(() -> new IOException("no summary of " + records + " records sent in " + out));
        return new Produced(
                Double.parseDouble(last.group(2)),
                Double.parseDouble(last.group(3)),
                Double.parseDouble(last.group(4)),
                Double.parseDouble(last.group(5)));
    }

    /** Reads {@code records} records from the start of {@code topic} in a consumer group of its own. */
    Consumed consume(Path out, String bootstrap, String topic, int records, String group)
            throws IOException, InterruptedException {
        return consume(out, bootstrap, topic, records, group, List.of());
    }

    /** As {@link #consume}, with {@code isolation.level=read_committed}: what transactions committed. */
    Consumed consumeCommitted(Path out, String bootstrap, String topic, int records, String group)
            throws IOException, InterruptedException {
        return consume(
                out, bootstrap, topic, records, group, List.of("--command-property", "isolation.level=read_committed"));
    }

    private Consumed consume(Path out, String bootstrap, String topic, int records, String group, List<String> options)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(
                "--bootstrap-server",
                bootstrap,
                "--topic",
                topic,
                "--num-records",
                Integer.toString(records),
                "--group",
                group,
                "--timeout",
                "60000"));
        args.addAll(options);
        args.addAll(clientOptions);
        String output =
                Commands.run(out, command("org.apache.kafka.tools.ConsumerPerformance", args.toArray(String[]::new)));
        // A header line of names, then a line of values: "start.time, end.time, data.consumed.in.MB, MB.sec, ...".
        List<String> lines = output.lines().toList();
        for (int i = 0; i + 1 < lines.size(); i++) {
            if (lines.get(i).startsWith("start.time")) {
                List<String> names = Arrays.stream(lines.get(i).split(","))
                        .map(String::strip)
                        .toList();
                List<String> values = Arrays.stream(lines.get(i + 1).split(","))
                        .map(String::strip)
                        .toList();
                return new Consumed(
                        Double.parseDouble(values.get(names.indexOf("nMsg.sec"))),
                        Double.parseDouble(values.get(names.indexOf("MB.sec"))));
            }
        }
        throw new IOException("no ConsumerPerformance result in " + out);
    }

    private List<String> command(String main, String... args) {
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx512m", "-cp", libs + "/*", main));
        command.addAll(List.of(args));
        return command;
    }
}
