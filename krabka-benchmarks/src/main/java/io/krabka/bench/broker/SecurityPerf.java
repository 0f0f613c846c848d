package io.krabka.bench.broker;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Produce and consume over SASL_SSL (TLS, PLAIN, the StandardAuthorizer on), Krabka against Apache Kafka 4.4, and
 * what TLS and SASL cost each broker against its own PLAINTEXT: Kafka's own ProducerPerformance and
 * ConsumerPerformance against four brokers in turn per round (Kafka and Krabka, each on PLAINTEXT and on SASL_SSL;
 * same JVM options, same {@code server.properties}, same disk; the order reversed every other round), for 100-byte
 * and 1 KiB records with acks=1. The first table gives the medians over the rounds and the ratio Krabka/Kafka, the
 * second the ratio SASL_SSL/PLAINTEXT of each broker. Krabka on SASL_SSL runs {@code krabka broker --config} on the
 * file Kafka runs, as on PLAINTEXT. Run by {@code krabka-benchmarks/security-perf}.
 *
 * <p>Arguments: {@code --rounds N} (default 3), {@code --megabytes M} per row (default 100), {@code --kafka-only} to
 * measure Kafka's two sides alone (Krabka's columns are then NaN); the system properties of {@link BrokerRounds}.
 */
public final class SecurityPerf {
    private static final int PARTITIONS = 6;
    private static final List<Integer> RECORD_SIZES = List.of(100, 1024);
    private static final String ACKS = "1";

    private SecurityPerf() {}

    /** Runs the rounds and prints the tables; exit 2 for a wrong argument. */
    public static void main(String[] args) throws IOException, InterruptedException {
        List<String> rest = new ArrayList<>(List.of(args));
        boolean kafkaOnly = rest.remove("--kafka-only");
        PerfArguments arguments = PerfArguments.parse("security-perf", rest.toArray(String[]::new), 3, 100);
        Path java = BrokerRounds.java();
        Path kafkaLibs = BrokerRounds.kafkaLibs();
        Path dist = BrokerRounds.krabkaDist();
        SaslSsl saslSsl =
                SaslSsl.create(Path.of(System.getProperty("bench.work")).resolve("tls"));
        Map<String, BrokerRounds.Start> sides = new LinkedHashMap<>();
        sides.put("kafka-plaintext", dir -> Broker.Kafka.start(java, kafkaLibs, dir));
        sides.put("kafka-sasl_ssl", dir -> Broker.Kafka.start(java, kafkaLibs, dir, Optional.of(saslSsl)));
        if (!kafkaOnly) {
            sides.put("krabka-plaintext", dir -> Broker.Krabka.startOnConfig(java, dist, dir, Optional.empty()));
            sides.put("krabka-sasl_ssl", dir -> Broker.Krabka.startOnConfig(java, dist, dir, Optional.of(saslSsl)));
        }
        PerfResults results = BrokerRounds.run(
                arguments.rounds(),
                sides,
                (broker, tools, dir, into) -> runRows(broker, tools, dir, arguments.megabytes(), into));
        System.out.print(results.table());
        System.out.println();
        System.out.print(securityCost(results));
    }

    private static void runRows(Broker broker, PerfTools tools, Path dir, int megabytes, PerfResults results)
            throws IOException, InterruptedException {
        for (int size : RECORD_SIZES) {
            int records = (int) (megabytes * 1_048_576L / size);
            String row = broker.protocol() + " " + size + " B";
            String topic = "perf-" + size;
            broker.createTopic(topic, PARTITIONS);
            PerfTools.Produced produced = tools.produce(
                    dir.resolve(topic + "-produce.out"), broker.bootstrapServers(), topic, records, size, ACKS);
            PerfTools.Consumed consumed = tools.consume(
                    dir.resolve(topic + "-consume.out"), broker.bootstrapServers(), topic, records, topic + "-group");
            results.add(row + " produce MB/s", broker.name(), produced.mbPerSec());
            results.add(row + " produce p99 ms", broker.name(), produced.p99Ms());
            results.add(row + " consume MB/s", broker.name(), consumed.mbPerSec());
        }
    }

    // Each broker's SASL_SSL median over its PLAINTEXT median, for every throughput row.
    private static String securityCost(PerfResults results) {
        StringBuilder table = new StringBuilder(
                String.format(Locale.ROOT, "%-44s %12s %12s%n", "SASL_SSL / PLAINTEXT", "Krabka", "Kafka"));
        for (String metric : results.metrics()) {
            if (metric.startsWith("SASL_SSL ") && metric.endsWith(" MB/s")) {
                String plaintext = "PLAINTEXT " + metric.substring("SASL_SSL ".length());
                table.append(String.format(
                        Locale.ROOT,
                        "%-44s %12.2f %12.2f%n",
                        metric.substring("SASL_SSL ".length()),
                        results.median(metric, "Krabka") / results.median(plaintext, "Krabka"),
                        results.median(metric, "Kafka") / results.median(plaintext, "Kafka")));
            }
        }
        return table.toString();
    }
}
