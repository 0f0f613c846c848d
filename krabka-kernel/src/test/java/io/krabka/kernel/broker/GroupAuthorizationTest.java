package io.krabka.kernel.broker;

import static io.krabka.kernel.broker.TableAuthorizer.ALICE;
import static io.krabka.kernel.broker.TableAuthorizer.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.HeartbeatResponseData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupResponseData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The group APIs with an authorizer, on a real group coordinator: READ or DESCRIBE or DELETE on the group as Kafka's
 * {@code KafkaApis} asks, READ or DESCRIBE on the topics, with Kafka's error codes and their placement.
 */
class GroupAuthorizationTest {

    @RegisterExtension
    final DataPlane plane = DataPlane.perTest("orders", 1, Map.of());

    private final TableAuthorizer authorizer = new TableAuthorizer();
    private AuthHelper auth;

    @BeforeEach
    void start() throws Exception {
        plane.createTopic("secret", 1, Map.of());
        auth = new AuthHelper(Optional.of(authorizer));
        for (String group : List.of("g1", "g2")) {
            assertEquals(Errors.NONE, plane.groups.findCoordinator(group).join());
            Waits.until(
                    () -> plane.groups.fetchOffsets(group, List.of(), false).error() == Errors.NONE,
                    "the coordinator of " + group + " loaded");
        }
    }

    @Test
    void membershipNeedsReadOnTheGroup() throws Exception {
        JoinGroupRequestData join = new JoinGroupRequestData()
                .setGroupId("g1")
                .setMemberId("")
                .setProtocolType("consumer")
                .setSessionTimeoutMs(10_000)
                .setRebalanceTimeoutMs(10_000);
        JoinGroupResponseData refused =
                Requests.callAs(ALICE, new JoinGroupHandler(auth, plane.groups), ApiKeys.JOIN_GROUP, join, 9);
        assertEquals(Errors.GROUP_AUTHORIZATION_FAILED.code(), refused.errorCode());
        HeartbeatResponseData heartbeat = Requests.callAs(
                ALICE,
                new HeartbeatHandler(auth, plane.groups),
                ApiKeys.HEARTBEAT,
                new HeartbeatRequestData().setGroupId("g1").setMemberId("m").setGenerationId(1),
                4);
        assertEquals(Errors.GROUP_AUTHORIZATION_FAILED.code(), heartbeat.errorCode());
        SyncGroupResponseData sync = Requests.callAs(
                ALICE,
                new SyncGroupHandler(auth, plane.groups),
                ApiKeys.SYNC_GROUP,
                new SyncGroupRequestData()
                        .setGroupId("g1")
                        .setMemberId("m")
                        .setGenerationId(1)
                        .setProtocolType("consumer")
                        .setProtocolName("range"),
                5);
        assertEquals(Errors.GROUP_AUTHORIZATION_FAILED.code(), sync.errorCode());
        LeaveGroupResponseData leave = Requests.callAs(
                ALICE,
                new LeaveGroupHandler(auth, plane.groups),
                ApiKeys.LEAVE_GROUP,
                new LeaveGroupRequestData()
                        .setGroupId("g1")
                        .setMembers(List.of(new LeaveGroupRequestData.MemberIdentity().setMemberId("m"))),
                5);
        assertEquals(Errors.GROUP_AUTHORIZATION_FAILED.code(), leave.errorCode());

        authorizer.allow(ALICE, AclOperation.READ, ResourceType.GROUP, "g1");
        JoinGroupResponseData admitted =
                Requests.callAs(ALICE, new JoinGroupHandler(auth, plane.groups), ApiKeys.JOIN_GROUP, join, 9);
        assertEquals(
                Errors.INCONSISTENT_GROUP_PROTOCOL.code(),
                admitted.errorCode(),
                "past authorization, the coordinator's own check (no protocols)");
    }

