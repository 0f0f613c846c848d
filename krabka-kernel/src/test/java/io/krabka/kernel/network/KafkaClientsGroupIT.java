package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.group.GroupCoordinatorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DeleteConsumerGroupOffsetsResult;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.GroupSubscribedToTopicException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopicCollection;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Kafka 4.4's own Admin and KafkaConsumer (classic protocol) against the group handlers. */
@ExtendWith(NettyLeakCheck.class)
class KafkaClientsGroupIT {

    private static final String GROUP = "payments";
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition ORDERS_1 = new TopicPartition("orders", 1);
    private static final GroupCoordinatorConfig CONFIG =
            GroupCoordinatorConfig.DEFAULTS.withSessionTimeouts(100, 60_000, 50);

    @TempDir
    Path dataDir;

    private GroupBroker broker;
    private Admin admin;

    @BeforeEach
    void start() throws Exception {
        broker = GroupBroker.start(dataDir, CONFIG);
        CreatableTopicCollection topics = new CreatableTopicCollection();
        topics.add(new CreatableTopic().setName("orders").setNumPartitions(2).setReplicationFactor((short) 1));
        broker.controller
                .createTopics(new CreateTopicsRequestData().setTopics(topics))
                .join();
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
    }

    @AfterEach
    void stop() throws Exception {
        admin.close();
        broker.close();
    }

    private String bootstrap() {
        return broker.address().getHostString() + ":" + broker.address().getPort();
    }

