package io.krabka.kernel.broker;

import static io.krabka.kernel.broker.DataRequests.call;
import static io.krabka.kernel.broker.DataRequests.idempotent;
import static io.krabka.kernel.broker.DataRequests.produce;
import static io.krabka.kernel.broker.DataRequests.records;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.metadata.WireUuids;
import io.krabka.kernel.network.KafkaWire;
import io.krabka.spi.common.TopicPartition;
import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Produce over TCP: acks, Kafka's per-partition errors with nothing appended, idempotence across restarts. */
class ProduceIT {

    private static final short V12 = 12;

    @RegisterExtension
    final DataPlane plane = DataPlane.perTest("orders", 2, Map.of());

    private UnifiedLog log(String topic, int partition) {
        return plane.replicaManager
                .partition(new TopicPartition(topic, partition))
                .orElseThrow()
                .log();
    }

    private static ProduceResponseData.PartitionProduceResponse only(
            org.apache.kafka.common.requests.ProduceResponse response) {
        assertEquals(1, response.data().responses().size());
        ProduceResponseData.TopicProduceResponse topic =
                response.data().responses().iterator().next();
        assertEquals(1, topic.partitionResponses().size());
        return topic.partitionResponses().get(0);
    }

    private ProduceResponseData.PartitionProduceResponse produceTo(
            KafkaWire wire, short acks, String topic, int partition, MemoryRecords records) throws Exception {
        return only(call(wire, V12, produce(acks, topic, partition, records)));
    }

    @ParameterizedTest
    @ValueSource(shorts = {1, -1})
    void acksOneAndAllAnswerOnceAppendedAndTheHighWatermarkFollows(short acks) throws Exception {
        try (KafkaWire wire = plane.connect()) {
            ProduceResponseData.PartitionProduceResponse first = produceTo(wire, acks, "orders", 1, records("a", "b"));
            assertEquals(Errors.NONE.code(), first.errorCode());
            assertEquals(0, first.baseOffset());
            ProduceResponseData.PartitionProduceResponse second = produceTo(wire, acks, "orders", 1, records("c"));
            assertEquals(2, second.baseOffset());
            assertEquals(0, second.logStartOffset());
            assertEquals(-1, second.logAppendTimeMs());
        }
        assertEquals(3, log("orders", 1).logEndOffset());
        assertEquals(3, log("orders", 1).highWatermark());
        assertEquals(0, log("orders", 0).logEndOffset());
    }

    @Test
    void acksZeroIsNotAnsweredAndAFailureClosesTheConnection() throws Exception {
        try (KafkaWire wire = plane.connect()) {
            DataRequests.send(wire, ApiKeys.PRODUCE, V12, produce((short) 0, "orders", 0, records("a")));
            // The next response on the connection is the next request's: the acks=0 produce had none.
            assertEquals(
                    Errors.NONE.code(),
                    produceTo(wire, (short) 1, "orders", 0, records("b")).errorCode());
            assertEquals(2, log("orders", 0).logEndOffset());
            DataRequests.send(wire, ApiKeys.PRODUCE, V12, produce((short) 0, "missing", 0, records("c")));
            assertTrue(wire.closedByServer());
        }
        assertEquals(2, log("orders", 0).logEndOffset());
    }

    @Test
    void invalidAcksFailEveryPartition() throws Exception {
        try (KafkaWire wire = plane.connect()) {
            assertEquals(
                    Errors.INVALID_REQUIRED_ACKS.code(),
                    produceTo(wire, (short) 2, "orders", 0, records("a")).errorCode());
        }
        assertEquals(0, log("orders", 0).logEndOffset());
    }

    @Test
    void unknownTopicsAndPartitionsAndTopicIds() throws Exception {
        try (KafkaWire wire = plane.connect()) {
            assertEquals(
                    Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                    produceTo(wire, (short) 1, "missing", 0, records("a")).errorCode());
            assertEquals(
                    Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                    produceTo(wire, (short) 1, "orders", 2, records("a")).errorCode());
            assertEquals(
                    Errors.UNKNOWN_TOPIC_ID.code(),
                    only(call(wire, (short) 13, produce((short) 1, "", Uuid.randomUuid(), 0, records("a"))))
                            .errorCode());
            ProduceResponseData.PartitionProduceResponse byId = only(call(
                    wire,
                    (short) 13,
                    produce((short) 1, "", WireUuids.toWire(plane.topicId("orders")), 0, records("a"))));
            assertEquals(Errors.NONE.code(), byId.errorCode());
        }
        assertEquals(1, log("orders", 0).logEndOffset());
    }

