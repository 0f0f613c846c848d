package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Transactions on Krabka against Kafka 4.4 with the same scenario and settings: commits and aborts, a producer
 * fenced by a second of its transactional id, offsets sent to transactions, a transaction aborted after its timeout,
 * an InitProducerId with a timeout over the maximum, what read_committed and read_uncommitted consumers see, and what
 * the admin APIs and {@code kafka-transactions.sh} (list, describe, describe-producers, abort of an open transaction
 * by its start offset) say; every answer, exception types and tool output included (times aside), must be Kafka's.
 */
@ResourceLock(ReferenceKafka.BROKER_LOCK)
class TransactionsAgainstKafkaIT {
    private static final String KAFKA = "4.4.0";
    private static final String TOPIC = "orders";
    // Both brokers abort a timed-out transaction within half a second of its timeout; neither tiers (Krabka's default
    // remote tier would take a producer id of its own for its metadata topic, and the ids would differ).
    private static final Map<String, String> SETTINGS = Map.of(
            "transaction.abort.timed.out.transaction.cleanup.interval.ms",
            "500",
            "remote.log.storage.system.enable",
            "false");

    @TempDir
    Path dir;

    @Test
    void krabkaAnswersAsKafka() throws Exception {
        Map<String, String> kafka;
        try (ReferenceKafka reference = ReferenceKafka.start(KAFKA, dir.resolve("kafka"), SETTINGS)) {
            kafka = scenario(reference.bootstrapServers(), dir.resolve("kafka-tools"));
        }
        // The scenario reaches the broker: both failing alike would not be an answer.
        assertEquals("committed", kafka.get("t1 commit"), kafka.toString());
        assertEquals(
                "{committed=6, committed-by-the-second=6, committed-with-offsets=1, read to the end=1}",
                kafka.get("read_committed records"),
                kafka.toString());
        Map<String, String> krabka;
        try (KrabkaBroker broker = KrabkaBroker.start(dir.resolve("krabka"), SETTINGS)) {
            krabka = scenario(broker.bootstrapServers(), dir.resolve("krabka-tools"));
        }
        SideBySide.assertSameAnswers(kafka, krabka);
    }

