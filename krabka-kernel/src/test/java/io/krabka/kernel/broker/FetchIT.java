package io.krabka.kernel.broker;

import static io.krabka.kernel.broker.DataRequests.call;
import static io.krabka.kernel.broker.DataRequests.fetch;
import static io.krabka.kernel.broker.DataRequests.fetchPartition;
import static io.krabka.kernel.broker.DataRequests.fetchTopic;
import static io.krabka.kernel.broker.DataRequests.produce;
import static io.krabka.kernel.broker.DataRequests.records;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.FileSlice;
import io.krabka.kernel.log.LogStartOffsetIncrementReason;
import io.krabka.kernel.log.ProducerAppendInfo;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.VerificationGuard;
import io.krabka.kernel.metadata.WireUuids;
import io.krabka.kernel.network.KafkaWire;
import io.krabka.kernel.replica.FetchParams;
import io.krabka.kernel.replica.FetchPartition;
import io.krabka.kernel.replica.LogReadResult;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.TopicPartition;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.FetchResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Fetch over TCP: Kafka's read semantics, long polling, zero-copy records, every stable version. */
class FetchIT {

    private static final short V12 = 12;

    @RegisterExtension
    final DataPlane plane = DataPlane.perTest("orders", 2, Map.of());

    private UnifiedLog log(int partition) {
        return plane.replicaManager
                .partition(new TopicPartition("orders", partition))
                .orElseThrow()
                .log();
    }

    private void produceTo(int partition, String... values) throws Exception {
        try (KafkaWire wire = plane.connect()) {
            assertEquals(
                    Errors.NONE.code(),
                    call(wire, V12, produce((short) -1, "orders", partition, records(values)))
                            .data()
                            .responses()
                            .iterator()
                            .next()
                            .partitionResponses()
                            .get(0)
                            .errorCode());
        }
    }

    static List<String> values(FetchResponseData.PartitionData partition) {
        List<String> values = new ArrayList<>();
        for (RecordBatch batch : FetchResponse.recordsOrFail(partition).batches()) {
            if (!batch.isControlBatch()) {
                for (Record record : batch) {
                    values.add(new String(Utf8.bytes(record.value())));
                }
            }
        }
        return values;
    }

    static FetchResponseData.PartitionData partition(FetchResponse response, int topic, int partition) {
        return response.data().responses().get(topic).partitions().get(partition);
    }

