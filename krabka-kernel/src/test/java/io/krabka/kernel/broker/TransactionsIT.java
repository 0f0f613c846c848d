package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kafka-clients' transactional producer against the whole broker: commits and aborts across partitions, seen by
 * read_committed and read_uncommitted consumers as each must; a second producer of the transactional id fences the
 * first; offsets sent to a transaction are committed with it or not at all; transactions and their offsets survive a
 * restart of the broker. Each at transaction version 2 (the client adds nothing, the partition leaders add the
 * partitions, every transaction bumps the epoch) and at version 0 (AddPartitionsToTxn and AddOffsetsToTxn from the
 * client, the leaders verify, KIP-890 part 1), as a cluster formatted with {@code --feature transaction.version=0}
 * makes Kafka's client speak.
 */
class TransactionsIT {

    private static final String TOPIC = "orders";

    @Nested
    class AtTransactionVersion2 extends Scenarios {
        @RegisterExtension
        final InProcessBroker broker = InProcessBroker.perTest(Map.of());

        @Override
        InProcessBroker broker() {
            return broker;
        }
    }

    @Nested
    class AtTransactionVersion0 extends Scenarios {
        @RegisterExtension
        final InProcessBroker broker = InProcessBroker.perTest(Map.of(), List.of("transaction.version=0"));

        @Override
        InProcessBroker broker() {
            return broker;
        }
    }

    abstract static class Scenarios {

        abstract InProcessBroker broker();

        @Test
        void committedRecordsAreReadCommittedAndAbortedOnesOnlyUncommitted() throws Exception {
            createTopic(TOPIC, 3);
            try (KafkaProducer<String, String> producer = producer("orders-writer")) {
                producer.initTransactions();
                producer.beginTransaction();
                for (int i = 0; i < 30; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, i % 3, "k" + i, "committed-" + i));
                }
                producer.commitTransaction();
                producer.beginTransaction();
                for (int i = 0; i < 30; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, i % 3, "k" + i, "aborted-" + i));
                }
                producer.flush();
                producer.abortTransaction();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(TOPIC, 0, "last", "committed-last"));
                producer.commitTransaction();
            }
            List<String> committed = values(consumeAll("read_committed", 31));
            assertEquals(31, committed.size());
            assertTrue(committed.stream().allMatch(v -> v.startsWith("committed-")), committed.toString());
            List<String> uncommitted = values(consumeAll("read_uncommitted", 61));
            assertEquals(61, uncommitted.size(), "every data record, markers aside");
            assertEquals(
                    30,
                    uncommitted.stream().filter(v -> v.startsWith("aborted-")).count());
        }

        @Test
        void aSecondProducerOfTheTransactionalIdFencesTheFirst() throws Exception {
            createTopic(TOPIC, 1);
            try (KafkaProducer<String, String> first = producer("fenced");
                    KafkaProducer<String, String> second = producer("fenced")) {
                first.initTransactions();
                first.beginTransaction();
                first.send(new ProducerRecord<>(TOPIC, "a", "from-the-first")).get();
                second.initTransactions();
                // The first's transaction was aborted with a bumped epoch: its next batch is refused as of an old
                // epoch.
                ExecutionException fenced = assertThrows(
                        ExecutionException.class,
                        () -> first.send(new ProducerRecord<>(TOPIC, "b", "late"))
                                .get());
                assertInstanceOf(InvalidProducerEpochException.class, fenced.getCause());
                assertThrows(KafkaException.class, first::commitTransaction);
                second.beginTransaction();
                second.send(new ProducerRecord<>(TOPIC, "c", "from-the-second"));
                second.commitTransaction();
            }
            assertEquals(List.of("from-the-second"), values(consumeAll("read_committed", 1)));
        }

        @Test
        void offsetsSentToATransactionCommitWithItAndSurviveARestart() throws Exception {
            createTopic("input", 1);
            createTopic(TOPIC, 1);
            TopicPartition input = new TopicPartition("input", 0);
            try (KafkaProducer<String, String> producer = producer("copier");
                    KafkaConsumer<String, String> copiers = groupMember("copiers")) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(TOPIC, "x", "out-1"));
                producer.sendOffsetsToTransaction(Map.of(input, new OffsetAndMetadata(10)), copiers.groupMetadata());
                producer.commitTransaction();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(TOPIC, "y", "out-2"));
                producer.sendOffsetsToTransaction(Map.of(input, new OffsetAndMetadata(20)), copiers.groupMetadata());
                producer.abortTransaction();
            }
            assertEquals(10, committedOffset("copiers", input));
            broker().restart();
            assertEquals(10, committedOffset("copiers", input), "after a restart");
            assertEquals(List.of("out-1"), values(consumeAll("read_committed", 1)));
            try (Admin admin = admin()) {
                TransactionDescription description = admin.describeTransactions(List.of("copier"))
                        .description("copier")
                        .get(1, TimeUnit.MINUTES);
                assertEquals(TransactionState.COMPLETE_ABORT, description.state());
                List<String> listed = admin.listTransactions().all().get(1, TimeUnit.MINUTES).stream()
                        .map(TransactionListing::transactionalId)
                        .toList();
                assertEquals(List.of("copier"), listed);
            }
        }

        private KafkaProducer<String, String> producer(String transactionalId) {
            Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrap());
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
            props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "60000");
            return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
        }

        // A consumer of the group that never joins it: its group metadata is the group id at no generation.
        private KafkaConsumer<String, String> groupMember(String groupId) {
            Properties props = new Properties();
            props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrap());
            props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
            return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
        }

        private List<ConsumerRecord<String, String>> consumeAll(String isolation, int expected) {
            Properties props = new Properties();
            props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrap());
            props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
            props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            List<ConsumerRecord<String, String>> read = new ArrayList<>();
            try (KafkaConsumer<String, String> consumer =
                    new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
                List<TopicPartition> partitions = consumer.partitionsFor(TOPIC).stream()
                        .map(info -> new TopicPartition(TOPIC, info.partition()))
                        .toList();
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                // Not a measurement: the bound only keeps a broker that serves nothing from hanging the build.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (System.nanoTime() < deadline) {
                    consumer.poll(Duration.ofMillis(200)).forEach(read::add);
                    boolean atEnd = consumer.endOffsets(partitions).entrySet().stream()
                            .allMatch(end -> consumer.position(end.getKey()) >= end.getValue());
                    if (read.size() >= expected && atEnd) {
                        break;
                    }
                }
            }
            return read;
        }

        private static List<String> values(List<ConsumerRecord<String, String>> records) {
            return records.stream().map(ConsumerRecord::value).toList();
        }

        private long committedOffset(String group, TopicPartition partition) throws Exception {
            try (Admin admin = admin()) {
                return admin.listConsumerGroupOffsets(group)
                        .partitionsToOffsetAndMetadata()
                        .get(1, TimeUnit.MINUTES)
                        .get(partition)
                        .offset();
            }
        }

        private void createTopic(String name, int partitions) throws Exception {
            try (Admin admin = admin()) {
                admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1)))
                        .all()
                        .get(1, TimeUnit.MINUTES);
            }
        }

        private Admin admin() {
            return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrap()));
        }
    }
}
