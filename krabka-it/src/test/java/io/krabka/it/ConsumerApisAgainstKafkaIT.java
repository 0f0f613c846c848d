package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DeleteConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.LogTruncationException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderPartition;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopic;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopicCollection;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.OffsetsForLeaderEpochResponse;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The APIs consumers and their tools call beyond reading and committing, on Krabka against Kafka 4.4 with the same
 * scenario. OffsetDelete: {@code Admin.deleteConsumerGroupOffsets} on an unknown group, on a group consuming one of
 * the topics asked for (GROUP_SUBSCRIBED_TO_TOPIC), unknown topics and partitions, an Empty group, and
 * {@code kafka-consumer-groups.sh --delete-offsets}'s output. OffsetsForLeaderEpoch: its raw answers at every version
 * (the latest epoch, an unknown one, an empty partition, a current leader epoch ahead of the broker's, unknown
 * partitions), and a consumer validating a position: beyond the end of its epoch a truncation it reports, or
 * resets to the epoch's end; within it, read from.
 */
@ResourceLock(ReferenceKafka.BROKER_LOCK)
class ConsumerApisAgainstKafkaIT {
    private static final String KAFKA = "4.4.0";
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition ORDERS_1 = new TopicPartition("orders", 1);
    private static final TopicPartition AUDIT = new TopicPartition("audit", 0);
    private static final Duration BOUND = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void krabkaAnswersAsKafka() throws Exception {
        Map<String, String> kafka;
        try (ReferenceKafka reference = ReferenceKafka.start(KAFKA, dir.resolve("kafka"), Map.of())) {
            kafka = scenario(reference.bootstrapServers(), dir.resolve("kafka-tools"));
        }
        // The scenario reaches the brokers: both failing alike would not be an answer.
        assertEquals(
                "GroupSubscribedToTopicException: Deleting offsets of a topic is forbidden while the consumer group is"
                        + " actively subscribed to it.",
                kafka.get("while consuming: orders-0"),
                kafka.toString());
        assertEquals("LogTruncationException {orders-0=10}", kafka.get("beyond the epoch, no reset"), kafka.toString());
        assertEquals("10", kafka.get("beyond the epoch, reset earliest"), kafka.toString());
        assertEquals("0", kafka.get("tool exit"), kafka.toString());
        Map<String, String> krabka;
        try (KrabkaBroker broker =
                KrabkaBroker.start(dir.resolve("krabka"), Map.of("group.initial.rebalance.delay.ms", "0"))) {
            krabka = scenario(broker.bootstrapServers(), dir.resolve("krabka-tools"));
        }
        SideBySide.assertSameAnswers(kafka, krabka);
    }

