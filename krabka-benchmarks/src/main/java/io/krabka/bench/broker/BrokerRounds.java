package io.krabka.bench.broker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    /** How one side of a round starts its broker on an empty directory. */
    @FunctionalInterface
    interface Start {
        Broker start(Path dir) throws IOException, InterruptedException;
    }

    private BrokerRounds() {}

    /** Runs {@code rounds} rounds of {@code rows} against Kafka and Krabka on PLAINTEXT and prints the table. */
    static void run(int rounds, Rows rows) throws IOException, InterruptedException {
        Path java = java();
        Path kafkaLibs = kafkaLibs();
        Path dist = krabkaDist();
        Map<String, Start> sides = new LinkedHashMap<>();
        sides.put("kafka", dir -> Broker.Kafka.start(java, kafkaLibs, dir));
        sides.put("krabka", dir -> Broker.Krabka.start(java, dist, dir));
        System.out.print(run(rounds, sides, rows).table());
    }

    /**
     * Runs {@code rounds} rounds of {@code rows} against each of {@code sides} (by the name of its directory), in
     * turn, the order reversed every other round; returns the results.
     */
    static PerfResults run(int rounds, Map<String, Start> sides, Rows rows) throws IOException, InterruptedException {
        Path work = Path.of(System.getProperty("bench.work"));
        PerfTools tools = new PerfTools(java(), kafkaLibs());
        PerfResults results = new PerfResults();
        for (int round = 0; round < rounds; round++) {
            List<String> order = new ArrayList<>(sides.keySet());
            if (round % 2 == 1) {
                Collections.reverse(order);
            }
            for (String side : order) {
                Path dir =
                        Files.createDirectories(work.resolve("round-" + round).resolve(side));
                try (Broker broker = sides.get(side).start(dir)) {
                    rows.run(broker, tools.clientsOf(broker, dir), dir, results);
                }
                System.err.printf("round %d of %d: %s done%n", round + 1, rounds, side);
            }
        }
        return results;
    }

    /** The JDK 25's {@code java} both brokers and the tools run on. */
    static Path java() {
        return Path.of(System.getProperty("bench.java"));
    }

    /** Apache Kafka 4.4's jars. */
    static Path kafkaLibs() {
        return Path.of(System.getProperty("bench.kafka.libs"));
    }

    /** Krabka's distribution. */
    static Path krabkaDist() {
        return Path.of(System.getProperty("bench.krabka.dist"));
    }
}
