package io.krabka.bench.broker;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Transactional produce, Krabka against Apache Kafka 4.4: Kafka's own ProducerPerformance with
 * {@code --transactional-id} (acks=all, idempotent, a commit every {@code --transaction-duration-ms}) against each
 * broker in turn, for transactions of 50 ms and 500 ms of 100-byte and 1 KiB records, then ConsumerPerformance
 * reading what was committed with read_committed. Each round starts each broker on an empty directory (the order
 * alternates between rounds); the table gives the median over the rounds and the ratio Krabka/Kafka. Run by
 * {@code krabka-benchmarks/txn-perf}.
 *
 * <p>Arguments: {@code --rounds N} (default 3), {@code --megabytes M} per row (default 50); the system properties of
 * {@link BrokerRounds}.
 */
public final class TransactionalPerf {
    private static final int PARTITIONS = 6;
    private static final List<Integer> RECORD_SIZES = List.of(100, 1024);
    private static final List<Integer> TRANSACTION_MS = List.of(50, 500);

    private TransactionalPerf() {}

    /** Runs the rounds and prints the table; exit 2 for a wrong argument. */
    public static void main(String[] args) throws IOException, InterruptedException {
        PerfArguments arguments = PerfArguments.parse("txn-perf", args, 3, 50);
        BrokerRounds.run(
                arguments.rounds(),
                (broker, tools, dir, results) -> runRows(broker, tools, dir, arguments.megabytes(), results));
    }

    private static void runRows(Broker broker, PerfTools tools, Path dir, int megabytes, PerfResults results)
            throws IOException, InterruptedException {
        for (int size : RECORD_SIZES) {
            int records = (int) (megabytes * 1_048_576L / size);
            for (int transactionMs : TRANSACTION_MS) {
                String row = size + " B, txn " + transactionMs + " ms";
                String topic = "txn-" + size + "-" + transactionMs;
                broker.createTopic(topic, PARTITIONS);
                PerfTools.Produced produced = tools.produceTransactionally(
                        dir.resolve(topic + "-produce.out"),
                        broker.bootstrapServers(),
                        topic,
                        records,
                        size,
                        transactionMs);
                PerfTools.Consumed consumed = tools.consumeCommitted(
                        dir.resolve(topic + "-consume.out"),
                        broker.bootstrapServers(),
                        topic,
                        records,
                        topic + "-group");
                results.add(row + " produce records/s", broker.name(), produced.recordsPerSec());
                results.add(row + " produce MB/s", broker.name(), produced.mbPerSec());
                results.add(row + " produce p99 ms", broker.name(), produced.p99Ms());
                results.add(row + " read_committed records/s", broker.name(), consumed.recordsPerSec());
            }
        }
    }
}