    private KafkaConsumer<byte[], byte[]> consumer(String clientId) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 100);
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6_000);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return new KafkaConsumer<>(props);
    }

    private static void pollUntil(
            String what, List<KafkaConsumer<byte[], byte[]>> consumers, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up waiting for " + what);
            }
            consumers.forEach(consumer -> consumer.poll(Duration.ofMillis(50)));
        }
    }

    @Test
    void adminCommitsListsDescribesAndDeletesAGroup() throws Exception {
        admin.alterConsumerGroupOffsets(GROUP, Map.of(ORDERS_0, new OffsetAndMetadata(5, "checkpoint")))
                .all()
                .get();
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(GROUP)
                .partitionsToOffsetAndMetadata()
                .get();
        assertEquals(Map.of(ORDERS_0, new OffsetAndMetadata(5, "checkpoint")), offsets);

        assertTrue(admin.listGroups().all().get().stream()
                .anyMatch(g -> g.groupId().equals(GROUP) && g.groupState().orElseThrow() == GroupState.EMPTY));
        ConsumerGroupDescription described =
                admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP);
        assertEquals(GroupState.EMPTY, described.groupState());

        admin.deleteConsumerGroups(List.of(GROUP)).all().get();
        ExecutionException gone = assertThrows(
                ExecutionException.class,
                () -> admin.deleteConsumerGroups(List.of(GROUP)).all().get());
        assertInstanceOf(GroupIdNotFoundException.class, gone.getCause());
    }

    @Test
    void twoConsumersShareTheTopicAndCommitInTheirGeneration() throws Exception {
        // Positions come from committed offsets: no ListOffsets is needed.
        admin.alterConsumerGroupOffsets(
                        GROUP, Map.of(ORDERS_0, new OffsetAndMetadata(3), ORDERS_1, new OffsetAndMetadata(4)))
                .all()
                .get();
        try (KafkaConsumer<byte[], byte[]> first = consumer("first")) {
            first.subscribe(List.of("orders"));
            pollUntil(
                    "the first consumer to own both partitions",
                    List.of(first),
                    () -> first.assignment().size() == 2);
            assertEquals(3, first.position(ORDERS_0));

            KafkaConsumer<byte[], byte[]> second = consumer("second");
            try {
                second.subscribe(List.of("orders"));
                pollUntil(
                        "the partitions to be shared",
                        List.of(first, second),
                        () -> first.assignment().size() == 1
                                && second.assignment().size() == 1);
                TopicPartition mine = first.assignment().iterator().next();
                // The client fetches the committed offset of a new assignment in the background and answers a
                // committed() for the same partition from that fetch if it is still pending: let it finish first.
                assertEquals(mine.equals(ORDERS_0) ? 3 : 4, first.position(mine));
                first.commitSync(Map.of(mine, new OffsetAndMetadata(10)));
                assertEquals(10, first.committed(Set.of(mine)).get(mine).offset());

                ConsumerGroupDescription described =
                        admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP);
                assertEquals(GroupState.STABLE, described.groupState());
                assertEquals(2, described.members().size());
                ExecutionException busy = assertThrows(
                        ExecutionException.class,
                        () -> admin.deleteConsumerGroups(List.of(GROUP)).all().get());
                assertInstanceOf(GroupNotEmptyException.class, busy.getCause());
            } finally {
                // LeaveGroup: the first consumer takes both partitions back.
                second.close();
            }
            pollUntil(
                    "the first consumer to own both partitions again",
                    List.of(first),
                    () -> first.assignment().size() == 2);
        }
        assertEquals(
                GroupState.EMPTY,
                admin.describeConsumerGroups(List.of(GROUP))
                        .all()
                        .get()
                        .get(GROUP)
                        .groupState());
    }

    @Test
    void adminDeletesOffsetsOfTopicsTheGroupDoesNotConsume() throws Exception {
        CreatableTopicCollection topics = new CreatableTopicCollection();
        topics.add(new CreatableTopic().setName("audit").setNumPartitions(1).setReplicationFactor((short) 1));
        broker.controller
                .createTopics(new CreateTopicsRequestData().setTopics(topics))
                .join();
        TopicPartition audit = new TopicPartition("audit", 0);
        TopicPartition unknown = new TopicPartition("nowhere", 0);
        TopicPartition beyond = new TopicPartition("orders", 7);
        ExecutionException noGroup = assertThrows(
                ExecutionException.class,
                () -> admin.deleteConsumerGroupOffsets(GROUP, Set.of(ORDERS_0))
                        .all()
                        .get());
        assertInstanceOf(GroupIdNotFoundException.class, noGroup.getCause());

        admin.alterConsumerGroupOffsets(
                        GROUP,
                        Map.of(
                                ORDERS_0,
                                new OffsetAndMetadata(3),
                                ORDERS_1,
                                new OffsetAndMetadata(4),
                                audit,
                                new OffsetAndMetadata(5)))
                .all()
                .get();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("only")) {
            consumer.subscribe(List.of("orders"));
            pollUntil(
                    "the consumer to own both partitions",
                    List.of(consumer),
                    () -> consumer.assignment().size() == 2);
            DeleteConsumerGroupOffsetsResult whileConsuming =
                    admin.deleteConsumerGroupOffsets(GROUP, Set.of(ORDERS_0, audit, unknown, beyond));
            ExecutionException subscribed = assertThrows(
                    ExecutionException.class,
                    () -> whileConsuming.partitionResult(ORDERS_0).get());
            assertInstanceOf(GroupSubscribedToTopicException.class, subscribed.getCause());
            whileConsuming.partitionResult(audit).get();
            assertInstanceOf(
                    UnknownTopicOrPartitionException.class,
                    assertThrows(
                                    ExecutionException.class,
                                    () -> whileConsuming
                                            .partitionResult(unknown)
                                            .get())
                            .getCause());
            assertInstanceOf(
                    UnknownTopicOrPartitionException.class,
                    assertThrows(
                                    ExecutionException.class,
                                    () -> whileConsuming.partitionResult(beyond).get())
                            .getCause());
            assertEquals(
                    Map.of(ORDERS_0, new OffsetAndMetadata(3), ORDERS_1, new OffsetAndMetadata(4)),
                    admin.listConsumerGroupOffsets(GROUP)
                            .partitionsToOffsetAndMetadata()
                            .get(),
                    "the offsets of the topic consumed stay, the other topic's are gone");
        }
        // Once the group is empty, its topics' offsets can go too.
        admin.deleteConsumerGroupOffsets(GROUP, Set.of(ORDERS_0)).all().get();
        assertEquals(
                Map.of(ORDERS_1, new OffsetAndMetadata(4)),
                admin.listConsumerGroupOffsets(GROUP)
                        .partitionsToOffsetAndMetadata()
                        .get());

        // The tombstones are in the log: a restart loads the group without the deleted offsets.
        admin.close();
        broker.close();
        broker = GroupBroker.start(dataDir, CONFIG);
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
        assertEquals(
                Map.of(ORDERS_1, new OffsetAndMetadata(4)),
                admin.listConsumerGroupOffsets(GROUP)
                        .partitionsToOffsetAndMetadata()
                        .get());
    }
}