    @Test
    void offsetCommitNeedsReadOnTheGroupThenOnEachTopicBeforeItsExistenceIsChecked() throws Exception {
        OffsetCommitHandler handler = new OffsetCommitHandler(auth, plane.groups, plane.controller::image);
        OffsetCommitRequestData commit = commit("g1", "orders", "secret", "ghost", "missing");
        OffsetCommitResponseData refused = Requests.callAs(ALICE, handler, ApiKeys.OFFSET_COMMIT, commit, 9);
        refused.topics()
                .forEach(topic -> assertEquals(
                        Errors.GROUP_AUTHORIZATION_FAILED.code(),
                        topic.partitions().getFirst().errorCode()));

        authorizer
                .allow(ALICE, AclOperation.READ, ResourceType.GROUP, "g1")
                .allow(ALICE, AclOperation.READ, ResourceType.TOPIC, "orders")
                .allow(ALICE, AclOperation.READ, ResourceType.TOPIC, "missing");
        OffsetCommitResponseData response = Requests.callAs(ALICE, handler, ApiKeys.OFFSET_COMMIT, commit, 9);
        assertEquals(
                Map.of(
                        "orders", Errors.NONE,
                        "secret", Errors.TOPIC_AUTHORIZATION_FAILED,
                        "ghost", Errors.TOPIC_AUTHORIZATION_FAILED,
                        "missing", Errors.UNKNOWN_TOPIC_OR_PARTITION),
                commitErrors(response));
    }

