package io.krabka.kernel.broker;

import static io.krabka.kernel.broker.DataRequests.call;
import static io.krabka.kernel.broker.DataRequests.produce;
import static io.krabka.kernel.broker.DataRequests.records;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.kernel.network.KafkaWire;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.LogTruncationException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderPartition;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopic;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopicCollection;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData.EpochEndOffset;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.OffsetsForLeaderEpochResponse;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * OffsetsForLeaderEpoch over the wire at every version Kafka 4.4 supports, across leader epochs: the end of each
 * epoch is where the next one starts; the latest one ends at the log end; an epoch without records is no epoch; an
 * epoch below every known one ends where the first starts (its records are gone); the request's current leader epoch
 * is checked. And kafka-clients' consumer validating a position with an epoch: one beyond the end of its epoch is a
 * truncation it detects.
 */
class OffsetForLeaderEpochIT {

    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);

    @RegisterExtension
    final DataPlane plane = DataPlane.perTest("orders", 2, Map.of());

    @Test
    void eachEpochEndsWhereTheNextOneStarts() throws Exception {
        try (KafkaWire wire = plane.connect()) {
            append(wire, 3);
            plane.bumpLeaderEpoch("orders");
            append(wire, 2);
            // Epoch 2 takes no record: epoch 3 starts at the same offset and replaces it.
            plane.bumpLeaderEpoch("orders");
            plane.bumpLeaderEpoch("orders");
            append(wire, 1);
            for (short version = ApiKeys.OFFSET_FOR_LEADER_EPOCH.oldestVersion();
                    version <= ApiKeys.OFFSET_FOR_LEADER_EPOCH.latestVersion(false);
                    version++) {
                List<EpochEndOffset> answers = ask(
                        wire,
                        version,
                        "orders",
                        partition(0, -1, 0),
                        partition(0, -1, 1),
                        partition(0, -1, 2),
                        partition(0, 3, 3),
                        partition(0, -1, 7),
                        partition(1, -1, 0),
                        partition(0, 2, 3),
                        partition(0, 4, 3),
                        partition(5, -1, 0));
                String at = "at v" + version;
                assertAnswer(Errors.NONE, 0, 3, answers.get(0), at);
                assertAnswer(Errors.NONE, 1, 5, answers.get(1), at);
                assertAnswer(Errors.NONE, 1, 5, answers.get(2), at + ": the epoch below one unknown");
                assertAnswer(Errors.NONE, 3, 6, answers.get(3), at + ": the latest epoch ends at the log end");
                assertAnswer(Errors.NONE, -1, -1, answers.get(4), at + ": an epoch above the latest is unknown");
                assertAnswer(
                        Errors.NONE,
                        0,
                        0,
                        answers.get(5),
                        at + ": an epoch below every one an empty partition knows ends where the first starts");
                assertAnswer(Errors.FENCED_LEADER_EPOCH, -1, -1, answers.get(6), at);
                assertAnswer(Errors.UNKNOWN_LEADER_EPOCH, -1, -1, answers.get(7), at);
                assertAnswer(Errors.UNKNOWN_TOPIC_OR_PARTITION, -1, -1, answers.get(8), at);
            }
            assertAnswer(
                    Errors.UNKNOWN_TOPIC_OR_PARTITION,
                    -1,
                    -1,
                    ask(wire, (short) 4, "nowhere", partition(0, -1, 0)).getFirst(),
                    "an unknown topic");
        }
    }

    @Test
    void aConsumerDetectsAPositionBeyondTheEndOfItsEpoch() throws Exception {
        try (KafkaWire wire = plane.connect()) {
            append(wire, 10);
        }
        try (KafkaConsumer<String, String> consumer = consumer("none")) {
            consumer.assign(List.of(ORDERS));
            consumer.seek(ORDERS, new OffsetAndMetadata(100, Optional.of(0), ""));
            LogTruncationException truncation = assertInstanceOf(
                    LogTruncationException.class,
                    assertThrows(LogTruncationException.class, () -> pollFor(consumer, Duration.ofSeconds(30))));
            assertEquals(Map.of(ORDERS, new OffsetAndMetadata(10, Optional.of(0), "")), truncation.divergentOffsets());
        }
        try (KafkaConsumer<String, String> consumer = consumer("earliest")) {
            consumer.assign(List.of(ORDERS));
            consumer.seek(ORDERS, new OffsetAndMetadata(100, Optional.of(0), ""));
            // With a reset policy the consumer goes back to where the epoch ended, not to the log start.
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (consumer.position(ORDERS, Duration.ofSeconds(1)) != 10) {
                consumer.poll(Duration.ofMillis(50));
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the consumer never validated its position");
                }
            }
            // A position within its epoch is valid: the consumer reads on from it.
            consumer.seek(ORDERS, new OffsetAndMetadata(4, Optional.of(0), ""));
            assertEquals("v4", pollFor(consumer, Duration.ofSeconds(30)));
        }
    }

    private KafkaConsumer<String, String> consumer(String reset) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, plane.bootstrap());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, reset);
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }

    // The first value read; the bound only keeps a broker that serves nothing from hanging the build.
    private static String pollFor(KafkaConsumer<String, String> consumer, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline) {
            var records = consumer.poll(Duration.ofMillis(100));
            if (!records.isEmpty()) {
                return records.iterator().next().value();
            }
        }
        throw new AssertionError("nothing read in " + bound);
    }

    private static void append(KafkaWire wire, int count) throws Exception {
        String[] values = new String[count];
        for (int i = 0; i < count; i++) {
            values[i] = "v" + i;
        }
        assertEquals(
                Errors.NONE.code(),
                call(wire, (short) 11, produce((short) 1, "orders", 0, records(values)))
                        .data()
                        .responses()
                        .iterator()
                        .next()
                        .partitionResponses()
                        .getFirst()
                        .errorCode());
    }

    private static OffsetForLeaderPartition partition(int partition, int currentLeaderEpoch, int leaderEpoch) {
        return new OffsetForLeaderPartition()
                .setPartition(partition)
                .setCurrentLeaderEpoch(currentLeaderEpoch)
                .setLeaderEpoch(leaderEpoch);
    }

    private static List<EpochEndOffset> ask(
            KafkaWire wire, short version, String topic, OffsetForLeaderPartition... partitions) throws Exception {
        OffsetForLeaderTopicCollection topics = new OffsetForLeaderTopicCollection();
        topics.add(new OffsetForLeaderTopic().setTopic(topic).setPartitions(List.of(partitions)));
        OffsetsForLeaderEpochResponse response = call(
                wire,
                ApiKeys.OFFSET_FOR_LEADER_EPOCH,
                version,
                new OffsetForLeaderEpochRequestData().setReplicaId(-1).setTopics(topics),
                OffsetsForLeaderEpochResponse.class);
        return response.data().topics().find(topic).partitions();
    }

    private static void assertAnswer(Errors error, int epoch, long endOffset, EpochEndOffset answer, String what) {
        assertEquals(error.code(), answer.errorCode(), what);
        assertEquals(epoch, answer.leaderEpoch(), what);
        assertEquals(endOffset, answer.endOffset(), what);
    }
}