    private static Map<String, String> scenario(String bootstrap, Path work) throws Exception {
        Map<String, String> answers = new LinkedHashMap<>();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic("orders", 2, (short) 1), new NewTopic("audit", 1, (short) 1)))
                    .all()
                    .get(1, TimeUnit.MINUTES);
            produce(bootstrap, 10);
            leaderEpochs(bootstrap, answers);
            offsetDeletes(bootstrap, admin, answers);
        }
        ToolRun tool = new KafkaTools(work, KAFKA, List.of())
                .run(
                        "delete-offsets",
                        List.of(
                                "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
                                "--bootstrap-server",
                                bootstrap,
                                "--group",
                                "g",
                                "--delete-offsets",
                                "--topic",
                                "orders:1",
                                "--topic",
                                "nowhere"),
                        null);
        answers.put("tool exit", String.valueOf(tool.exitCode()));
        answers.put("tool output", tool.out().strip());
        return answers;
    }

    private static void leaderEpochs(String bootstrap, Map<String, String> answers) throws Exception {
        try (KafkaWire wire = KafkaWire.connect(bootstrap)) {
            for (short version = ApiKeys.OFFSET_FOR_LEADER_EPOCH.oldestVersion();
                    version <= ApiKeys.OFFSET_FOR_LEADER_EPOCH.latestVersion(false);
                    version++) {
                OffsetForLeaderTopicCollection topics = new OffsetForLeaderTopicCollection();
                topics.add(new OffsetForLeaderTopic()
                        .setTopic("orders")
                        .setPartitions(List.of(
                                epoch(0, -1, 0),
                                epoch(0, 0, 0),
                                epoch(0, -1, 3),
                                epoch(0, 1, 0),
                                epoch(1, -1, 0),
                                epoch(9, -1, 0))));
                topics.add(new OffsetForLeaderTopic().setTopic("nowhere").setPartitions(List.of(epoch(0, -1, 0))));
                OffsetsForLeaderEpochResponse response = wire.call(
                        ApiKeys.OFFSET_FOR_LEADER_EPOCH,
                        version,
                        new OffsetForLeaderEpochRequestData().setReplicaId(-1).setTopics(topics),
                        OffsetsForLeaderEpochResponse.class,
                        BOUND);
                answers.put("OffsetsForLeaderEpoch v" + version, response.data().toString());
            }
        }
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap, null, "none")) {
            consumer.assign(List.of(ORDERS_0));
            consumer.seek(ORDERS_0, new OffsetAndMetadata(100, Optional.of(0), ""));
            String outcome;
            try {
                outcome = "read " + pollOne(consumer);
            } catch (LogTruncationException e) {
                Map<String, Long> divergent = new TreeMap<>();
                e.divergentOffsets().forEach((tp, offset) -> divergent.put(tp.toString(), offset.offset()));
                outcome = "LogTruncationException " + divergent;
            } catch (RuntimeException e) {
                outcome = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
            answers.put("beyond the epoch, no reset", outcome);
        }
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap, null, "earliest")) {
            consumer.assign(List.of(ORDERS_0));
            consumer.seek(ORDERS_0, new OffsetAndMetadata(100, Optional.of(0), ""));
            // The position stays where it was sought until the validation answers.
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (consumer.position(ORDERS_0, BOUND) == 100 && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(100));
            }
            answers.put("beyond the epoch, reset earliest", String.valueOf(consumer.position(ORDERS_0, BOUND)));
            consumer.seek(ORDERS_0, new OffsetAndMetadata(4, Optional.of(0), ""));
            answers.put("within the epoch", pollOne(consumer));
        }
    }

    private static void offsetDeletes(String bootstrap, Admin admin, Map<String, String> answers) throws Exception {
        answers.put("unknown group", outcome(admin.deleteConsumerGroupOffsets("nobody", Set.of(ORDERS_0)), ORDERS_0));
        admin.alterConsumerGroupOffsets(
                        "g",
                        Map.of(
                                ORDERS_0, new OffsetAndMetadata(3),
                                ORDERS_1, new OffsetAndMetadata(4),
                                AUDIT, new OffsetAndMetadata(5)))
                .all()
                .get(1, TimeUnit.MINUTES);
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap, "g", "earliest")) {
            consumer.subscribe(List.of("orders"));
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (consumer.assignment().size() < 2) {
                consumer.poll(Duration.ofMillis(100));
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the consumer never got its partitions");
                }
            }
            TopicPartition nowhere = new TopicPartition("nowhere", 0);
            TopicPartition beyond = new TopicPartition("orders", 7);
            DeleteConsumerGroupOffsetsResult result =
                    admin.deleteConsumerGroupOffsets("g", Set.of(ORDERS_0, AUDIT, nowhere, beyond));
            for (TopicPartition tp : List.of(ORDERS_0, AUDIT, nowhere, beyond)) {
                answers.put("while consuming: " + tp, outcome(result, tp));
            }
            answers.put("offsets while consuming", committed(admin));
        }
        answers.put(
                "group empty: orders-0", outcome(admin.deleteConsumerGroupOffsets("g", Set.of(ORDERS_0)), ORDERS_0));
        answers.put("offsets of the empty group", committed(admin));
    }

    private static String outcome(DeleteConsumerGroupOffsetsResult result, TopicPartition tp) {
        try {
            result.partitionResult(tp).get(1, TimeUnit.MINUTES);
            return "deleted";
        } catch (ExecutionException e) {
            return e.getCause().getClass().getSimpleName() + ": " + e.getCause().getMessage();
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static String committed(Admin admin) throws Exception {
        Map<String, Long> sorted = new TreeMap<>();
        admin.listConsumerGroupOffsets("g")
                .partitionsToOffsetAndMetadata()
                .get(1, TimeUnit.MINUTES)
                .forEach((tp, offset) -> sorted.put(tp.toString(), offset.offset()));
        return sorted.toString();
    }

    private static OffsetForLeaderPartition epoch(int partition, int currentLeaderEpoch, int leaderEpoch) {
        return new OffsetForLeaderPartition()
                .setPartition(partition)
                .setCurrentLeaderEpoch(currentLeaderEpoch)
                .setLeaderEpoch(leaderEpoch);
    }

    private static KafkaConsumer<String, String> consumer(String bootstrap, String group, String reset) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, reset);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        if (group != null) {
            props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }

    // The first value read; the bound only keeps a broker that serves nothing from hanging the build.
    private static String pollOne(KafkaConsumer<String, String> consumer) {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (System.nanoTime() < deadline) {
            ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(100));
            if (!records.isEmpty()) {
                return records.iterator().next().value();
            }
        }
        return "nothing read";
    }

    private static void produce(String bootstrap, int records) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>("orders", 0, "k" + i, "v" + i))
                        .get();
            }
        }
    }
}