    @Test
    void offsetFetchNeedsDescribeOnTheGroupAndHidesOrRefusesTopics() throws Exception {
        authorizer
                .allow(ALICE, AclOperation.READ, ResourceType.GROUP, "g1")
                .allow(ALICE, AclOperation.READ, ResourceType.TOPIC, TableAuthorizer.ANY);
        Requests.callAs(
                ALICE,
                new OffsetCommitHandler(auth, plane.groups, plane.controller::image),
                ApiKeys.OFFSET_COMMIT,
                commit("g1", "orders", "secret"),
                9);
        OffsetFetchHandler handler = new OffsetFetchHandler(auth, plane.groups, plane.controller::image);
        OffsetFetchRequestData all = new OffsetFetchRequestData()
                .setGroups(List.of(
                        new OffsetFetchRequestData.OffsetFetchRequestGroup()
                                .setGroupId("g1")
                                .setTopics(null),
                        new OffsetFetchRequestData.OffsetFetchRequestGroup()
                                .setGroupId("g2")
                                .setTopics(null)));
        authorizer
                .allow(BOB, AclOperation.DESCRIBE, ResourceType.GROUP, "g1")
                .allow(BOB, AclOperation.DESCRIBE, ResourceType.TOPIC, "orders");
        OffsetFetchResponseData response = Requests.callAs(BOB, handler, ApiKeys.OFFSET_FETCH, all, 9);
        OffsetFetchResponseData.OffsetFetchResponseGroup g1 = response.groups().get(0);
        assertEquals(Errors.NONE.code(), g1.errorCode());
        assertEquals(
                List.of("orders"),
                g1.topics().stream()
                        .map(OffsetFetchResponseData.OffsetFetchResponseTopics::name)
                        .toList(),
                "a fetch of every offset leaves out the topics that may not be described");
        assertEquals(
                Errors.GROUP_AUTHORIZATION_FAILED.code(),
                response.groups().get(1).errorCode());

        OffsetFetchRequestData named = new OffsetFetchRequestData()
                .setGroups(List.of(new OffsetFetchRequestData.OffsetFetchRequestGroup()
                        .setGroupId("g1")
                        .setTopics(List.of(
                                new OffsetFetchRequestData.OffsetFetchRequestTopics()
                                        .setName("secret")
                                        .setPartitionIndexes(List.of(0)),
                                new OffsetFetchRequestData.OffsetFetchRequestTopics()
                                        .setName("orders")
                                        .setPartitionIndexes(List.of(0))))));
        OffsetFetchResponseData.OffsetFetchResponseGroup asked = ((OffsetFetchResponseData)
                        Requests.callAs(BOB, handler, ApiKeys.OFFSET_FETCH, named, 9))
                .groups()
                .getFirst();
        assertEquals(
                List.of("orders", "secret"),
                asked.topics().stream()
                        .map(OffsetFetchResponseData.OffsetFetchResponseTopics::name)
                        .toList(),
                "the refused topics after the others");
        assertEquals(7L, asked.topics().get(0).partitions().getFirst().committedOffset());
        OffsetFetchResponseData.OffsetFetchResponsePartitions secret =
                asked.topics().get(1).partitions().getFirst();
        assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), secret.errorCode());
        assertEquals(-1L, secret.committedOffset());
    }

    @Test
    void listGroupsListsEveryGroupWithDescribeOnTheClusterElseTheDescribableOnes() throws Exception {
        authorizer
                .allow(ALICE, AclOperation.READ, ResourceType.GROUP, TableAuthorizer.ANY)
                .allow(ALICE, AclOperation.READ, ResourceType.TOPIC, TableAuthorizer.ANY);
        OffsetCommitHandler commits = new OffsetCommitHandler(auth, plane.groups, plane.controller::image);
        Requests.callAs(ALICE, commits, ApiKeys.OFFSET_COMMIT, commit("g1", "orders"), 9);
        Requests.callAs(ALICE, commits, ApiKeys.OFFSET_COMMIT, commit("g2", "orders"), 9);
        ListGroupsHandler handler = new ListGroupsHandler(auth, plane.groups);
        authorizer.allow(BOB, AclOperation.DESCRIBE, ResourceType.GROUP, "g2");
        ListGroupsResponseData filtered =
                Requests.callAs(BOB, handler, ApiKeys.LIST_GROUPS, new ListGroupsRequestData(), 5);
        assertEquals(List.of("g2"), groupIds(filtered));
        authorizer.allow(BOB, AclOperation.DESCRIBE, ResourceType.CLUSTER, Resource.CLUSTER_NAME);
        ListGroupsResponseData all = Requests.callAs(BOB, handler, ApiKeys.LIST_GROUPS, new ListGroupsRequestData(), 5);
        assertEquals(List.of("g1", "g2"), groupIds(all).stream().sorted().toList());
    }

    @Test
    void describeAndDeleteGroupsRefuseGroupByGroup() throws Exception {
        authorizer
                .allow(BOB, AclOperation.DESCRIBE, ResourceType.GROUP, "g2")
                .allow(BOB, AclOperation.DELETE, ResourceType.GROUP, "g2");
        DescribeGroupsResponseData described = Requests.callAs(
                BOB,
                new DescribeGroupsHandler(auth, plane.groups),
                ApiKeys.DESCRIBE_GROUPS,
                new DescribeGroupsRequestData().setGroups(List.of("g2", "g1")).setIncludeAuthorizedOperations(true),
                5);
        assertEquals(
                List.of("g1", "g2"),
                described.groups().stream()
                        .map(DescribeGroupsResponseData.DescribedGroup::groupId)
                        .toList(),
                "the refused groups first, as Kafka's");
        assertEquals(
                Errors.GROUP_AUTHORIZATION_FAILED.code(),
                described.groups().get(0).errorCode());
        assertEquals(Errors.NONE.code(), described.groups().get(1).errorCode());
        assertEquals(
                AuthorizedOperations.field(List.of(AclOperation.DESCRIBE, AclOperation.DELETE)),
                described.groups().get(1).authorizedOperations());

        DeleteGroupsResponseData deleted = Requests.callAs(
                BOB,
                new DeleteGroupsHandler(auth, plane.groups),
                ApiKeys.DELETE_GROUPS,
                new DeleteGroupsRequestData().setGroupsNames(List.of("g1", "g2", "g1")),
                2);
        assertEquals(2, deleted.results().size(), "a group named twice is answered once");
        assertEquals(
                Errors.GROUP_AUTHORIZATION_FAILED.code(),
                deleted.results().find("g1").errorCode());
        assertNotEquals(
                Errors.GROUP_AUTHORIZATION_FAILED.code(),
                deleted.results().find("g2").errorCode());
        assertEquals("g1", deleted.results().stream().toList().getLast().groupId(), "the refused after the others");
    }

    @Test
    void offsetDeleteNeedsDeleteOnTheGroupAndReadOnEachTopic() throws Exception {
        authorizer
                .allow(BOB, AclOperation.READ, ResourceType.GROUP, "g1")
                .allow(BOB, AclOperation.READ, ResourceType.TOPIC, TableAuthorizer.ANY);
        Requests.callAs(
                BOB,
                new OffsetCommitHandler(auth, plane.groups, plane.controller::image),
                ApiKeys.OFFSET_COMMIT,
                commit("g1", "orders", "secret"),
                9);
        OffsetDeleteHandler handler = new OffsetDeleteHandler(auth, plane.groups, plane.controller::image);
        OffsetDeleteRequestData delete = new OffsetDeleteRequestData().setGroupId("g1");
        for (String topic : List.of("orders", "secret")) {
            delete.topics()
                    .add(new OffsetDeleteRequestData.OffsetDeleteRequestTopic()
                            .setName(topic)
                            .setPartitions(List.of(
                                    new OffsetDeleteRequestData.OffsetDeleteRequestPartition().setPartitionIndex(0))));
        }
        OffsetDeleteResponseData refused = Requests.callAs(ALICE, handler, ApiKeys.OFFSET_DELETE, delete, 0);
        assertEquals(Errors.GROUP_AUTHORIZATION_FAILED.code(), refused.errorCode());
        authorizer
                .allow(ALICE, AclOperation.DELETE, ResourceType.GROUP, "g1")
                .allow(ALICE, AclOperation.READ, ResourceType.TOPIC, "orders");
        OffsetDeleteResponseData response = Requests.callAs(ALICE, handler, ApiKeys.OFFSET_DELETE, delete, 0);
        assertEquals(Errors.NONE.code(), response.errorCode());
        assertEquals(
                Errors.NONE.code(),
                response.topics().find("orders").partitions().find(0).errorCode());
        assertEquals(
                Errors.TOPIC_AUTHORIZATION_FAILED.code(),
                response.topics().find("secret").partitions().find(0).errorCode());
    }

    @Test
    void findCoordinatorNeedsDescribeOnTheKey() throws Exception {
        FindCoordinatorHandler handler = new FindCoordinatorHandler(
                auth,
                plane.groups::findCoordinator,
                id -> CompletableFuture.completedFuture(Errors.NONE),
                DataPlane.NODE_ID,
                listener -> java.net.InetSocketAddress.createUnresolved("127.0.0.1", 9092));
        authorizer
                .allow(ALICE, AclOperation.DESCRIBE, ResourceType.GROUP, "g1")
                .allow(ALICE, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, "t1");
        FindCoordinatorResponseData groups = Requests.callAs(
                ALICE,
                handler,
                ApiKeys.FIND_COORDINATOR,
                new FindCoordinatorRequestData()
                        .setKeyType(FindCoordinatorRequest.CoordinatorType.GROUP.id())
                        .setCoordinatorKeys(List.of("g1", "g2")),
                6);
        assertEquals(Errors.NONE.code(), groups.coordinators().get(0).errorCode());
        assertEquals(
                Errors.GROUP_AUTHORIZATION_FAILED.code(),
                groups.coordinators().get(1).errorCode());
        FindCoordinatorResponseData transaction = Requests.callAs(
                ALICE,
                handler,
                ApiKeys.FIND_COORDINATOR,
                new FindCoordinatorRequestData()
                        .setKeyType(FindCoordinatorRequest.CoordinatorType.TRANSACTION.id())
                        .setKey("t2"),
                3);
        assertEquals(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code(), transaction.errorCode());
    }

    private static OffsetCommitRequestData commit(String group, String... topics) {
        OffsetCommitRequestData commit =
                new OffsetCommitRequestData().setGroupId(group).setMemberId("").setGenerationIdOrMemberEpoch(-1);
        for (String topic : topics) {
            commit.topics()
                    .add(new OffsetCommitRequestData.OffsetCommitRequestTopic()
                            .setName(topic)
                            .setPartitions(List.of(new OffsetCommitRequestData.OffsetCommitRequestPartition()
                                    .setPartitionIndex(0)
                                    .setCommittedOffset(7))));
        }
        return commit;
    }

    private static Map<String, Errors> commitErrors(OffsetCommitResponseData response) {
        return response.topics().stream()
                .collect(java.util.stream.Collectors.toMap(
                        OffsetCommitResponseData.OffsetCommitResponseTopic::name,
                        topic -> Errors.forCode(topic.partitions().getFirst().errorCode())));
    }

    private static List<String> groupIds(ListGroupsResponseData response) {
        return response.groups().stream()
                .map(ListGroupsResponseData.ListedGroup::groupId)
                .toList();
    }
}
