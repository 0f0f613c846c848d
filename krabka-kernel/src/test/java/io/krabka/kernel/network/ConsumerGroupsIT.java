package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.group.GroupCoordinatorConfig;
import io.krabka.kernel.group.OffsetsTopic;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.Record;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopicCollection;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData.JoinGroupRequestProtocol;
import org.apache.kafka.common.message.JoinGroupRequestData.JoinGroupRequestProtocolCollection;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupRequestData.MemberIdentity;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitRequestData.OffsetCommitRequestPartition;
import org.apache.kafka.common.message.OffsetCommitRequestData.OffsetCommitRequestTopic;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData.OffsetFetchRequestGroup;
import org.apache.kafka.common.message.OffsetFetchRequestData.OffsetFetchRequestTopic;
import org.apache.kafka.common.message.OffsetFetchRequestData.OffsetFetchRequestTopics;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupRequestData.SyncGroupRequestAssignment;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.DeleteGroupsResponse;
import org.apache.kafka.common.requests.DescribeGroupsResponse;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.requests.HeartbeatResponse;
import org.apache.kafka.common.requests.JoinGroupResponse;
import org.apache.kafka.common.requests.LeaveGroupResponse;
import org.apache.kafka.common.requests.ListGroupsResponse;
import org.apache.kafka.common.requests.OffsetCommitResponse;
import org.apache.kafka.common.requests.OffsetFetchResponse;
import org.apache.kafka.common.requests.SyncGroupResponse;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordSerde;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The classic group protocol over TCP, driven with kafka-clients' request classes: the coordinator found (and
 * {@code __consumer_offsets} created), two members rebalancing, static membership, a session running out, commits
 * that survive a restart of the broker, and what is on disk read back by Kafka 4.4's own deserializer.
 */
@ExtendWith(NettyLeakCheck.class)
class ConsumerGroupsIT {

    private static final String GROUP = "payments";
    // Short sessions and a short initial delay, so that expiry and the first join take little time.
    private static final GroupCoordinatorConfig CONFIG =
            GroupCoordinatorConfig.DEFAULTS.withSessionTimeouts(100, 60_000, 50);

    @TempDir
    Path dataDir;

