package io.krabka.bench.broker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The rounds of a whole-broker benchmark: each round starts Kafka and Krabka one at a time (the order alternating
 * between rounds), each on an empty directory of its own, runs the benchmark's rows against it and stops it; then the
 * table of medians and ratios is printed. System properties: {@code bench.java} (the JDK 25's java),
 * {@code bench.kafka.libs}, {@code bench.krabka.dist}, {@code bench.work}.
 */
final class BrokerRounds {

    /** The rows of one round against one broker. */
    @FunctionalInterface
    interface Rows {
        /** Measures {@code broker}, whose files are under {@code dir}, into {@code results}. */
        void run(Broker broker, PerfTools tools, Path dir, PerfResults results)
                throws IOException, InterruptedException;
    }

    private BrokerRounds() {}

    /** Runs {@code rounds} rounds of {@code rows} and prints the table. */
    static void run(int rounds, Rows rows) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("bench.java"));
        Path work = Path.of(System.getProperty("bench.work"));
        Path kafkaLibs = Path.of(System.getProperty("bench.kafka.libs"));
        PerfTools tools = new PerfTools(java, kafkaLibs);
        PerfResults results = new PerfResults();
        for (int round = 0; round < rounds; round++) {
            List<String> order = round % 2 == 0 ? List.of("Kafka", "Krabka") : List.of("Krabka", "Kafka");
            for (String name : order) {
                Path dir =
                        Files.createDirectories(work.resolve("round-" + round).resolve(name.toLowerCase(Locale.ROOT)));
                try (Broker broker = name.equals("Kafka")
                        ? Broker.Kafka.start(java, kafkaLibs, dir)
                        : Broker.Krabka.start(java, Path.of(System.getProperty("bench.krabka.dist")), dir)) {
                    rows.run(broker, tools, dir, results);
                }
                System.err.printf("round %d of %d: %s done%n", round + 1, rounds, name);
            }
        }
        System.out.print(results.table());
    }
}