    private static Map<String, String> scenario(String bootstrap, Path work) throws Exception {
        Map<String, String> answers = new LinkedHashMap<>();
        KafkaTools tools = new KafkaTools(work, KAFKA, List.of());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1), new NewTopic("input", 1, (short) 1)))
                    .all()
                    .get(1, TimeUnit.MINUTES);
            try (KafkaProducer<String, String> t1 = producer(bootstrap, "t1", Map.of())) {
                t1.initTransactions();
                t1.beginTransaction();
                send(t1, 6, "committed");
                answers.put("t1 commit", outcome(t1::commitTransaction, "committed"));
                t1.beginTransaction();
                send(t1, 3, "aborted");
                answers.put("t1 abort", outcome(t1::abortTransaction, "aborted"));
                t1.beginTransaction();
                send(t1, 1, "fenced-before");
                try (KafkaProducer<String, String> second = producer(bootstrap, "t1", Map.of())) {
                    second.initTransactions();
                    answers.put(
                            "fenced t1 sends",
                            outcome(
                                    () -> t1.send(new ProducerRecord<>(TOPIC, 0, "k", "late"))
                                            .get(),
                                    "sent"));
                    // The client completes the failed send's future before its transaction manager records the
                    // error, so the commit's message depends on which thread wins; its type does not.
                    answers.put("fenced t1 commits", outcomeType(t1::commitTransaction, "committed"));
                    second.beginTransaction();
                    send(second, 6, "committed-by-the-second");
                    answers.put("second commit", outcome(second::commitTransaction, "committed"));
                }
            }
            TopicPartition input = new TopicPartition("input", 0);
            try (KafkaProducer<String, String> t3 = producer(bootstrap, "t3", Map.of());
                    KafkaConsumer<String, String> member = member(bootstrap, "copiers")) {
                t3.initTransactions();
                t3.beginTransaction();
                t3.send(new ProducerRecord<>(TOPIC, 1, "k", "committed-with-offsets"));
                t3.sendOffsetsToTransaction(Map.of(input, new OffsetAndMetadata(10)), member.groupMetadata());
                t3.commitTransaction();
                answers.put("offset after a commit", committed(admin, "copiers", input));
                t3.beginTransaction();
                // Acknowledged before the abort: an abort drops the sends it finds still unsent.
                t3.send(new ProducerRecord<>(TOPIC, 1, "k", "aborted-with-offsets"))
                        .get();
                t3.sendOffsetsToTransaction(Map.of(input, new OffsetAndMetadata(20)), member.groupMetadata());
                t3.abortTransaction();
                answers.put("offset after an abort", committed(admin, "copiers", input));
            }
            try (KafkaProducer<String, String> tooLong =
                    producer(bootstrap, "too-long", Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "900001"))) {
                answers.put("a timeout over the maximum", outcome(tooLong::initTransactions, "initialized"));
            }
            // Abandoned with a transaction open: the coordinator aborts it after its timeout.
            KafkaProducer<String, String> abandoned =
                    producer(bootstrap, "abandoned", Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "1000"));
            abandoned.initTransactions();
            abandoned.beginTransaction();
            abandoned.send(new ProducerRecord<>(TOPIC, 2, "k", "abandoned")).get();
            abandoned.close(Duration.ZERO);
            answers.put("abandoned after its timeout", awaitState(admin, "abandoned", "CompleteAbort"));
            // Open, then aborted in the partition by its start offset, as an operator ends a hanging transaction.
            try (KafkaProducer<String, String> open = producer(bootstrap, "open", Map.of())) {
                open.initTransactions();
                open.beginTransaction();
                RecordMetadata start =
                        open.send(new ProducerRecord<>(TOPIC, 0, "k", "open")).get();
                answers.put("describe open", describe(admin, "open"));
                answers.put("describe-producers", describeProducers(admin, new TopicPartition(TOPIC, 0)));
                answers.put(
                        "tool describe-producers",
                        table(
                                tools,
                                bootstrap,
                                List.of("describe-producers", "--topic", TOPIC, "--partition", "0"),
                                4));
                ToolRun abort = transactions(
                        tools,
                        bootstrap,
                        List.of(
                                "abort",
                                "--topic",
                                TOPIC,
                                "--partition",
                                "0",
                                "--start-offset",
                                String.valueOf(start.offset())));
                answers.put(
                        "tool abort",
                        abort.exitCode() + " " + abort.out().strip()
                                + abort.err().strip());
                answers.put("producers after the abort", describeProducers(admin, new TopicPartition(TOPIC, 0)));
                answers.put("the open producer commits", outcome(open::commitTransaction, "committed"));
            }
            answers.put("describe t1", describe(admin, "t1"));
            answers.put("list", list(admin));
            answers.put("tool list", table(tools, bootstrap, List.of("list"), -1));
            answers.put("tool describe", table(tools, bootstrap, List.of("describe", "--transactional-id", "t1"), 6));
            answers.put("describe unknown", describe(admin, "nobody"));
        }
        answers.put("read_committed records", count(bootstrap, "read_committed"));
        answers.put("read_uncommitted records", count(bootstrap, "read_uncommitted"));
        return answers;
    }

    private static KafkaProducer<String, String> producer(
            String bootstrap, String transactionalId, Map<String, String> extra) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
        props.putAll(extra);
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    // A member of the group that never joins it: its metadata is the group id at no generation.
    private static KafkaConsumer<String, String> member(String bootstrap, String groupId) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }

    private static void send(KafkaProducer<String, String> producer, int records, String value) throws Exception {
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            sends.add(producer.send(new ProducerRecord<>(TOPIC, i % 3, "k" + i, value)));
        }
        for (Future<RecordMetadata> send : sends) {
            send.get();
        }
    }

    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    // What a step ends with: done, or its failure.
    private static String outcome(Step step, String done) {
        try {
            step.run();
            return done;
        } catch (Exception e) {
            return failure(e);
        }
    }

    private static String outcomeType(Step step, String done) {
        try {
            step.run();
            return done;
        } catch (Exception e) {
            return e.getClass().getSimpleName();
        }
    }

    // The type of the exception (of its cause, for a future's) and its message.
    private static String failure(Exception e) {
        Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }

    private static String committed(Admin admin, String group, TopicPartition partition) throws Exception {
        OffsetAndMetadata offset = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(1, TimeUnit.MINUTES)
                .get(partition);
        return offset == null ? "none" : String.valueOf(offset.offset());
    }

    private static String awaitState(Admin admin, String transactionalId, String state) throws Exception {
        // Not a measurement: the bound only keeps a coordinator that never aborts from hanging the build.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String described = describe(admin, transactionalId);
        while (!described.contains("state=" + state) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            described = describe(admin, transactionalId);
        }
        return described;
    }

    // A transaction's description without its start time, which differs from run to run.
    private static String describe(Admin admin, String transactionalId) {
        try {
            TransactionDescription d = admin.describeTransactions(List.of(transactionalId))
                    .description(transactionalId)
                    .get(1, TimeUnit.MINUTES);
            return "coordinator=" + d.coordinatorId() + " state=" + d.state() + " producerId=" + d.producerId()
                    + " epoch=" + d.producerEpoch() + " timeout=" + d.transactionTimeoutMs() + " started="
                    + d.transactionStartTimeMs().isPresent() + " partitions="
                    + d.topicPartitions().stream()
                            .map(TopicPartition::toString)
                            .sorted()
                            .toList();
        } catch (Exception e) {
            return failure(e);
        }
    }

    private static String describeProducers(Admin admin, TopicPartition partition) throws Exception {
        return admin
                .describeProducers(List.of(partition))
                .partitionResult(partition)
                .get(1, TimeUnit.MINUTES)
                .activeProducers()
                .stream()
                .sorted(Comparator.comparingLong(ProducerState::producerId))
                .map(p -> "id=" + p.producerId() + " epoch=" + p.producerEpoch() + " lastSequence="
                        + p.lastSequence() + " coordinatorEpoch=" + p.coordinatorEpoch() + " txnStart="
                        + p.currentTransactionStartOffset())
                .collect(Collectors.joining("; "));
    }

    private static String list(Admin admin) throws Exception {
        return admin.listTransactions().all().get(1, TimeUnit.MINUTES).stream()
                .map(t -> t.transactionalId() + ":" + t.producerId() + ":" + t.state())
                .sorted()
                .collect(Collectors.joining(", "));
    }

    private static ToolRun transactions(KafkaTools tools, String bootstrap, List<String> args) throws Exception {
        List<String> command =
                new ArrayList<>(List.of("org.apache.kafka.tools.TransactionsCommand", "--bootstrap-server", bootstrap));
        command.addAll(args);
        return tools.run("transactions-" + args.getFirst(), command, null);
    }

    // A table the tool prints, each row's cells sorted by row, without the column at timeColumn (a time), if any.
    private static String table(KafkaTools tools, String bootstrap, List<String> args, int timeColumn)
            throws Exception {
        ToolRun run = transactions(tools, bootstrap, args);
        assertTrue(run.exitCode() == 0, run.describe());
        return run.out()
                .strip()
                .lines()
                .map(line -> {
                    List<String> cells = new ArrayList<>(List.of(line.trim().split("\\s+")));
                    if (timeColumn >= 0 && timeColumn < cells.size()) {
                        cells.remove(timeColumn);
                        if (args.getFirst().equals("describe") && timeColumn < cells.size()) {
                            // describe prints the start time and then the duration.
                            cells.remove(timeColumn);
                        }
                    }
                    return String.join(" ", cells);
                })
                .sorted()
                .collect(Collectors.joining(" | "));
    }

    // The records a consumer of the isolation level reads, by value: which of the scenario's sends it sees.
    private static String count(String bootstrap, String isolation) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        Map<String, Integer> read = new TreeMap<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions =
                    List.of(new TopicPartition(TOPIC, 0), new TopicPartition(TOPIC, 1), new TopicPartition(TOPIC, 2));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline
                    && partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> read.merge(record.value(), 1, Integer::sum));
            }
            read.put("read to the end", partitions.stream().allMatch(p -> consumer.position(p) >= ends.get(p)) ? 1 : 0);
        }
        return read.toString();
    }
}