    @Test
    void everyStableVersionAppends() throws Exception {
        try (KafkaWire wire = plane.connect()) {
            for (short version = ApiKeys.PRODUCE.oldestVersion();
                    version <= ApiKeys.PRODUCE.latestVersion(false);
                    version++) {
                ProduceResponseData.PartitionProduceResponse response = only(call(
                        wire,
                        version,
                        version >= 13
                                ? produce(
                                        (short) -1,
                                        "",
                                        WireUuids.toWire(plane.topicId("orders")),
                                        0,
                                        records("v" + version))
                                : produce((short) -1, "orders", 0, records("v" + version))));
                assertEquals(Errors.NONE.code(), response.errorCode(), "v" + version);
                assertEquals(version - ApiKeys.PRODUCE.oldestVersion(), response.baseOffset(), "v" + version);
                ProduceResponseData.PartitionProduceResponse failed = only(call(
                        wire,
                        version,
                        version >= 13
                                ? produce((short) -1, "", Uuid.randomUuid(), 0, records("lost"))
                                : produce((short) -1, "missing", 0, records("lost"))));
                assertEquals(
                        (version >= 13 ? Errors.UNKNOWN_TOPIC_ID : Errors.UNKNOWN_TOPIC_OR_PARTITION).code(),
                        failed.errorCode(),
                        "v" + version);
                assertEquals(-1, failed.baseOffset());
            }
        }
    }

    @Test
    void zstdNeedsVersionSeven() throws Exception {
        MemoryRecords zstd = MemoryRecords.withRecords(
                org.apache.kafka.common.compress.Compression.zstd().build(),
                new org.apache.kafka.common.record.internal.SimpleRecord("z".getBytes()));
        try (KafkaWire wire = plane.connect()) {
            assertEquals(
                    Errors.UNSUPPORTED_COMPRESSION_TYPE.code(),
                    only(call(wire, (short) 6, produce((short) 1, "orders", 0, zstd)))
                            .errorCode());
            assertEquals(0, log("orders", 0).logEndOffset());
            assertEquals(
                    Errors.NONE.code(),
                    only(call(wire, (short) 7, produce((short) 1, "orders", 0, zstd)))
                            .errorCode());
        }
        assertEquals(1, log("orders", 0).logEndOffset());
    }

    @Test
    void clientsMayNotWriteToInternalTopics() throws Exception {
        plane.createTopic("__consumer_offsets", 1, Map.of());
        try (KafkaWire wire = plane.connect()) {
            assertEquals(
                    Errors.INVALID_TOPIC_EXCEPTION.code(),
                    produceTo(wire, (short) -1, "__consumer_offsets", 0, records("a"))
                            .errorCode());
        }
        assertEquals(0, log("__consumer_offsets", 0).logEndOffset());
    }

    /**
     * As Kafka 4.4's {@code Partition.effectiveMinIsr}: a partition asks for no more in-sync replicas than it has, so
     * on one node acks=all succeeds whatever {@code min.insync.replicas} says (Kafka 4.3's metadata manager creates
     * {@code __remote_log_metadata} with 2 on a single node and writes to it with acks=all).
     */
    @Test
    void acksAllAsksForNoMoreInSyncReplicasThanThePartitionHas() throws Exception {
        plane.createTopic("guarded", 1, Map.of("min.insync.replicas", "2"));
        try (KafkaWire wire = plane.connect()) {
            assertEquals(
                    Errors.NONE.code(),
                    produceTo(wire, (short) -1, "guarded", 0, records("a")).errorCode());
            assertEquals(
                    Errors.NONE.code(),
                    produceTo(wire, (short) 1, "guarded", 0, records("b")).errorCode());
        }
        assertEquals(2, log("guarded", 0).logEndOffset());
    }

    @Test
    void corruptAndInvalidBatchesAreRejectedWithKafkasErrorsAndNothingAppended() throws Exception {
        plane.createTopic("small", 1, Map.of("max.message.bytes", "200"));
        plane.createTopic("tiny-segments", 1, Map.of("internal.segment.bytes", "600"));
        try (KafkaWire wire = plane.connect()) {
            MemoryRecords good = records("a", "b");
            ByteBuffer flipped = ByteBuffer.allocate(good.sizeInBytes())
                    .put(good.buffer().duplicate())
                    .flip();
            flipped.put(flipped.limit() - 1, (byte) (flipped.get(flipped.limit() - 1) ^ 1));
            assertEquals(
                    Errors.CORRUPT_MESSAGE.code(),
                    produceTo(wire, (short) 1, "orders", 0, MemoryRecords.readableRecords(flipped))
                            .errorCode());

            ByteBuffer two = ByteBuffer.allocate(2 * good.sizeInBytes())
                    .put(good.buffer().duplicate())
                    .put(good.buffer().duplicate())
                    .flip();
            assertEquals(
                    Errors.INVALID_RECORD.code(),
                    produceTo(wire, (short) 1, "orders", 0, MemoryRecords.readableRecords(two))
                            .errorCode());

            MemoryRecords offsetFive = MemoryRecords.withRecords(
                    5L,
                    org.apache.kafka.common.compress.Compression.NONE,
                    new org.apache.kafka.common.record.internal.SimpleRecord("x".getBytes()));
            assertEquals(
                    Errors.INVALID_RECORD.code(),
                    produceTo(wire, (short) 1, "orders", 0, offsetFive).errorCode());

            String large = "x".repeat(400);
            assertEquals(
                    Errors.MESSAGE_TOO_LARGE.code(),
                    produceTo(wire, (short) 1, "small", 0, records(large)).errorCode());
            assertEquals(
                    Errors.RECORD_LIST_TOO_LARGE.code(),
                    produceTo(wire, (short) 1, "tiny-segments", 0, records(large, large))
                            .errorCode());

            MemoryRecords transactional = MemoryRecords.withTransactionalRecords(
                    org.apache.kafka.common.compress.Compression.NONE,
                    77L,
                    (short) 0,
                    0,
                    new org.apache.kafka.common.record.internal.SimpleRecord("t".getBytes()));
            // Transactional records without a transactional id: Kafka's KafkaApis refuses the request before anything
            // else (TRANSACTIONAL_ID_AUTHORIZATION_FAILED), with or without an authorizer.
            assertEquals(
                    Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code(),
                    produceTo(wire, (short) 1, "orders", 0, transactional).errorCode());
        }
        assertEquals(0, log("orders", 0).logEndOffset());
        assertEquals(0, log("small", 0).logEndOffset());
        assertEquals(0, log("tiny-segments", 0).logEndOffset());
    }

