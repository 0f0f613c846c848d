package io.krabka.kernel.broker;

import static io.krabka.kernel.broker.DataRequests.call;
import static io.krabka.kernel.broker.DataRequests.fetch;
import static io.krabka.kernel.broker.DataRequests.fetchPartition;
import static io.krabka.kernel.broker.DataRequests.fetchTopic;
import static io.krabka.kernel.broker.DataRequests.produce;
import static io.krabka.kernel.broker.DataRequests.records;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.krabka.kernel.fetch.FetchSessionCacheConfig;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.metadata.WireUuids;
import io.krabka.kernel.network.KafkaWire;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Incremental fetch sessions (KIP-227) over TCP: creation, changed partitions only, forgetting, errors, eviction. */
class FetchSessionIT {

    private static final short V12 = 12;

    @TempDir
    Path dir;

    private DataPlane plane;

    @AfterEach
    void stop() throws Exception {
        if (plane != null) {
            plane.close();
        }
    }

    private TopicImage start(FetchSessionCacheConfig sessions) throws Exception {
        plane = DataPlane.start(dir, sessions);
        return plane.createTopic("orders", 3, Map.of());
    }

    private void produceTo(int partition, String value) throws Exception {
        try (KafkaWire wire = plane.connect()) {
            call(wire, V12, produce((short) 1, "orders", partition, records(value)));
        }
    }

    private static FetchRequestData full(FetchRequestData.FetchTopic... topics) {
        return fetch(0, 1, topics).setSessionId(0).setSessionEpoch(0);
    }

    private static FetchRequestData incremental(int sessionId, int epoch, FetchRequestData.FetchTopic... topics) {
        return fetch(0, 1, topics).setSessionId(sessionId).setSessionEpoch(epoch);
    }

    /** The partitions of a response as "topic-partition" (by name) with their values. */
    private static List<String> answered(FetchResponse response) {
        List<String> answered = new ArrayList<>();
        for (FetchResponseData.FetchableTopicResponse topic : response.data().responses()) {
            for (FetchResponseData.PartitionData partition : topic.partitions()) {
                answered.add(partition.partitionIndex() + "=" + FetchIT.values(partition));
            }
        }
        return answered;
    }

    @Test
    void incrementalFetchesAnswerOnlyWhatChangedAndForgetPartitions() throws Exception {
        start(FetchSessionCacheConfig.DEFAULTS);
        produceTo(0, "a");
        try (KafkaWire wire = plane.connect()) {
            FetchResponse first = call(
                    wire,
                    V12,
                    full(fetchTopic(
                            "orders",
                            Uuid.ZERO_UUID,
                            fetchPartition(0, 0, 1 << 20),
                            fetchPartition(1, 0, 1 << 20),
                            fetchPartition(2, 0, 1 << 20))));
            int session = first.data().sessionId();
            assertNotEquals(0, session);
            assertEquals(List.of("0=[a]", "1=[]", "2=[]"), answered(first));

            // The client moves its offset on for partition 0; nothing new anywhere: an empty response.
            FetchResponse idle = call(
                    wire,
                    V12,
                    incremental(session, 1, fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 1, 1 << 20))));
            assertEquals(Errors.NONE.code(), idle.data().errorCode());
            assertEquals(session, idle.data().sessionId());
            assertEquals(List.of(), answered(idle));

            produceTo(2, "c");
            FetchResponse changed = call(wire, V12, incremental(session, 2));
            assertEquals(List.of("2=[c]"), answered(changed));