    @Test
    void everyStableVersionReadsTheRecordsWithTheOffsets() throws Exception {
        produceTo(0, "a", "b");
        produceTo(0, "c");
        try (KafkaWire wire = plane.connect()) {
            for (short version = ApiKeys.FETCH.oldestVersion();
                    version <= ApiKeys.FETCH.latestVersion(false);
                    version++) {
                FetchRequestData.FetchTopic topic = version >= 13
                        ? fetchTopic("", WireUuids.toWire(plane.topicId("orders")), fetchPartition(0, 1, 1 << 20))
                        : fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 1, 1 << 20));
                FetchResponse response = call(wire, version, fetch(0, 1, topic));
                FetchResponseData.PartitionData data = partition(response, 0, 0);
                assertEquals(Errors.NONE.code(), data.errorCode(), "v" + version);
                assertEquals(3, data.highWatermark());
                assertEquals(3, data.lastStableOffset());
                assertEquals(version >= 5 ? 0 : -1, data.logStartOffset(), "log start offset from v5");
                assertEquals(-1, data.preferredReadReplica());
                assertNull(data.abortedTransactions());
                // The batch holding offset 1 comes whole, as Kafka sends it: the client skips offset 0.
                assertEquals(List.of("a", "b", "c"), values(data), "v" + version);
                FetchResponse outOfRange = call(
                        wire,
                        version,
                        fetch(
                                0,
                                1,
                                version >= 13
                                        ? fetchTopic(
                                                "",
                                                WireUuids.toWire(plane.topicId("orders")),
                                                fetchPartition(0, 9, 1 << 20))
                                        : fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 9, 1 << 20))));
                assertEquals(
                        Errors.OFFSET_OUT_OF_RANGE.code(),
                        partition(outOfRange, 0, 0).errorCode(),
                        "v" + version);
            }
        }
    }

    @Test
    void recordsAreSentFromTheSegmentFileAsStored() throws Exception {
        produceTo(1, "x", "y");
        produceTo(1, "z");
        List<LogReadResult> read = plane.replicaManager
                .fetchMessages(
                        new FetchParams(-1, 0, 1, 1 << 20, FetchIsolation.HIGH_WATERMARK),
                        List.of(new FetchPartition(
                                new TopicIdPartition(plane.topicId("orders"), new TopicPartition("orders", 1)),
                                0,
                                1 << 20,
                                Optional.empty())))
                .join();
        FileSlice slice = assertInstanceOf(FileSlice.class, read.get(0).records());
        byte[] segment = Files.readAllBytes(slice.file());
        try (KafkaWire wire = plane.connect()) {
            FetchResponse response =
                    call(wire, V12, fetch(0, 1, fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(1, 0, 1 << 20))));
            MemoryRecords received = (MemoryRecords) FetchResponse.recordsOrFail(partition(response, 0, 0));
            byte[] bytes = new byte[received.sizeInBytes()];
            received.buffer().duplicate().get(bytes);
            assertArrayEquals(Arrays.copyOfRange(segment, slice.start(), slice.start() + slice.size()), bytes);
            assertEquals(slice.size(), bytes.length);
        }
    }

    @Test
    void outOfRangeOffsetsAndUnknownPartitionsAndTopicIds() throws Exception {
        produceTo(0, "a");
        try (KafkaWire wire = plane.connect()) {
            FetchResponse response = call(
                    wire,
                    V12,
                    fetch(
                            0,
                            1,
                            fetchTopic(
                                    "orders", Uuid.ZERO_UUID, fetchPartition(0, 5, 1 << 20), fetchPartition(7, 0, 100)),
                            fetchTopic("missing", Uuid.ZERO_UUID, fetchPartition(0, 0, 100))));
            FetchResponseData.PartitionData outOfRange = partition(response, 0, 0);
            assertEquals(Errors.OFFSET_OUT_OF_RANGE.code(), outOfRange.errorCode());
            assertEquals(-1, outOfRange.highWatermark());
            assertEquals(
                    Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                    partition(response, 0, 1).errorCode());
            assertEquals(
                    Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                    partition(response, 1, 0).errorCode());
            FetchResponse byId =
                    call(wire, (short) 13, fetch(0, 1, fetchTopic("", Uuid.randomUuid(), fetchPartition(0, 0, 100))));
            assertEquals(Errors.UNKNOWN_TOPIC_ID.code(), partition(byId, 0, 0).errorCode());
        }
    }

    @Test
    void theFirstBatchComesWholeAndTheResponseLimitHoldsForTheRest() throws Exception {
        produceTo(0, "x".repeat(500));
        produceTo(1, "y".repeat(500));
        try (KafkaWire wire = plane.connect()) {
            FetchRequestData request = fetch(
                            0,
                            1,
                            fetchTopic(
                                    "orders", Uuid.ZERO_UUID, fetchPartition(0, 0, 10), fetchPartition(1, 0, 1 << 20)))
                    .setMaxBytes(100);
            FetchResponse response = call(wire, V12, request);
            assertEquals(List.of("x".repeat(500)), values(partition(response, 0, 0)));
            assertEquals(List.of(), values(partition(response, 0, 1)));
            assertEquals(1, partition(response, 0, 1).highWatermark());

            // A later partition's batch larger than its limit is not cut short: it is left out whole.
            FetchResponse limited = call(
                    wire,
                    V12,
                    fetch(
                            0,
                            1,
                            fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 0, 10), fetchPartition(1, 0, 100))));
            assertEquals(List.of("x".repeat(500)), values(partition(limited, 0, 0)));
            assertEquals(0, FetchResponse.recordsSize(partition(limited, 0, 1)));
        }
    }

    @Test
    void aWaitingFetchIsAnsweredByTheProduceThatBringsItsMinimum() throws Exception {
        try (KafkaWire consumer = plane.connect()) {
            int correlationId = DataRequests.send(
                    consumer,
                    ApiKeys.FETCH,
                    V12,
                    fetch(600_000, 1, fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 0, 1 << 20))));
            Waits.until(() -> plane.replicaManager.waitingFetches() == 1, "the fetch waits");
            produceTo(1, "elsewhere");
            assertEquals(1, plane.replicaManager.waitingFetches(), "an append to another partition does not answer it");
            produceTo(0, "hello");
            FetchResponse response = consumer.receive(ApiKeys.FETCH, V12, correlationId, FetchResponse.class);
            assertEquals(List.of("hello"), values(partition(response, 0, 0)));
            assertEquals(0, plane.replicaManager.waitingFetches());
        }
    }

    @Test
    void aWaitingFetchWaitsForMinBytesAcrossAppends() throws Exception {
        int batchSize = records("0123456789").sizeInBytes();
        try (KafkaWire consumer = plane.connect()) {
            int correlationId = DataRequests.send(
                    consumer,
                    ApiKeys.FETCH,
                    V12,
                    fetch(
                            600_000,
                            batchSize + 1,
                            fetchTopic(
                                    "orders",
                                    Uuid.ZERO_UUID,
                                    fetchPartition(0, 0, 1 << 20),
                                    fetchPartition(1, 0, 1 << 20))));
            Waits.until(() -> plane.replicaManager.waitingFetches() == 1, "the fetch waits");
            produceTo(0, "0123456789");
            assertEquals(1, plane.replicaManager.waitingFetches(), "one batch is short of min bytes");
            produceTo(1, "abcdefghij");
            FetchResponse response = consumer.receive(ApiKeys.FETCH, V12, correlationId, FetchResponse.class);
            assertEquals(List.of("0123456789"), values(partition(response, 0, 0)));
            assertEquals(List.of("abcdefghij"), values(partition(response, 0, 1)));
        }
    }

    @Test
    void aFetchWithoutDataIsAnsweredEmptyAtItsMaxWait() throws Exception {
        produceTo(0, "old");
        try (KafkaWire consumer = plane.connect()) {
            FetchResponse response = call(
                    consumer, V12, fetch(50, 1, fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 1, 1 << 20))));
            FetchResponseData.PartitionData data = partition(response, 0, 0);
            assertEquals(Errors.NONE.code(), data.errorCode());
            assertEquals(List.of(), values(data));
            assertEquals(1, data.highWatermark());
        }
        assertEquals(0, plane.replicaManager.waitingFetches());
    }

    @Test
    void deletingTheTopicAnswersAWaitingFetch() throws Exception {
        try (KafkaWire consumer = plane.connect()) {
            int correlationId = DataRequests.send(
                    consumer,
                    ApiKeys.FETCH,
                    V12,
                    fetch(600_000, 1, fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 0, 1 << 20))));
            Waits.until(() -> plane.replicaManager.waitingFetches() == 1, "the fetch waits");
            plane.deleteTopic("orders");
            FetchResponse response = consumer.receive(ApiKeys.FETCH, V12, correlationId, FetchResponse.class);
            assertEquals(
                    Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                    partition(response, 0, 0).errorCode());
        }
    }

    @Test
    void readCommittedStopsAtTheLastStableOffsetAndListsAbortedTransactions() throws Exception {
        UnifiedLog log = log(0);
        appendAsLeader(
                log,
                MemoryRecords.withTransactionalRecords(
                        Compression.NONE, 5L, (short) 0, 0, new SimpleRecord("aborted".getBytes())),
                AppendOrigin.CLIENT);
        appendAsLeader(
                log,
                MemoryRecords.withEndTransactionMarker(
                        5L, (short) 0, new EndTransactionMarker(ControlRecordType.ABORT, 0)),
                AppendOrigin.COORDINATOR);
        produceTo(0, "committed");
        appendAsLeader(
                log,
                MemoryRecords.withTransactionalRecords(
                        Compression.NONE, 6L, (short) 0, 0, new SimpleRecord("open".getBytes())),
                AppendOrigin.CLIENT);
        try (KafkaWire wire = plane.connect()) {
            FetchResponse committed = call(
                    wire,
                    V12,
                    fetch(0, 1, fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 0, 1 << 20)))
                            .setIsolationLevel((byte) 1));
            FetchResponseData.PartitionData data = partition(committed, 0, 0);
            assertEquals(4, data.highWatermark());
            assertEquals(3, data.lastStableOffset());
            assertEquals(
                    List.of(new FetchResponseData.AbortedTransaction()
                            .setProducerId(5)
                            .setFirstOffset(0)),
                    data.abortedTransactions());
            assertEquals(List.of("aborted", "committed"), values(data), "the client drops the aborted records");
            FetchResponse uncommitted =
                    call(wire, V12, fetch(0, 1, fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 0, 1 << 20))));
            assertNull(partition(uncommitted, 0, 0).abortedTransactions());
            assertEquals(List.of("aborted", "committed", "open"), values(partition(uncommitted, 0, 0)));
        }
    }

    // A client's transactional batch carries the verification the coordinator would have confirmed.
    private static void appendAsLeader(UnifiedLog log, MemoryRecords records, AppendOrigin origin) throws Exception {
        MutableRecordBatch batch = records.batches().iterator().next();
        log.appendAsLeader(
                records.buffer(),
                0,
                origin,
                origin == AppendOrigin.COORDINATOR ? (short) 1 : ProducerAppendInfo.TV_UNKNOWN,
                origin == AppendOrigin.CLIENT && batch.isTransactional()
                        ? log.maybeStartTransactionVerification(batch.producerId(), batch.producerEpoch(), false)
                        : VerificationGuard.SENTINEL);
        log.maybeIncrementHighWatermark(log.logEndOffsetMetadata());
    }

    @Test
    void offsetsBelowTheLogStartAreOutOfRange() throws Exception {
        produceTo(0, "a");
        produceTo(0, "b");
        produceTo(0, "c");
        log(0).maybeIncrementLogStartOffset(2, LogStartOffsetIncrementReason.CLIENT_RECORD_DELETION);
        try (KafkaWire wire = plane.connect()) {
            FetchResponse response =
                    call(wire, V12, fetch(0, 1, fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 1, 1 << 20))));
            assertEquals(
                    Errors.OFFSET_OUT_OF_RANGE.code(), partition(response, 0, 0).errorCode());
            FetchResponse fromStart =
                    call(wire, V12, fetch(0, 1, fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 2, 1 << 20))));
            assertEquals(2, partition(fromStart, 0, 0).logStartOffset());
            assertEquals(List.of("c"), values(partition(fromStart, 0, 0)));
            assertEquals(
                    2,
                    call(
                                    wire,
                                    (short) 11,
                                    DataRequests.listOffsets((byte) 0, "orders", DataRequests.listPartition(0, -2)))
                            .data()
                            .topics()
                            .get(0)
                            .partitions()
                            .get(0)
                            .offset());
        }
    }

    @Test
    void replicasHaveNothingToFetchFromASingleNode() throws Exception {
        produceTo(0, "a");
        try (KafkaWire wire = plane.connect()) {
            FetchResponse response = call(
                    wire,
                    V12,
                    fetch(0, 1, fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 0, 100)))
                            .setReplicaId(2));
            assertEquals(
                    Errors.NOT_LEADER_OR_FOLLOWER.code(),
                    partition(response, 0, 0).errorCode());
            assertEquals(List.of(), values(partition(response, 0, 0)));
        }
    }

    @Test
    void aStaleLeaderEpochIsFencedAndANewerOneUnknown() throws Exception {
        plane.bumpLeaderEpoch("orders");
        try (KafkaWire wire = plane.connect()) {
            FetchResponse response = call(
                    wire,
                    V12,
                    fetch(
                            0,
                            1,
                            fetchTopic(
                                    "orders",
                                    Uuid.ZERO_UUID,
                                    fetchPartition(0, 0, 100).setCurrentLeaderEpoch(0),
                                    fetchPartition(1, 0, 100).setCurrentLeaderEpoch(5))));
            assertEquals(
                    Errors.FENCED_LEADER_EPOCH.code(), partition(response, 0, 0).errorCode());
            assertEquals(
                    Errors.UNKNOWN_LEADER_EPOCH.code(),
                    partition(response, 0, 1).errorCode());
        }
        assertTrue(log(0).latestEpoch().isPresent());
        assertEquals(1, log(0).latestEpoch().getAsInt());
    }

    /** Record values as bytes. */
    static final class Utf8 {
        private Utf8() {}

        static byte[] bytes(ByteBuffer buffer) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes);
            return bytes;
        }
    }
}
