package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.group.GroupCoordinatorConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopicCollection;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Every version of the ten group APIs Kafka 4.4 defines goes over the wire and gets its answer. */
@ExtendWith(NettyLeakCheck.class)
class GroupApiVersionsIT {

    private static final String GROUP = "g";

    @TempDir
    Path dataDir;

    private GroupBroker broker;
    private KafkaWire wire;
    private Uuid ordersId;
    private final AtomicInteger correlation = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        broker = GroupBroker.start(dataDir, GroupCoordinatorConfig.DEFAULTS);
        CreatableTopicCollection topics = new CreatableTopicCollection();
        topics.add(new CreatableTopic().setName("orders").setNumPartitions(1).setReplicationFactor((short) 1));
        broker.controller
                .createTopics(new CreateTopicsRequestData().setTopics(topics))
                .join();
        var id = broker.controller.image().topic("orders").orElseThrow().id();
        ordersId = new Uuid(id.mostSignificantBits(), id.leastSignificantBits());
        wire = KafkaWire.connect(broker.address());
        call(
                ApiKeys.FIND_COORDINATOR,
                6,
                new FindCoordinatorRequestData().setCoordinatorKeys(List.of(GROUP)),
                FindCoordinatorResponse.class);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (broker.coordinator.fetchOffsets(GROUP, List.of(), false).error() != Errors.NONE) {
            assertTrue(System.nanoTime() < deadline, "the partition of the group loads");
            Thread.sleep(10);
        }
    }

    @AfterEach
    void stop() throws Exception {
        wire.close();
        broker.close();
    }

    private <R extends AbstractResponse> R call(ApiKeys key, int version, ApiMessage body, Class<R> type)
            throws IOException {
        int id = correlation.incrementAndGet();
        wire.send(key, (short) version, id, body);
        return wire.receive(key, (short) version, id, type);
    }

    private static void everyVersion(ApiKeys key, VersionCheck check) throws IOException {
        for (short version = key.oldestVersion(); version <= key.latestVersion(false); version++) {
            check.run(version);
        }
    }

    @FunctionalInterface
    private interface VersionCheck {
        void run(short version) throws IOException;
    }

    @Test
    void findCoordinator() throws IOException {
        everyVersion(ApiKeys.FIND_COORDINATOR, v -> {
            FindCoordinatorRequestData request = v >= 4
                    ? new FindCoordinatorRequestData().setCoordinatorKeys(List.of(GROUP))
                    : new FindCoordinatorRequestData().setKey(GROUP);
            FindCoordinatorResponse response =
                    call(ApiKeys.FIND_COORDINATOR, v, request, FindCoordinatorResponse.class);
            int node = v >= 4
                    ? response.data().coordinators().getFirst().nodeId()
                    : response.data().nodeId();
            assertEquals(Servers.NODE_ID, node, "version " + v);
        });
    }

    @Test
    void joinSyncHeartbeatAndLeave() throws IOException {
        JoinGroupRequestProtocolCollection protocols = new JoinGroupRequestProtocolCollection();
        protocols.add(new JoinGroupRequestProtocol().setName("range").setMetadata(new byte[] {1}));
        everyVersion(
                ApiKeys.JOIN_GROUP,
                v -> assertEquals(
                        Errors.INVALID_SESSION_TIMEOUT,
                        call(
                                        ApiKeys.JOIN_GROUP,
                                        v,
                                        new JoinGroupRequestData()
                                                .setGroupId(GROUP)
                                                .setMemberId("")
                                                .setProtocolType("consumer")
                                                .setProtocols(protocols.duplicate())
                                                .setSessionTimeoutMs(1),
                                        JoinGroupResponse.class)
                                .error(),
                        "version " + v));
        everyVersion(
                ApiKeys.SYNC_GROUP,
                v -> assertEquals(
                        Errors.UNKNOWN_MEMBER_ID,
                        call(
                                        ApiKeys.SYNC_GROUP,
                                        v,
                                        new SyncGroupRequestData()
                                                .setGroupId(GROUP)
                                                .setMemberId("m")
                                                .setGenerationId(1)
                                                .setProtocolType(v >= 5 ? "consumer" : null)
                                                .setProtocolName(v >= 5 ? "range" : null),
                                        SyncGroupResponse.class)
                                .error(),
                        "version " + v));
        everyVersion(
                ApiKeys.HEARTBEAT,
                v -> assertEquals(
                        Errors.UNKNOWN_MEMBER_ID,
                        call(
                                        ApiKeys.HEARTBEAT,
                                        v,
                                        new HeartbeatRequestData()
                                                .setGroupId(GROUP)
                                                .setMemberId("m")
                                                .setGenerationId(1),
                                        HeartbeatResponse.class)
                                .error(),
                        "version " + v));
        everyVersion(
                ApiKeys.LEAVE_GROUP,
                v -> assertEquals(
                        Errors.UNKNOWN_MEMBER_ID,
                        call(
                                        ApiKeys.LEAVE_GROUP,
                                        v,
                                        v >= 3
                                                ? new LeaveGroupRequestData()
                                                        .setGroupId(GROUP)
                                                        .setMembers(List.of(new MemberIdentity().setMemberId("m")))
                                                : new LeaveGroupRequestData()
                                                        .setGroupId(GROUP)
                                                        .setMemberId("m"),
                                        LeaveGroupResponse.class)
                                .error(),
                        "version " + v));
    }

    @Test
    void commitAndFetchOffsets() throws IOException {
        everyVersion(ApiKeys.OFFSET_COMMIT, v -> {
            OffsetCommitRequestTopic topic = v >= 10
                    ? new OffsetCommitRequestTopic().setTopicId(ordersId)
                    : new OffsetCommitRequestTopic().setName("orders");
            topic.setPartitions(List.of(
                    new OffsetCommitRequestPartition().setPartitionIndex(0).setCommittedOffset(100 + v)));
            OffsetCommitResponse response = call(
                    ApiKeys.OFFSET_COMMIT,
                    v,
                    new OffsetCommitRequestData()
                            .setGroupId(GROUP)
                            .setGenerationIdOrMemberEpoch(-1)
                            .setTopics(List.of(topic)),
                    OffsetCommitResponse.class);
            assertEquals(java.util.Map.of(Errors.NONE, 1), response.errorCounts(), "version " + v);
        });
        long committed = 100L + ApiKeys.OFFSET_COMMIT.latestVersion(false);
        everyVersion(ApiKeys.OFFSET_FETCH, v -> {
            OffsetFetchRequestData request;
            if (v >= 8) {
                OffsetFetchRequestTopics topic = v >= 10
                        ? new OffsetFetchRequestTopics().setTopicId(ordersId)
                        : new OffsetFetchRequestTopics().setName("orders");
                request = new OffsetFetchRequestData()
                        .setGroups(List.of(new OffsetFetchRequestGroup()
                                .setGroupId(GROUP)
                                .setTopics(List.of(topic.setPartitionIndexes(List.of(0))))));
            } else {
                request = new OffsetFetchRequestData()
                        .setGroupId(GROUP)
                        .setTopics(List.of(
                                new OffsetFetchRequestTopic().setName("orders").setPartitionIndexes(List.of(0))));
            }
            OffsetFetchResponse response = call(ApiKeys.OFFSET_FETCH, v, request, OffsetFetchResponse.class);
            long offset = v >= 8
                    ? response.group(GROUP)
                            .topics()
                            .getFirst()
                            .partitions()
                            .getFirst()
                            .committedOffset()
                    : response.data()
                            .topics()
                            .getFirst()
                            .partitions()
                            .getFirst()
                            .committedOffset();
            assertEquals(committed, offset, "version " + v);
        });
    }

    @Test
    void listDescribeAndDelete() throws IOException {
        call(
                ApiKeys.OFFSET_COMMIT,
                9,
                new OffsetCommitRequestData()
                        .setGroupId(GROUP)
                        .setGenerationIdOrMemberEpoch(-1)
                        .setTopics(List.of(new OffsetCommitRequestTopic()
                                .setName("orders")
                                .setPartitions(List.of(new OffsetCommitRequestPartition()
                                        .setPartitionIndex(0)
                                        .setCommittedOffset(1))))),
                OffsetCommitResponse.class);
        everyVersion(
                ApiKeys.LIST_GROUPS,
                v -> assertEquals(
                        List.of(GROUP),
                        call(ApiKeys.LIST_GROUPS, v, new ListGroupsRequestData(), ListGroupsResponse.class)
                                .data()
                                .groups()
                                .stream()
                                .map(g -> g.groupId())
                                .toList(),
                        "version " + v));
        everyVersion(
                ApiKeys.DESCRIBE_GROUPS,
                v -> assertEquals(
                        "Empty",
                        call(
                                        ApiKeys.DESCRIBE_GROUPS,
                                        v,
                                        new DescribeGroupsRequestData().setGroups(List.of(GROUP)),
                                        DescribeGroupsResponse.class)
                                .data()
                                .groups()
                                .getFirst()
                                .groupState(),
                        "version " + v));
        everyVersion(
                ApiKeys.DELETE_GROUPS,
                v -> assertEquals(
                        Errors.GROUP_ID_NOT_FOUND.code(),
                        call(
                                        ApiKeys.DELETE_GROUPS,
                                        v,
                                        new DeleteGroupsRequestData().setGroupsNames(List.of("nope")),
                                        DeleteGroupsResponse.class)
                                .data()
                                .results()
                                .find("nope")
                                .errorCode(),
                        "version " + v));
    }
}