            FetchRequestData forget =
                    incremental(session, 3, fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(2, 1, 1 << 20)));
            forget.setForgottenTopicsData(List.of(
                    new FetchRequestData.ForgottenTopic().setTopic("orders").setPartitions(List.of(1))));
            assertEquals(List.of(), answered(call(wire, V12, forget)));
            produceTo(1, "b");
            produceTo(0, "a2");
            assertEquals(
                    List.of("0=[a2]"), answered(call(wire, V12, incremental(session, 4))), "partition 1 was forgotten");
        }
    }

    @Test
    void partitionsThatReturnedRecordsMoveToTheEndOfTheReadOrder() throws Exception {
        start(FetchSessionCacheConfig.DEFAULTS);
        try (KafkaWire wire = plane.connect()) {
            int session = call(
                            wire,
                            V12,
                            full(fetchTopic(
                                    "orders",
                                    Uuid.ZERO_UUID,
                                    fetchPartition(0, 0, 1 << 20),
                                    fetchPartition(1, 0, 1 << 20),
                                    fetchPartition(2, 0, 1 << 20))))
                    .data()
                    .sessionId();
            produceTo(0, "a");
            assertEquals(List.of("0=[a]"), answered(call(wire, V12, incremental(session, 1))));
            produceTo(0, "b");
            produceTo(1, "c");
            produceTo(2, "d");
            FetchResponse rotated = call(
                    wire,
                    V12,
                    incremental(session, 2, fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 1, 1 << 20))));
            assertEquals(
                    List.of("1=[c]", "2=[d]", "0=[b]"),
                    answered(rotated),
                    "partition 0 returned records last time, so it is read last");
        }
    }

    @Test
    void sessionErrors() throws Exception {
        TopicImage orders = start(FetchSessionCacheConfig.DEFAULTS);
        try (KafkaWire wire = plane.connect()) {
            int session = call(wire, V12, full(fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 0, 100))))
                    .data()
                    .sessionId();
            FetchResponse stale = call(wire, V12, incremental(session, 5));
            assertEquals(Errors.INVALID_FETCH_SESSION_EPOCH.code(), stale.data().errorCode());
            assertEquals(List.of(), answered(stale));
            assertEquals(
                    Errors.FETCH_SESSION_ID_NOT_FOUND.code(),
                    call(wire, V12, incremental(session + 1, 1)).data().errorCode());
            assertEquals(
                    Errors.FETCH_SESSION_TOPIC_ID_ERROR.code(),
                    call(wire, (short) 13, incremental(session, 1)).data().errorCode());
            assertEquals(
                    Errors.NONE.code(),
                    call(wire, V12, incremental(session, 1)).data().errorCode());

            // A full fetch with epoch -1 closes the session and opens none.
            FetchRequestData close = fetch(0, 1).setSessionId(session).setSessionEpoch(-1);
            assertEquals(0, call(wire, V12, close).data().sessionId());
            assertEquals(
                    Errors.FETCH_SESSION_ID_NOT_FOUND.code(),
                    call(wire, V12, incremental(session, 2)).data().errorCode());

            int byId = call(
                            wire,
                            (short) 13,
                            full(fetchTopic("", WireUuids.toWire(orders.id()), fetchPartition(0, 0, 100))))
                    .data()
                    .sessionId();
            produceTo(0, "x");
            FetchResponse incrementalById = call(wire, (short) 13, incremental(byId, 1));
            assertEquals(List.of("0=[x]"), answered(incrementalById));
            assertEquals(
                    WireUuids.toWire(orders.id()),
                    incrementalById.data().responses().get(0).topicId());
        }
        assertEquals(1, plane.fetchManager.cache().size());
    }

    @Test
    void aFullCacheGivesNoSessionUntilOneMayBeEvicted() throws Exception {
        start(new FetchSessionCacheConfig(1, 600_000));
        try (KafkaWire wire = plane.connect()) {
            int first = call(wire, V12, full(fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 0, 100))))
                    .data()
                    .sessionId();
            assertNotEquals(0, first);
            FetchResponse second = call(
                    wire,
                    V12,
                    full(fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 0, 100), fetchPartition(1, 0, 100))));
            assertEquals(0, second.data().sessionId(), "the only slot holds a session younger than the eviction time");
            assertEquals(List.of("0=[]", "1=[]"), answered(second));
            assertEquals(
                    Errors.NONE.code(),
                    call(wire, V12, incremental(first, 1)).data().errorCode());
        }
    }

    @Test
    void aSessionUnusedForTheEvictionTimeMakesRoomForANewOne() throws Exception {
        start(new FetchSessionCacheConfig(1, 0));
        try (KafkaWire wire = plane.connect()) {
            int small = call(wire, V12, full(fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, 0, 100))))
                    .data()
                    .sessionId();
            Thread.sleep(2); // unused for longer than the eviction time of 0 ms
            int large = call(
                            wire,
                            V12,
                            full(fetchTopic(
                                    "orders", Uuid.ZERO_UUID, fetchPartition(0, 0, 100), fetchPartition(1, 0, 100))))
                    .data()
                    .sessionId();
            assertNotEquals(0, large);
            assertEquals(
                    Errors.FETCH_SESSION_ID_NOT_FOUND.code(),
                    call(wire, V12, incremental(small, 1)).data().errorCode());
            assertEquals(
                    Errors.NONE.code(),
                    call(wire, V12, incremental(large, 1)).data().errorCode());
        }
        assertEquals(1, plane.fetchManager.cache().evictions());
    }
}
