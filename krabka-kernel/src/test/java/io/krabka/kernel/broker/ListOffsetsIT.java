package io.krabka.kernel.broker;

import static io.krabka.kernel.broker.DataRequests.call;
import static io.krabka.kernel.broker.DataRequests.listOffsets;
import static io.krabka.kernel.broker.DataRequests.listPartition;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.ProducerAppendInfo;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.network.KafkaWire;
import io.krabka.spi.common.TopicPartition;
import java.util.Map;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.ListOffsetsResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** ListOffsets over TCP: every special timestamp, lookups by time, isolation, leader epochs, errors, versions. */
class ListOffsetsIT {

    private static final short V11 = 11;

    @RegisterExtension
    final DataPlane plane = DataPlane.perTest("orders", 2, Map.of());

    @BeforeEach
    void start() throws Exception {
        try (KafkaWire wire = plane.connect()) {
            produce(wire, new SimpleRecord(1000, null, "a".getBytes()), new SimpleRecord(5000, null, "b".getBytes()));
            produce(wire, new SimpleRecord(3000, null, "c".getBytes()));
            produce(wire, new SimpleRecord(4000, null, "d".getBytes()));
        }
    }

    private static void produce(KafkaWire wire, SimpleRecord... records) throws Exception {
        call(
                wire,
                (short) 12,
                DataRequests.produce((short) -1, "orders", 0, MemoryRecords.withRecords(Compression.NONE, records)));
    }

    private ListOffsetsResponseData.ListOffsetsPartitionResponse lookup(
            KafkaWire wire, short version, byte isolation, int partition, long timestamp) throws Exception {
        ListOffsetsResponse response =
                call(wire, version, listOffsets(isolation, "orders", listPartition(partition, timestamp)));
        return response.data().topics().get(0).partitions().get(0);
    }

    private static void assertFound(
            long offset, long timestamp, int epoch, ListOffsetsResponseData.ListOffsetsPartitionResponse response) {
        assertEquals(Errors.NONE.code(), response.errorCode());
        assertEquals(offset, response.offset(), "offset");
        assertEquals(timestamp, response.timestamp(), "timestamp");
        assertEquals(epoch, response.leaderEpoch(), "leader epoch");
    }

    @Test
    void specialTimestampsAndLookupsByTime() throws Exception {
        try (KafkaWire wire = plane.connect()) {
            assertFound(0, -1, 0, lookup(wire, V11, (byte) 0, 0, -2));
            assertFound(4, -1, 0, lookup(wire, V11, (byte) 0, 0, -1));
            assertFound(1, 5000, 0, lookup(wire, V11, (byte) 0, 0, -3));
            assertFound(0, -1, 0, lookup(wire, V11, (byte) 0, 0, -4));
            assertFound(-1, -1, -1, lookup(wire, V11, (byte) 0, 0, -5));
            assertFound(0, 1000, 0, lookup(wire, V11, (byte) 0, 0, 500));
            assertFound(1, 5000, 0, lookup(wire, V11, (byte) 0, 0, 2000));
            assertFound(1, 5000, 0, lookup(wire, V11, (byte) 0, 0, 5000));
            assertFound(-1, -1, -1, lookup(wire, V11, (byte) 0, 0, 6000));
            assertFound(0, -1, 0, lookup(wire, V11, (byte) 0, 1, -1));
            assertFound(-1, -1, -1, lookup(wire, V11, (byte) 0, 1, -3));
        }
    }

    @Test
    void readCommittedStopsAtTheLastStableOffset() throws Exception {
        UnifiedLog log = plane.replicaManager
                .partition(new TopicPartition("orders", 0))
                .orElseThrow()
                .log();
        log.appendAsLeader(
                MemoryRecords.withTransactionalRecords(
                                Compression.NONE, 3L, (short) 0, 0, new SimpleRecord(9000, null, "open".getBytes()))
                        .buffer(),
                0,
                AppendOrigin.CLIENT,
                ProducerAppendInfo.TV_UNKNOWN,
                log.maybeStartTransactionVerification(3L, (short) 0, false));
        log.maybeIncrementHighWatermark(log.logEndOffsetMetadata());
        try (KafkaWire wire = plane.connect()) {
            assertFound(5, -1, 0, lookup(wire, V11, (byte) 0, 0, -1));
            assertFound(4, -1, 0, lookup(wire, V11, (byte) 1, 0, -1));
            assertFound(4, 9000, 0, lookup(wire, V11, (byte) 0, 0, 8000));
            assertFound(-1, -1, -1, lookup(wire, V11, (byte) 1, 0, 8000));
        }
    }

    @Test
    void leaderEpochsAreReportedAndChecked() throws Exception {
        plane.bumpLeaderEpoch("orders");
        try (KafkaWire wire = plane.connect()) {
            assertFound(4, -1, 1, lookup(wire, V11, (byte) 0, 0, -1));
            assertFound(0, -1, 0, lookup(wire, V11, (byte) 0, 0, -2));
            ListOffsetsResponse fenced = call(
                    wire,
                    V11,
                    listOffsets(
                            (byte) 0,
                            "orders",
                            listPartition(0, -1).setCurrentLeaderEpoch(0),
                            listPartition(1, -1).setCurrentLeaderEpoch(2)));
            assertEquals(
                    Errors.FENCED_LEADER_EPOCH.code(),
                    fenced.data().topics().get(0).partitions().get(0).errorCode());
            assertEquals(
                    Errors.UNKNOWN_LEADER_EPOCH.code(),
                    fenced.data().topics().get(0).partitions().get(1).errorCode());
            assertFound(
                    4,
                    -1,
                    1,
                    call(
                                    wire,
                                    V11,
                                    listOffsets(
                                            (byte) 0,
                                            "orders",
                                            listPartition(0, -1).setCurrentLeaderEpoch(1)))
                            .data()
                            .topics()
                            .get(0)
                            .partitions()
                            .get(0));
        }
    }

    @Test
    void unknownAndDuplicatePartitions() throws Exception {
        try (KafkaWire wire = plane.connect()) {
            ListOffsetsResponse response = call(
                    wire,
                    V11,
                    listOffsets((byte) 0, "orders", listPartition(0, -1), listPartition(0, -2), listPartition(5, -1)));
            assertEquals(
                    Errors.INVALID_REQUEST.code(),
                    response.data().topics().get(0).partitions().get(0).errorCode());
            assertEquals(
                    Errors.INVALID_REQUEST.code(),
                    response.data().topics().get(0).partitions().get(1).errorCode());
            assertEquals(
                    Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                    response.data().topics().get(0).partitions().get(2).errorCode());
            assertEquals(
                    Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                    call(wire, V11, listOffsets((byte) 0, "missing", listPartition(0, -1)))
                            .data()
                            .topics()
                            .get(0)
                            .partitions()
                            .get(0)
                            .errorCode());
        }
    }

    @Test
    void everyStableVersion() throws Exception {
        try (KafkaWire wire = plane.connect()) {
            for (short version = ApiKeys.LIST_OFFSETS.oldestVersion();
                    version <= ApiKeys.LIST_OFFSETS.latestVersion(false);
                    version++) {
                ListOffsetsResponseData.ListOffsetsPartitionResponse latest = lookup(wire, version, (byte) 0, 0, -1);
                assertEquals(Errors.NONE.code(), latest.errorCode(), "v" + version);
                assertEquals(4, latest.offset(), "v" + version);
                assertEquals(version >= 4 ? 0 : -1, latest.leaderEpoch(), "leader epoch from v4");
                assertEquals(1, lookup(wire, version, (byte) 0, 0, 2000).offset(), "v" + version);
            }
        }
    }
}
