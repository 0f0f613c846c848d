package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Krabka broker process killed with SIGKILL again and again while a transactional producer commits and aborts, and
 * while other producers leave transactions open: after each restart the producer takes its transactional id again and
 * goes on. Then no committed record is lost or duplicated, no aborted record is visible to read_committed, a
 * transaction whose end the producer never learnt is there whole or not at all, and no transaction is left open (the
 * last stable offset of every partition reaches its end). Two rounds in the suite; a soak with
 * {@code -Dkrabka.txncrash.rounds=20}.
 */
class TransactionsCrashIT {

    private static final String TOPIC = "ledger";
    private static final int PARTITIONS = 3;
    private static final int RECORDS_PER_TRANSACTION = 9;
    // The coordinator aborts an abandoned transaction within half a second of its timeout.
    private static final Map<String, String> SETTINGS =
            Map.of("transaction.abort.timed.out.transaction.cleanup.interval.ms", "500");
    private static final int ORPHAN_TIMEOUT_MS = 3_000;

    private enum Outcome {
        COMMITTED,
        ABORTED,
        UNKNOWN
    }

    @TempDir
    Path dir;

    @Test
    void noCommittedRecordIsLostNoAbortedOneSeenAndNoTransactionLeftOpen() throws Exception {
        int rounds = Integer.getInteger("krabka.txncrash.rounds", 2);
        Random random = new Random(Long.getLong("krabka.txncrash.seed", System.nanoTime()));
        try (KrabkaBroker broker = KrabkaBroker.start(dir.resolve("krabka"), SETTINGS)) {
            String bootstrap = broker.bootstrapServers();
            try (Admin admin = admin(bootstrap)) {
                admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1)))
                        .all()
                        .get(1, TimeUnit.MINUTES);
            }
            Map<Integer, Outcome> outcomes = new ConcurrentHashMap<>();
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService writer = Executors.newSingleThreadExecutor();
            Future<?> writing = writer.submit(() -> write(bootstrap, outcomes, stop));
            List<KafkaProducer<String, String>> orphans = new ArrayList<>();
            try {
                for (int round = 0; round < rounds; round++) {
                    orphans.add(openTransaction(bootstrap, "orphan-" + round));
                    Thread.sleep(1_000 + random.nextInt(2_000));
                    broker.kill();
                    broker.start();
                }
                // The producer goes on after the last restart before it stops.
                int seen = outcomes.size();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (outcomes.size() < seen + 3 && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
            } finally {
                stop.set(true);
                writing.get(2, TimeUnit.MINUTES);
                writer.shutdown();
                orphans.forEach(orphan -> orphan.close(Duration.ZERO));
            }
            assertTrue(
                    outcomes.values().stream()
                                    .filter(o -> o == Outcome.COMMITTED)
                                    .count()
                            >= 3,
                    "the producer committed after the restarts: " + outcomes);

            awaitNoTransactionOpen(bootstrap);
            Map<Integer, List<String>> read = readCommitted(bootstrap);
            List<String> wrong = new ArrayList<>();
            outcomes.forEach((transaction, outcome) -> {
                int found = read.getOrDefault(transaction, List.of()).size();
                boolean right = switch (outcome) {
                    case COMMITTED -> found == RECORDS_PER_TRANSACTION;
                    case ABORTED -> found == 0;
                    case UNKNOWN -> found == 0 || found == RECORDS_PER_TRANSACTION;
                };
                if (!right) {
                    wrong.add("transaction " + transaction + " " + outcome + ": " + found + " records read");
                }
            });
            read.keySet().stream()
                    .filter(transaction -> !outcomes.containsKey(transaction))
                    .forEach(transaction -> wrong.add("transaction " + transaction + " was never sent"));
            assertEquals(List.of(), wrong);
            System.out.println("TransactionsCrashIT: " + rounds + " kills, transactions "
                    + outcomes.values().stream()
                            .collect(Collectors.groupingBy(outcome -> outcome, Collectors.counting())));
            for (List<String> records : read.values()) {
                assertEquals(Set.copyOf(records).size(), records.size(), "no record twice: " + records);
            }
        }
    }

    // Transactions of 9 records, one in four aborted; after a failure the producer starts again, which fences and
    // aborts whatever its transactional id left open.
    private static void write(String bootstrap, Map<Integer, Outcome> outcomes, AtomicBoolean stop) {
        int transaction = 0;
        while (!stop.get()) {
            try (KafkaProducer<String, String> producer = producer(bootstrap, "writer", 60_000)) {
                producer.initTransactions();
                while (!stop.get()) {
                    int current = transaction++;
                    outcomes.put(current, Outcome.UNKNOWN);
                    producer.beginTransaction();
                    for (int i = 0; i < RECORDS_PER_TRANSACTION; i++) {
                        producer.send(new ProducerRecord<>(TOPIC, i % PARTITIONS, null, current + "-" + i));
                    }
                    if (current % 4 == 3) {
                        producer.abortTransaction();
                        outcomes.put(current, Outcome.ABORTED);
                    } else {
                        producer.commitTransaction();
                        outcomes.put(current, Outcome.COMMITTED);
                    }
                }
            } catch (RuntimeException e) {
                // The broker was killed: a new producer takes the transactional id once it is back.
            }
        }
    }

    // A producer that begins a transaction and is then forgotten: the coordinator must abort it.
    private static KafkaProducer<String, String> openTransaction(String bootstrap, String transactionalId)
            throws Exception {
        KafkaProducer<String, String> producer = producer(bootstrap, transactionalId, ORPHAN_TIMEOUT_MS);
        producer.initTransactions();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(TOPIC, 0, null, "orphan")).get();
        return producer;
    }

    private static KafkaProducer<String, String> producer(String bootstrap, String transactionalId, int timeoutMs) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, String.valueOf(timeoutMs));
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "60000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    // Every record read_committed, by the transaction that wrote it; the orphans' records are never committed.
    private static Map<Integer, List<String>> readCommitted(String bootstrap) throws Exception {
        Map<Integer, List<String>> read = new HashMap<>();
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap)) {
            List<TopicPartition> partitions = partitions();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                assertTrue(System.nanoTime() < deadline, "read to the end");
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    assertTrue(!record.value().equals("orphan"), "an orphan's record is never committed");
                    int transaction = Integer.parseInt(
                            record.value().substring(0, record.value().indexOf('-')));
                    read.computeIfAbsent(transaction, t -> new ArrayList<>()).add(record.value());
                }
            }
        }
        return read;
    }

    // Waits until no transaction is open: none listed as such, every partition's last stable offset at its end.
    private static void awaitNoTransactionOpen(String bootstrap) throws Exception {
        Map<TopicPartition, Long> uncommittedEnds;
        Map<TopicPartition, Long> stableEnds;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (Admin admin = admin(bootstrap)) {
            while (true) {
                try (KafkaConsumer<String, String> committed = consumer(bootstrap);
                        KafkaConsumer<String, String> uncommitted = uncommittedConsumer(bootstrap)) {
                    stableEnds = committed.endOffsets(partitions());
                    uncommittedEnds = uncommitted.endOffsets(partitions());
                }
                List<String> open = admin.listTransactions().all().get(1, TimeUnit.MINUTES).stream()
                        .filter(t -> t.state() == TransactionState.ONGOING
                                || t.state() == TransactionState.PREPARE_COMMIT
                                || t.state() == TransactionState.PREPARE_ABORT)
                        .map(TransactionListing::transactionalId)
                        .collect(Collectors.toList());
                if (stableEnds.equals(uncommittedEnds) && open.isEmpty()) {
                    return;
                }
                assertTrue(
                        System.nanoTime() < deadline,
                        "transactions left open: " + open + ", last stable offsets " + stableEnds + " below the ends "
                                + uncommittedEnds);
                Thread.sleep(200);
            }
        }
    }

    private static KafkaConsumer<String, String> consumer(String bootstrap) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }

    private static KafkaConsumer<String, String> uncommittedConsumer(String bootstrap) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }

    private static List<TopicPartition> partitions() {
        List<TopicPartition> partitions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            partitions.add(new TopicPartition(TOPIC, p));
        }
        return partitions;
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }
}
