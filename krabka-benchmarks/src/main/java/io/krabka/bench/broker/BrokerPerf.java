package io.krabka.bench.broker;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Whole-broker throughput: Apache Kafka's own ProducerPerformance and ConsumerPerformance against Krabka and against
 * Apache Kafka 4.4, one broker at a time on the same disk with the same JVM options, for 100-byte and 1 KiB records
 * with acks=1 and acks=all. Each round starts each broker on an empty directory (the order alternates between
 * rounds) and runs every row; the table gives the median over the rounds and the ratio Krabka/Kafka. Run by
 * {@code krabka-benchmarks/broker-perf}.
 *
 * <p>Arguments: {@code --rounds N} (default 3), {@code --megabytes M} per row (default 100); the system properties of
 * {@link BrokerRounds}.
 */
public final class BrokerPerf {
    private static final int PARTITIONS = 6;
    private static final List<Integer> RECORD_SIZES = List.of(100, 1024);
    private static final List<String> ACKS = List.of("1", "all");

    private BrokerPerf() {}

    /** Runs the rounds and prints the table; exit 2 for a wrong argument. */
    public static void main(String[] args) throws IOException, InterruptedException {
        PerfArguments arguments = PerfArguments.parse("broker-perf", args, 3, 100);
        BrokerRounds.run(arguments.rounds(), (broker, tools, dir, results) -> {
            runRows(broker, tools, dir, arguments.megabytes(), results);
            results.add("broker peak RSS (MB)", broker.name(), broker.peakRssBytes() / 1e6);
        });
    }

    private static void runRows(Broker broker, PerfTools tools, Path dir, int megabytes, PerfResults results)
            throws IOException, InterruptedException {
        for (int size : RECORD_SIZES) {
            int records = (int) (megabytes * 1_048_576L / size);
            for (String acks : ACKS) {
                String row = size + " B, acks=" + acks;
                String topic = "perf-" + size + "-" + acks;
                broker.createTopic(topic, PARTITIONS);
                PerfTools.Produced produced = tools.produce(
                        dir.resolve(topic + "-produce.out"), broker.bootstrapServers(), topic, records, size, acks);
                PerfTools.Consumed consumed = tools.consume(
                        dir.resolve(topic + "-consume.out"),
                        broker.bootstrapServers(),
                        topic,
                        records,
                        topic + "-group");
                results.add(row + " produce records/s", broker.name(), produced.recordsPerSec());
                results.add(row + " produce MB/s", broker.name(), produced.mbPerSec());
                results.add(row + " produce p50 ms", broker.name(), produced.p50Ms());
                results.add(row + " produce p99 ms", broker.name(), produced.p99Ms());
                results.add(row + " consume records/s", broker.name(), consumed.recordsPerSec());
                results.add(row + " consume MB/s", broker.name(), consumed.mbPerSec());
            }
        }
    }
}