    private GroupBroker broker;
    private final List<KafkaWire> connections = new ArrayList<>();
    private final AtomicInteger correlation = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        broker = GroupBroker.start(dataDir, CONFIG);
    }

    @AfterEach
    void stop() throws Exception {
        for (KafkaWire wire : connections) {
            wire.close();
        }
        broker.close();
    }

    private KafkaWire connect() throws IOException {
        KafkaWire wire = KafkaWire.connect(broker.address());
        connections.add(wire);
        return wire;
    }

    private int send(KafkaWire wire, ApiKeys key, int version, ApiMessage body) throws IOException {
        int id = correlation.incrementAndGet();
        wire.send(key, (short) version, id, body);
        return id;
    }

    private <R extends AbstractResponse> R call(
            KafkaWire wire, ApiKeys key, int version, ApiMessage body, Class<R> type) throws IOException {
        return wire.receive(key, (short) version, send(wire, key, version, body), type);
    }

    private static void waitUntil(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up waiting for " + what);
            }
            Thread.sleep(10);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static JoinGroupRequestData join(String memberId, String instanceId, int sessionMs) {
        JoinGroupRequestProtocolCollection protocols = new JoinGroupRequestProtocolCollection();
        protocols.add(new JoinGroupRequestProtocol().setName("range").setMetadata(bytes("orders")));
        return new JoinGroupRequestData()
                .setGroupId(GROUP)
                .setMemberId(memberId)
                .setGroupInstanceId(instanceId)
                .setProtocolType("consumer")
                .setProtocols(protocols)
                .setSessionTimeoutMs(sessionMs)
                .setRebalanceTimeoutMs(20_000);
    }

    private static SyncGroupRequestData sync(
            String memberId, String instanceId, int generation, Map<String, String> assignments) {
        return new SyncGroupRequestData()
                .setGroupId(GROUP)
                .setMemberId(memberId)
                .setGroupInstanceId(instanceId)
                .setGenerationId(generation)
                .setProtocolType("consumer")
                .setProtocolName("range")
                .setAssignments(assignments.entrySet().stream()
                        .map(e -> new SyncGroupRequestAssignment()
                                .setMemberId(e.getKey())
                                .setAssignment(bytes(e.getValue())))
                        .toList());
    }

    private Errors heartbeat(KafkaWire wire, String memberId, String instanceId, int generation) throws IOException {
        return call(
                        wire,
                        ApiKeys.HEARTBEAT,
                        4,
                        new HeartbeatRequestData()
                                .setGroupId(GROUP)
                                .setMemberId(memberId)
                                .setGroupInstanceId(instanceId)
                                .setGenerationId(generation),
                        HeartbeatResponse.class)
                .error();
    }

    private String describeState(KafkaWire wire) throws IOException {
        return call(
                        wire,
                        ApiKeys.DESCRIBE_GROUPS,
                        5,
                        new DescribeGroupsRequestData().setGroups(List.of(GROUP)),
                        DescribeGroupsResponse.class)
                .data()
                .groups()
                .getFirst()
                .groupState();
    }

    /** FindCoordinator for the group, then waits for its partition to be loaded. */
    private void findCoordinator(KafkaWire wire) throws Exception {
        FindCoordinatorResponse found = call(
                wire,
                ApiKeys.FIND_COORDINATOR,
                6,
                new FindCoordinatorRequestData().setKeyType((byte) 0).setCoordinatorKeys(List.of(GROUP)),
                FindCoordinatorResponse.class);
        assertEquals(Errors.NONE.code(), found.data().coordinators().getFirst().errorCode());
        waitUntil(
                "the group's partition to load",
                () -> broker.coordinator.fetchOffsets(GROUP, List.of(), false).error() == Errors.NONE);
    }

    /** A member joined through KIP-394 and synced alone: its id, generation 1. */
    private String stableGroupOfOne(KafkaWire wire) throws IOException {
        JoinGroupResponse required = call(wire, ApiKeys.JOIN_GROUP, 9, join("", null, 10_000), JoinGroupResponse.class);
        assertEquals(Errors.MEMBER_ID_REQUIRED, required.error());
        String memberId = required.data().memberId();
        JoinGroupResponse joined =
                call(wire, ApiKeys.JOIN_GROUP, 9, join(memberId, null, 10_000), JoinGroupResponse.class);
        assertEquals(Errors.NONE, joined.error());
        assertEquals(1, joined.data().generationId());
        assertEquals(memberId, joined.data().leader());
        SyncGroupResponse synced = call(
                wire,
                ApiKeys.SYNC_GROUP,
                5,
                sync(memberId, null, 1, Map.of(memberId, "orders-0,orders-1")),
                SyncGroupResponse.class);
        assertArrayEquals(bytes("orders-0,orders-1"), synced.data().assignment());
        return memberId;
    }

    @Test
    void findCoordinatorCreatesTheOffsetsTopicAndAnswersWithThisNode() throws Exception {
        KafkaWire wire = connect();
        FindCoordinatorResponse batched = call(
                wire,
                ApiKeys.FIND_COORDINATOR,
                4,
                new FindCoordinatorRequestData().setKeyType((byte) 0).setCoordinatorKeys(List.of(GROUP, "another")),
                FindCoordinatorResponse.class);
        assertEquals(2, batched.data().coordinators().size());
        for (var coordinator : batched.data().coordinators()) {
            assertEquals(Errors.NONE.code(), coordinator.errorCode());
            assertEquals(Servers.NODE_ID, coordinator.nodeId());
            assertEquals(broker.address().getPort(), coordinator.port());
            assertEquals(broker.address().getHostString(), coordinator.host());
        }
        TopicImage offsets = broker.controller.image().topic(OffsetsTopic.NAME).orElseThrow();
        assertEquals(50, offsets.partitions().size());
        assertEquals(
                "compact",
                broker.controller.image().topicConfig(OffsetsTopic.NAME).get("cleanup.policy"));
        assertTrue(broker.logManager
                .getLog(new TopicPartition(OffsetsTopic.NAME, 49))
                .isPresent());

        FindCoordinatorResponse single = call(
                wire,
                ApiKeys.FIND_COORDINATOR,
                3,
                new FindCoordinatorRequestData().setKey(GROUP).setKeyType((byte) 0),
                FindCoordinatorResponse.class);
        assertEquals(Errors.NONE, single.error());
        assertEquals(Servers.NODE_ID, single.data().nodeId());

        FindCoordinatorResponse transaction = call(
                wire,
                ApiKeys.FIND_COORDINATOR,
                6,
                new FindCoordinatorRequestData().setKeyType((byte) 1).setCoordinatorKeys(List.of("tx-1")),
                FindCoordinatorResponse.class);
        assertEquals(
                Errors.COORDINATOR_NOT_AVAILABLE.code(),
                transaction.data().coordinators().getFirst().errorCode());
        assertEquals(1, broker.coordinatorCreateTopicsRequests(), "one write: the topic was created once");
    }

    @Test
    void twoMembersRebalanceAndShareTheAssignment() throws Exception {
        KafkaWire a = connect();
        KafkaWire b = connect();
        findCoordinator(a);
        String aId = stableGroupOfOne(a);

        JoinGroupResponse required = call(b, ApiKeys.JOIN_GROUP, 9, join("", null, 10_000), JoinGroupResponse.class);
        String bId = required.data().memberId();
        int bJoin = send(b, ApiKeys.JOIN_GROUP, 9, join(bId, null, 10_000));
        waitUntil("a to learn of the rebalance", () -> {
            try {
                return heartbeat(a, aId, null, 1) == Errors.REBALANCE_IN_PROGRESS;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        JoinGroupResponse aJoined = call(a, ApiKeys.JOIN_GROUP, 9, join(aId, null, 10_000), JoinGroupResponse.class);
        JoinGroupResponse bJoined = b.receive(ApiKeys.JOIN_GROUP, (short) 9, bJoin, JoinGroupResponse.class);
        assertEquals(2, aJoined.data().generationId());
        assertEquals(2, bJoined.data().generationId());
        assertEquals(aId, bJoined.data().leader());
        assertEquals(2, aJoined.data().members().size());
        assertTrue(bJoined.data().members().isEmpty());

        int bSync = send(b, ApiKeys.SYNC_GROUP, 5, sync(bId, null, 2, Map.of()));
        SyncGroupResponse aSynced = call(
                a,
                ApiKeys.SYNC_GROUP,
                5,
                sync(aId, null, 2, Map.of(aId, "orders-0", bId, "orders-1")),
                SyncGroupResponse.class);
        SyncGroupResponse bSynced = b.receive(ApiKeys.SYNC_GROUP, (short) 5, bSync, SyncGroupResponse.class);
        assertArrayEquals(bytes("orders-0"), aSynced.data().assignment());
        assertArrayEquals(bytes("orders-1"), bSynced.data().assignment());
        assertEquals("range", bSynced.data().protocolName());

        var described = call(
                        a,
                        ApiKeys.DESCRIBE_GROUPS,
                        5,
                        new DescribeGroupsRequestData()
                                .setGroups(List.of(GROUP))
                                .setIncludeAuthorizedOperations(true),
                        DescribeGroupsResponse.class)
                .data()
                .groups()
                .getFirst();
        assertEquals("Stable", described.groupState());
        assertEquals(2, described.members().size());
        assertEquals("/127.0.0.1", described.members().getFirst().clientHost());
        assertEquals("krabka-test", described.members().getFirst().clientId());
        assertEquals(
                java.util.Set.of(
                        AclOperation.READ,
                        AclOperation.DESCRIBE,
                        AclOperation.DELETE,
                        AclOperation.DESCRIBE_CONFIGS,
                        AclOperation.ALTER_CONFIGS),
                org.apache.kafka.common.utils.Utils.from32BitField(described.authorizedOperations()).stream()
                        .map(AclOperation::fromCode)
                        .collect(java.util.stream.Collectors.toSet()),
                "no authorizer: every operation Kafka defines on a group");

        // LeaveGroup v5 by member id: b rebalances alone.
        LeaveGroupResponse left = call(
                a,
                ApiKeys.LEAVE_GROUP,
                5,
                new LeaveGroupRequestData()
                        .setGroupId(GROUP)
                        .setMembers(List.of(new MemberIdentity().setMemberId(aId))),
                LeaveGroupResponse.class);
        assertEquals(Errors.NONE.code(), left.data().members().getFirst().errorCode());
        assertEquals(Errors.REBALANCE_IN_PROGRESS, heartbeat(b, bId, null, 2));
        JoinGroupResponse alone = call(b, ApiKeys.JOIN_GROUP, 9, join(bId, null, 10_000), JoinGroupResponse.class);
        assertEquals(3, alone.data().generationId());
        assertEquals(bId, alone.data().leader());
    }

    @Test
    void aStaticMemberRestartsWithoutARebalance() throws Exception {
        KafkaWire first = connect();
        findCoordinator(first);
        JoinGroupResponse joined =
                call(first, ApiKeys.JOIN_GROUP, 5, join("", "instance-1", 10_000), JoinGroupResponse.class);
        assertEquals(Errors.NONE, joined.error(), "a static member needs no member id round trip");
        String oldId = joined.data().memberId();
        call(
                first,
                ApiKeys.SYNC_GROUP,
                3,
                sync(oldId, "instance-1", 1, Map.of(oldId, "orders-0")),
                SyncGroupResponse.class);

        KafkaWire restarted = connect();
        JoinGroupResponse again =
                call(restarted, ApiKeys.JOIN_GROUP, 9, join("", "instance-1", 10_000), JoinGroupResponse.class);
        String newId = again.data().memberId();
        assertNotEquals(oldId, newId);
        assertEquals(1, again.data().generationId());
        assertTrue(again.data().skipAssignment(), "the leader keeps the assignment it made");
        assertEquals("Stable", describeState(restarted));
        assertEquals(Errors.FENCED_INSTANCE_ID, heartbeat(first, oldId, "instance-1", 1));
        SyncGroupResponse synced =
                call(restarted, ApiKeys.SYNC_GROUP, 5, sync(newId, "instance-1", 1, Map.of()), SyncGroupResponse.class);
        assertArrayEquals(bytes("orders-0"), synced.data().assignment());

        LeaveGroupResponse left = call(
                restarted,
                ApiKeys.LEAVE_GROUP,
                4,
                new LeaveGroupRequestData()
                        .setGroupId(GROUP)
                        .setMembers(List.of(new MemberIdentity().setMemberId("").setGroupInstanceId("instance-1"))),
                LeaveGroupResponse.class);
        assertEquals(Errors.NONE.code(), left.data().members().getFirst().errorCode());
        assertEquals("Empty", describeState(restarted));
    }

    @Test
    void aMemberThatStopsHeartbeatingExpires() throws Exception {
        KafkaWire wire = connect();
        findCoordinator(wire);
        JoinGroupResponse required = call(wire, ApiKeys.JOIN_GROUP, 9, join("", null, 200), JoinGroupResponse.class);
        String memberId = required.data().memberId();
        JoinGroupResponse joined =
                call(wire, ApiKeys.JOIN_GROUP, 9, join(memberId, null, 200), JoinGroupResponse.class);
        call(
                wire,
                ApiKeys.SYNC_GROUP,
                5,
                sync(memberId, null, joined.data().generationId(), Map.of(memberId, "x")),
                SyncGroupResponse.class);
        waitUntil("the session to run out", () -> {
            try {
                return describeState(wire).equals("Empty");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertEquals(
                Errors.UNKNOWN_MEMBER_ID,
                heartbeat(wire, memberId, null, joined.data().generationId()));
    }

    @Test
    void committedOffsetsSurviveARestartAndAreKafkasRecordsOnDisk() throws Exception {
        CreatableTopicCollection topics = new CreatableTopicCollection();
        topics.add(new CreatableTopic().setName("orders").setNumPartitions(2).setReplicationFactor((short) 1));
        broker.controller
                .createTopics(new CreateTopicsRequestData().setTopics(topics))
                .join();
        Uuid ordersId =
                toWire(broker.controller.image().topic("orders").orElseThrow().id());

        KafkaWire wire = connect();
        findCoordinator(wire);
        String memberId = stableGroupOfOne(wire);
        OffsetCommitResponse committed = call(
                wire,
                ApiKeys.OFFSET_COMMIT,
                9,
                new OffsetCommitRequestData()
                        .setGroupId(GROUP)
                        .setMemberId(memberId)
                        .setGenerationIdOrMemberEpoch(1)
                        .setTopics(List.of(
                                new OffsetCommitRequestTopic()
                                        .setName("orders")
                                        .setPartitions(List.of(
                                                new OffsetCommitRequestPartition()
                                                        .setPartitionIndex(0)
                                                        .setCommittedOffset(42)
                                                        .setCommittedLeaderEpoch(0)
                                                        .setCommittedMetadata("m0"),
                                                new OffsetCommitRequestPartition()
                                                        .setPartitionIndex(1)
                                                        .setCommittedOffset(43))),
                                new OffsetCommitRequestTopic()
                                        .setName("nope")
                                        .setPartitions(List.of(new OffsetCommitRequestPartition()
                                                .setPartitionIndex(0)
                                                .setCommittedOffset(1))))),
                OffsetCommitResponse.class);
        assertEquals(Map.of(Errors.NONE, 2, Errors.UNKNOWN_TOPIC_OR_PARTITION, 1), committed.errorCounts());
        OffsetCommitResponse byId = call(
                wire,
                ApiKeys.OFFSET_COMMIT,
                10,
                new OffsetCommitRequestData()
                        .setGroupId(GROUP)
                        .setMemberId(memberId)
                        .setGenerationIdOrMemberEpoch(1)
                        .setTopics(List.of(
                                new OffsetCommitRequestTopic()
                                        .setTopicId(ordersId)
                                        .setPartitions(List.of(new OffsetCommitRequestPartition()
                                                .setPartitionIndex(0)
                                                .setCommittedOffset(44))),
                                new OffsetCommitRequestTopic()
                                        .setTopicId(Uuid.randomUuid())
                                        .setPartitions(List.of(new OffsetCommitRequestPartition()
                                                .setPartitionIndex(0)
                                                .setCommittedOffset(1))))),
                OffsetCommitResponse.class);
        assertEquals(Map.of(Errors.NONE, 1, Errors.UNKNOWN_TOPIC_ID, 1), byId.errorCounts());
        OffsetCommitResponse simple = call(
                wire,
                ApiKeys.OFFSET_COMMIT,
                2,
                new OffsetCommitRequestData()
                        .setGroupId("standalone")
                        .setGenerationIdOrMemberEpoch(-1)
                        .setMemberId("")
                        .setTopics(List.of(new OffsetCommitRequestTopic()
                                .setName("orders")
                                .setPartitions(List.of(new OffsetCommitRequestPartition()
                                        .setPartitionIndex(1)
                                        .setCommittedOffset(7))))),
                OffsetCommitResponse.class);
        assertEquals(Map.of(Errors.NONE, 1), simple.errorCounts());
        assertEquals(
                Map.of(Errors.ILLEGAL_GENERATION, 1),
                call(
                                wire,
                                ApiKeys.OFFSET_COMMIT,
                                9,
                                new OffsetCommitRequestData()
                                        .setGroupId(GROUP)
                                        .setMemberId(memberId)
                                        .setGenerationIdOrMemberEpoch(0)
                                        .setTopics(List.of(new OffsetCommitRequestTopic()
                                                .setName("orders")
                                                .setPartitions(List.of(new OffsetCommitRequestPartition()
                                                        .setPartitionIndex(0)
                                                        .setCommittedOffset(99))))),
                                OffsetCommitResponse.class)
                        .errorCounts());
        assertOffsets(wire);

        // The records on disk, read by Kafka's own deserializer.
        UnifiedLog log = broker.logManager
                .getLog(new TopicPartition(OffsetsTopic.NAME, OffsetsTopic.partitionFor(GROUP, 50)))
                .orElseThrow();
        assertEquals(log.logEndOffset(), log.highWatermark());
        OffsetCommitValue last = lastKafkaOffsetCommit(log, "orders", 0);
        assertEquals(44, last.offset());
        assertEquals(ordersId, last.topicId());

        for (KafkaWire connection : connections) {
            connection.close();
        }
        connections.clear();
        broker.close();
        broker = GroupBroker.start(dataDir, CONFIG);
        KafkaWire afterRestart = connect();
        findCoordinator(afterRestart);
        waitUntil(
                "standalone's partition to load",
                () -> broker.coordinator
                                .fetchOffsets("standalone", List.of(), false)
                                .error()
                        == Errors.NONE);
        assertOffsets(afterRestart);
        var described = call(
                        afterRestart,
                        ApiKeys.DESCRIBE_GROUPS,
                        5,
                        new DescribeGroupsRequestData().setGroups(List.of(GROUP)),
                        DescribeGroupsResponse.class)
                .data()
                .groups()
                .getFirst();
        assertEquals("Stable", described.groupState());
        assertEquals(memberId, described.members().getFirst().memberId());
        assertArrayEquals(
                bytes("orders-0,orders-1"), described.members().getFirst().memberAssignment());
        assertEquals(Errors.NONE, heartbeat(afterRestart, memberId, null, 1), "the member is back in its session");

        // Deleting the topic deletes its offsets.
        broker.controller
                .deleteTopics(new DeleteTopicsRequestData().setTopicNames(List.of("orders")))
                .join();
        OffsetFetchResponse afterDelete = call(
                afterRestart,
                ApiKeys.OFFSET_FETCH,
                8,
                new OffsetFetchRequestData()
                        .setGroups(List.of(
                                new OffsetFetchRequestGroup().setGroupId(GROUP).setTopics(null))),
                OffsetFetchResponse.class);
        assertTrue(afterDelete.group(GROUP).topics().isEmpty());
    }

    private void assertOffsets(KafkaWire wire) throws IOException {
        OffsetFetchResponse v8 = call(
                wire,
                ApiKeys.OFFSET_FETCH,
                8,
                new OffsetFetchRequestData()
                        .setGroups(List.of(
                                new OffsetFetchRequestGroup().setGroupId(GROUP).setTopics(null),
                                new OffsetFetchRequestGroup()
                                        .setGroupId("standalone")
                                        .setTopics(List.of(new OffsetFetchRequestTopics()
                                                .setName("orders")
                                                .setPartitionIndexes(List.of(0, 1)))))),
                OffsetFetchResponse.class);
        var all = v8.group(GROUP);
        assertEquals(Errors.NONE.code(), all.errorCode());
        assertEquals(
                List.of(44L, 43L),
                all.topics().getFirst().partitions().stream()
                        .map(p -> p.committedOffset())
                        .toList());
        var standalone = v8.group("standalone");
        assertEquals(
                List.of(-1L, 7L),
                standalone.topics().getFirst().partitions().stream()
                        .map(p -> p.committedOffset())
                        .toList());

        OffsetFetchResponse v1 = call(
                wire,
                ApiKeys.OFFSET_FETCH,
                1,
                new OffsetFetchRequestData()
                        .setGroupId(GROUP)
                        .setTopics(List.of(
                                new OffsetFetchRequestTopic().setName("orders").setPartitionIndexes(List.of(0, 1)))),
                OffsetFetchResponse.class);
        assertEquals(
                List.of(44L, 43L),
                v1.data().topics().getFirst().partitions().stream()
                        .map(p -> p.committedOffset())
                        .toList());
        assertEquals(
                List.of("", ""),
                v1.data().topics().getFirst().partitions().stream()
                        .map(p -> p.metadata())
                        .toList(),
                "the v10 commit replaced m0 with no metadata");

        Uuid ordersId =
                toWire(broker.controller.image().topic("orders").orElseThrow().id());
        OffsetFetchResponse v10 = call(
                wire,
                ApiKeys.OFFSET_FETCH,
                10,
                new OffsetFetchRequestData()
                        .setGroups(List.of(new OffsetFetchRequestGroup()
                                .setGroupId(GROUP)
                                .setTopics(List.of(new OffsetFetchRequestTopics()
                                        .setTopicId(ordersId)
                                        .setPartitionIndexes(List.of(1)))))),
                OffsetFetchResponse.class);
        var byId = v10.group(GROUP).topics().getFirst();
        assertEquals(ordersId, byId.topicId());
        assertEquals(43L, byId.partitions().getFirst().committedOffset());
    }

    private static OffsetCommitValue lastKafkaOffsetCommit(UnifiedLog log, String topic, int partition)
            throws IOException {
        GroupCoordinatorRecordSerde kafka = new GroupCoordinatorRecordSerde();
        var read = log.read(log.logStartOffset(), Integer.MAX_VALUE, FetchIsolation.HIGH_WATERMARK, true);
        ByteBuffer buffer = ByteBuffer.allocate(read.records().sizeInBytes());
        read.records().readInto(buffer, 0);
        OffsetCommitValue last = null;
        for (LogBatch batch : MemoryRecords.readableRecords(buffer.flip(), "test", 0)) {
            for (Record record : batch.records(Long.MAX_VALUE)) {
                var decoded = kafka.deserialize(record.key(), record.value());
                if (decoded.key() instanceof OffsetCommitKey key
                        && key.topic().equals(topic)
                        && key.partition() == partition
                        && decoded.value() != null) {
                    last = (OffsetCommitValue) decoded.value().message();
                }
            }
        }
        return last;
    }

    @Test
    void groupsAreListedAndOnlyEmptyOnesDeleted() throws Exception {
        KafkaWire wire = connect();
        findCoordinator(wire);
        String memberId = stableGroupOfOne(wire);
        assertEquals(Errors.NON_EMPTY_GROUP.code(), deleteGroup(wire));
        ListGroupsResponse stable = call(
                wire,
                ApiKeys.LIST_GROUPS,
                5,
                new ListGroupsRequestData().setStatesFilter(List.of("stable")).setTypesFilter(List.of("classic")),
                ListGroupsResponse.class);
        assertEquals(
                List.of(GROUP),
                stable.data().groups().stream().map(g -> g.groupId()).toList());
        assertEquals("Stable", stable.data().groups().getFirst().groupState());
        ListGroupsResponse v0 =
                call(wire, ApiKeys.LIST_GROUPS, 0, new ListGroupsRequestData(), ListGroupsResponse.class);
        assertEquals("consumer", v0.data().groups().getFirst().protocolType());

        call(
                wire,
                ApiKeys.LEAVE_GROUP,
                0,
                new LeaveGroupRequestData().setGroupId(GROUP).setMemberId(memberId),
                LeaveGroupResponse.class);
        assertEquals(Errors.NONE.code(), deleteGroup(wire));
        assertEquals(Errors.GROUP_ID_NOT_FOUND.code(), deleteGroup(wire));
        assertTrue(call(wire, ApiKeys.LIST_GROUPS, 4, new ListGroupsRequestData(), ListGroupsResponse.class)
                .data()
                .groups()
                .isEmpty());
        assertEquals(
                Errors.GROUP_ID_NOT_FOUND.code(),
                call(
                                wire,
                                ApiKeys.DESCRIBE_GROUPS,
                                6,
                                new DescribeGroupsRequestData().setGroups(List.of(GROUP)),
                                DescribeGroupsResponse.class)
                        .data()
                        .groups()
                        .getFirst()
                        .errorCode());
        assertEquals(
                Errors.INVALID_GROUP_ID,
                call(
                                wire,
                                ApiKeys.HEARTBEAT,
                                4,
                                new HeartbeatRequestData().setGroupId("").setMemberId("m"),
                                HeartbeatResponse.class)
                        .error());
    }

    private short deleteGroup(KafkaWire wire) throws IOException {
        return call(
                        wire,
                        ApiKeys.DELETE_GROUPS,
                        2,
                        new DeleteGroupsRequestData().setGroupsNames(List.of(GROUP)),
                        DeleteGroupsResponse.class)
                .data()
                .results()
                .find(GROUP)
                .errorCode();
    }

    private static Uuid toWire(io.krabka.spi.common.Uuid id) {
        return new Uuid(id.mostSignificantBits(), id.leastSignificantBits());
    }
}
