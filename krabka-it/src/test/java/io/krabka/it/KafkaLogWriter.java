package io.krabka.it;

import io.krabka.it.KafkaLog.Shutdown;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Has Apache Kafka 4.4.0 write the logs of a {@link KafkaLogWorkload} and stop, cleanly or killed mid-produce.
 *
 * <p>Killed, it first runs one more phase on {@value #CRASH} (two partitions, the small segments): a transaction
 * is left open in partition 0 (its records acknowledged, no marker), then lz4 batches flow to both partitions
 * without pause, and the broker is killed with SIGKILL once {@value #ACKNOWLEDGED_BEFORE_KILL} of them are
 * acknowledged, with up to a thousand more in flight.
 */
final class KafkaLogWriter {
    static final String KAFKA_VERSION = "4.4.0";
    static final String CRASH = "crash";

    private static final int ACKNOWLEDGED_BEFORE_KILL = 3000;
    private static final Duration CRASH_TIMEOUT = Duration.ofMinutes(3);
    private static final Map<String, String> BROKER = Map.of(
            "auto.create.topics.enable", "false",
            "offsets.topic.num.partitions", "1",
            "transaction.state.log.num.partitions", "1");

    private KafkaLogWriter() {}

    /**
     * Runs the broker in {@code workDir} (emptied first), produces the workload and stops the broker.
     *
     * @throws IllegalStateException if Kafka fails to write the logs or to stop as asked; the message names the
     *                               broker's logs
     */
    static KafkaLog write(Path workDir, Shutdown shutdown) throws IOException, InterruptedException {
        deleteRecursively(workDir);
        List<TopicSpec> topics = new ArrayList<>(KafkaLogWorkload.topics());
        if (shutdown == Shutdown.KILLED) {
            topics.add(new TopicSpec(CRASH, 2, KafkaLogWorkload.smallSegments()));
        }
        ProducedLogs logs = new ProducedLogs();
        ReferenceKafka kafka = ReferenceKafka.start(KAFKA_VERSION, workDir, BROKER);
        try (kafka;
                Admin admin = Admin.create(Map.of(
                        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                        kafka.bootstrapServers(),
                        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                        120_000))) {
            admin.createTopics(topics.stream()
                            .map(t -> new NewTopic(t.name(), t.partitions(), (short) 1).configs(t.configs()))
                            .toList())
                    .all()
                    .get();
            topics.forEach(t -> logs.declare(t.topicPartitions()));
            // Ten minutes back: Kafka refuses timestamps too far in the future, and some records go back in time.
            KafkaLogWorkload workload = new KafkaLogWorkload(
                    kafka.bootstrapServers(), admin, new RecordFactory(System.currentTimeMillis() - 600_000), logs);
            workload.run();
            if (shutdown == Shutdown.KILLED) {
                killMidProduce(kafka, workload, logs);
            }
        } catch (Exception e) {
            throw new IllegalStateException(
                    "Kafka " + KAFKA_VERSION + " did not write the logs: " + e + "; broker logs in " + kafka.logsDir(),
                    e);
        }
        boolean clean = Files.exists(kafka.logDir().resolve(KafkaLog.CLEAN_SHUTDOWN));
        if (clean != (shutdown == Shutdown.CLEAN)) {
            throw new IllegalStateException("Kafka was to stop " + shutdown + " but "
                    + (clean ? "wrote" : "did not write") + " " + KafkaLog.CLEAN_SHUTDOWN + " in " + kafka.logDir()
                    + "; broker logs in " + kafka.logsDir());
        }
        return new KafkaLog(kafka.logDir(), kafka.logsDir(), shutdown, logs.result(), topics);
    }

    private static void killMidProduce(ReferenceKafka kafka, KafkaLogWorkload workload, ProducedLogs logs)
            throws Exception {
        List<TopicPartition> partitions = List.of(new TopicPartition(CRASH, 0), new TopicPartition(CRASH, 1));
        // The coordinator must not abort the open transaction before the kill: the longest timeout it allows.
        try (Producer<byte[], byte[]> open = workload.producer(Map.of(
                ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                "krabka-log-open-tx",
                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                900_000))) {
            open.initTransactions();
            open.beginTransaction();
            workload.produce(open, partitions.subList(0, 1), 60, true);
            ContinuousSends sends = ContinuousSends.start(
                    workload.producer(Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4")),
                    partitions,
                    workload.records());
            try (sends) {
                sends.awaitAcknowledged(ACKNOWLEDGED_BEFORE_KILL, CRASH_TIMEOUT);
                kafka.kill();
            }
            open.close(Duration.ZERO);
            for (ContinuousSends.Acknowledged ack : sends.acknowledged()) {
                logs.acknowledged(ack.partition(), ack.offset(), ack.timestamp(), ack.record());
            }
            partitions.forEach(logs::mayHoldMore);
        }
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