    @Test
    void idempotentRetriesGetTheOriginalOffsetsAndSequenceErrorsAppendNothing() throws Exception {
        try (KafkaWire wire = plane.connect()) {
            assertEquals(
                    0,
                    produceTo(wire, (short) -1, "orders", 0, idempotent(42, (short) 0, 0, "a", "b"))
                            .baseOffset());
            assertEquals(
                    2,
                    produceTo(wire, (short) -1, "orders", 0, idempotent(42, (short) 0, 2, "c"))
                            .baseOffset());
            ProduceResponseData.PartitionProduceResponse retry =
                    produceTo(wire, (short) -1, "orders", 0, idempotent(42, (short) 0, 0, "a", "b"));
            assertEquals(Errors.NONE.code(), retry.errorCode());
            assertEquals(0, retry.baseOffset());
            assertEquals(3, log("orders", 0).logEndOffset());

            assertEquals(
                    Errors.OUT_OF_ORDER_SEQUENCE_NUMBER.code(),
                    produceTo(wire, (short) -1, "orders", 0, idempotent(42, (short) 0, 5, "gap"))
                            .errorCode());
            assertEquals(
                    Errors.NONE.code(),
                    produceTo(wire, (short) -1, "orders", 0, idempotent(42, (short) 1, 0, "new epoch"))
                            .errorCode());
            assertEquals(
                    Errors.INVALID_PRODUCER_EPOCH.code(),
                    produceTo(wire, (short) -1, "orders", 0, idempotent(42, (short) 0, 3, "fenced"))
                            .errorCode());
            assertEquals(
                    Errors.OUT_OF_ORDER_SEQUENCE_NUMBER.code(),
                    produceTo(wire, (short) -1, "orders", 0, idempotent(42, (short) 2, 7, "bad start"))
                            .errorCode());
        }
        assertEquals(4, log("orders", 0).logEndOffset());
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void producerStateSurvivesARestartOfTheLog(boolean clean) throws Exception {
        try (KafkaWire wire = plane.connect()) {
            assertEquals(
                    0,
                    produceTo(wire, (short) -1, "orders", 0, idempotent(9, (short) 0, 0, "a", "b"))
                            .baseOffset());
            assertEquals(
                    2,
                    produceTo(wire, (short) -1, "orders", 0, idempotent(9, (short) 0, 2, "c"))
                            .baseOffset());
        }
        plane.restart(clean);
        assertEquals(3, log("orders", 0).highWatermark(), "acknowledged records stay readable");
        try (KafkaWire wire = plane.connect()) {
            // A snapshot keeps the producer's last batch (as Kafka's): its retry still gets its offsets.
            ProduceResponseData.PartitionProduceResponse retry =
                    produceTo(wire, (short) -1, "orders", 0, idempotent(9, (short) 0, 2, "c"));
            assertEquals(Errors.NONE.code(), retry.errorCode());
            assertEquals(2, retry.baseOffset());
            assertEquals(
                    Errors.OUT_OF_ORDER_SEQUENCE_NUMBER.code(),
                    produceTo(wire, (short) -1, "orders", 0, idempotent(9, (short) 0, 5, "gap"))
                            .errorCode());
            assertEquals(
                    3,
                    produceTo(wire, (short) -1, "orders", 0, idempotent(9, (short) 0, 3, "d"))
                            .baseOffset());
        }
        assertEquals(4, log("orders", 0).logEndOffset());
        assertEquals(4, log("orders", 0).highWatermark());
    }
}
