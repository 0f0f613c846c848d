package io.krabka.kernel.group;

import static io.krabka.kernel.group.GroupFixture.bytes;
import static io.krabka.kernel.group.GroupFixture.joinRequest;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.LeaveGroupRequestData.MemberIdentity;
import org.apache.kafka.common.message.LeaveGroupResponseData.MemberResponse;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

/** The classic group's states and transitions, as Kafka's GroupMetadataManagerTest checks them (classic part). */
class ClassicGroupStateMachineTest {

    private final GroupFixture fixture = new GroupFixture();

    private Errors heartbeat(String memberId, String instanceId, int generation) {
        return fixture.operations.heartbeat(new HeartbeatRequestData()
                .setGroupId(GroupFixture.GROUP)
                .setMemberId(memberId)
                .setGroupInstanceId(instanceId)
                .setGenerationId(generation));
    }

    @Test
    void aNewMemberLearnsItsIdThenJoinsOnceTheInitialDelayIsOver() {
        JoinGroupResponseData required = fixture.join(9, joinRequest("", null)).join();
        assertEquals(Errors.MEMBER_ID_REQUIRED.code(), required.errorCode());
        assertTrue(required.memberId().startsWith("client-"));
        assertTrue(fixture.group().isInState(ClassicGroupState.EMPTY));
        assertTrue(fixture.group().isPendingMember(required.memberId()));

        CompletableFuture<JoinGroupResponseData> joined = fixture.join(9, joinRequest(required.memberId(), null));
        assertTrue(fixture.group().isInState(ClassicGroupState.PREPARING_REBALANCE));
        fixture.timer.advance(2_999);
        assertFalse(joined.isDone(), "group.initial.rebalance.delay.ms holds the first join");
        fixture.timer.advance(1);
        JoinGroupResponseData response = joined.join();
        assertEquals(Errors.NONE.code(), response.errorCode());
        assertEquals(1, response.generationId());
        assertEquals(required.memberId(), response.leader());
        assertEquals("range", response.protocolName());
        assertEquals("consumer", response.protocolType());
        assertEquals(1, response.members().size());
        assertArrayEquals(bytes("sub-range"), response.members().getFirst().metadata());
        assertTrue(fixture.group().isInState(ClassicGroupState.COMPLETING_REBALANCE));

        SyncGroupResponseData synced = fixture.sync(response.memberId(), 1, Map.of(response.memberId(), "assignment-1"))
                .join();
        assertArrayEquals(bytes("assignment-1"), synced.assignment());
        assertTrue(fixture.group().isInState(ClassicGroupState.STABLE));
        GroupMetadataValue written = fixture.writer
                .written(CoordinatorRecord.GroupMetadata.class)
                .getLast()
                .value();
        assertEquals(1, written.generation());
        assertEquals("range", written.protocol());
        assertArrayEquals(bytes("assignment-1"), written.members().getFirst().assignment());
    }

    @Test
    void eachMemberJoiningDuringTheInitialDelayExtendsItWithinTheRebalanceTimeout() {
        CompletableFuture<JoinGroupResponseData> first = fixture.joinWithNewId(9);
        fixture.timer.advance(2_000);
        CompletableFuture<JoinGroupResponseData> second = fixture.joinWithNewId(9);
        fixture.timer.advance(1_000);
        assertFalse(first.isDone(), "a member joined during the delay: the delay starts again");
        fixture.timer.advance(3_000);
        assertEquals(1, first.join().generationId());
        assertEquals(1, second.join().generationId());
        assertEquals(first.join().leader(), second.join().leader());
    }

    @Test
    void withoutAnInitialDelayTheFirstJoinWaitsForTheMembersThatHaveTheirId() {
        GroupFixture noDelay =
                new GroupFixture(GroupCoordinatorConfig.DEFAULTS.withSessionTimeouts(6_000, 1_800_000, 0));
        // Two consumers subscribe together: both learn their ids before either joins with it.
        String a = noDelay.join(9, joinRequest("", null)).join().memberId();
        String b = noDelay.join(9, joinRequest("", null)).join().memberId();
        CompletableFuture<JoinGroupResponseData> aJoin = noDelay.join(9, joinRequest(a, null));
        noDelay.timer.advance(0);
        assertFalse(aJoin.isDone(), "b has its id and is about to join");
        CompletableFuture<JoinGroupResponseData> bJoin = noDelay.join(9, joinRequest(b, null));
        assertEquals(1, aJoin.join().generationId());
        assertEquals(1, bJoin.join().generationId());
        assertEquals(2, aJoin.join().members().size());

        // A member that has its id but never joins is waited for until its session ends, not longer.
        GroupFixture lost = new GroupFixture(GroupCoordinatorConfig.DEFAULTS.withSessionTimeouts(6_000, 1_800_000, 0));
        String c = lost.join(9, joinRequest("", null)).join().memberId();
        lost.join(9, joinRequest("", null)).join();
        CompletableFuture<JoinGroupResponseData> cJoin = lost.join(9, joinRequest(c, null));
        lost.timer.advance(GroupFixture.SESSION_MS - 1);
        assertFalse(cJoin.isDone());
        lost.timer.advance(1);
        assertEquals(1, cJoin.join().generationId());
        assertEquals(1, cJoin.join().members().size());
    }

    @Test
    void aSecondMemberRebalancesAStableGroup() {
        String a = fixture.stableGroupOfOne();
        // JoinGroup v3: no member id round trip.
        CompletableFuture<JoinGroupResponseData> bJoin = fixture.join(3, joinRequest("", null));
        assertTrue(fixture.group().isInState(ClassicGroupState.PREPARING_REBALANCE));
        assertFalse(bJoin.isDone());
        assertEquals(Errors.REBALANCE_IN_PROGRESS, heartbeat(a, null, 1));

        CompletableFuture<JoinGroupResponseData> aJoin = fixture.join(9, joinRequest(a, null));
        JoinGroupResponseData aResponse = aJoin.join();
        JoinGroupResponseData bResponse = bJoin.join();
        String b = bResponse.memberId();
        assertEquals(2, aResponse.generationId());
        assertEquals(2, bResponse.generationId());
        assertEquals(a, aResponse.leader());
        assertEquals(2, aResponse.members().size(), "the leader gets every member");
        assertTrue(bResponse.members().isEmpty());

        CompletableFuture<SyncGroupResponseData> bSync = fixture.sync(b, 2, Map.of());
        assertFalse(bSync.isDone(), "a follower waits for the leader's assignment");
        assertEquals(Errors.NONE, heartbeat(b, null, 2), "heartbeats go on while the leader assigns");
        SyncGroupResponseData aSync =
                fixture.sync(a, 2, Map.of(a, "a-parts", b, "b-parts")).join();
        assertArrayEquals(bytes("a-parts"), aSync.assignment());
        assertArrayEquals(bytes("b-parts"), bSync.join().assignment());
        assertTrue(fixture.group().isInState(ClassicGroupState.STABLE));

        assertEquals(Errors.ILLEGAL_GENERATION, heartbeat(a, null, 1));
        assertEquals(Errors.UNKNOWN_MEMBER_ID, heartbeat("someone", null, 2));
        assertEquals(Errors.NONE, heartbeat(a, null, 2));
        assertEquals(
                Errors.ILLEGAL_GENERATION.code(),
                fixture.sync(a, 1, Map.of()).join().errorCode());
    }

    @Test
    void aMemberThatStopsHeartbeatingIsRemovedAfterItsSession() {
        String a = fixture.stableGroupOfOne();
        CompletableFuture<JoinGroupResponseData> bJoin = fixture.join(3, joinRequest("", null));
        fixture.join(9, joinRequest(a, null)).join();
        String b = bJoin.join().memberId();
        fixture.sync(b, 2, Map.of());
        fixture.sync(a, 2, Map.of(a, "a", b, "b")).join();

        fixture.timer.advance(GroupFixture.SESSION_MS / 2);
        assertEquals(Errors.NONE, heartbeat(a, null, 2));
        fixture.timer.advance(GroupFixture.SESSION_MS / 2 + 1);
        assertFalse(fixture.group().hasMember(b), "b's session ran out");
        assertTrue(fixture.group().isInState(ClassicGroupState.PREPARING_REBALANCE));
        assertEquals(Errors.REBALANCE_IN_PROGRESS, heartbeat(a, null, 2));
        JoinGroupResponseData rejoined = fixture.join(9, joinRequest(a, null)).join();
        assertEquals(3, rejoined.generationId());
        assertEquals(1, rejoined.members().size());
    }

    @Test
    void aDynamicMemberThatDoesNotRejoinIsDroppedAtTheRebalanceTimeout() {
        String a = fixture.stableGroupOfOne();
        // b joins (v3); a never rejoins but keeps heartbeating.
        CompletableFuture<JoinGroupResponseData> bJoin = fixture.join(3, joinRequest("", null));
        for (int i = 0; i < 5; i++) {
            fixture.timer.advance(GroupFixture.SESSION_MS / 2);
            assertEquals(Errors.REBALANCE_IN_PROGRESS, heartbeat(a, null, 1));
        }
        fixture.timer.advance(GroupFixture.REBALANCE_MS);
        JoinGroupResponseData b = bJoin.join();
        assertEquals(2, b.generationId());
        assertEquals(b.memberId(), b.leader(), "the leader that did not rejoin gave way");
        assertFalse(fixture.group().hasMember(a));
        assertEquals(Errors.UNKNOWN_MEMBER_ID, heartbeat(a, null, 2));
    }

    @Test
    void aStaticMemberRestartingTakesItsPlaceWithoutARebalance() {
        CompletableFuture<JoinGroupResponseData> leaderJoin = fixture.join(5, joinRequest("", "instance-a"));
        CompletableFuture<JoinGroupResponseData> followerJoin = fixture.join(5, joinRequest("", "instance-b"));
        fixture.timer.advance(3_000);
        fixture.timer.advance(3_000);
        String a = leaderJoin.join().memberId();
        String b = followerJoin.join().memberId();
        assertEquals(a, leaderJoin.join().leader());
        fixture.sync(b, "instance-b", 1, Map.of());
        fixture.sync(a, "instance-a", 1, Map.of(a, "a-parts", b, "b-parts")).join();

        // The follower restarts: a new member id, its old assignment, the same generation.
        JoinGroupResponseData restarted =
                fixture.join(5, joinRequest("", "instance-b")).join();
        assertEquals(Errors.NONE.code(), restarted.errorCode());
        assertNotEquals(b, restarted.memberId());
        assertEquals(1, restarted.generationId());
        assertTrue(fixture.group().isInState(ClassicGroupState.STABLE), "no rebalance");
        assertEquals(Errors.FENCED_INSTANCE_ID, heartbeat(b, "instance-b", 1));
        assertEquals(Errors.NONE, heartbeat(restarted.memberId(), "instance-b", 1));
        assertArrayEquals(
                bytes("b-parts"),
                fixture.sync(restarted.memberId(), "instance-b", 1, Map.of())
                        .join()
                        .assignment());

        // The leader restarts with v9: it keeps the assignment it made (KIP-814) and is told to skip assigning.
        JoinGroupResponseData leader =
                fixture.join(9, joinRequest("", "instance-a")).join();
        assertTrue(leader.skipAssignment());
        assertEquals(leader.memberId(), leader.leader());
        assertEquals(2, leader.members().size());
        assertTrue(fixture.group().isInState(ClassicGroupState.STABLE));

        // A leader of v5 (librdkafka's) cannot skip assigning: it is told the previous leader's id, syncs as a
        // follower and gets its assignment back, without a rebalance, as Kafka answers it.
        String previousLeader = leader.memberId();
        JoinGroupResponseData oldLeader =
                fixture.join(5, joinRequest("", "instance-a")).join();
        assertEquals(Errors.NONE.code(), oldLeader.errorCode());
        assertEquals(previousLeader, oldLeader.leader());
        assertFalse(oldLeader.skipAssignment());
        assertTrue(oldLeader.members().isEmpty());
        assertEquals(1, oldLeader.generationId());
        assertTrue(fixture.group().isInState(ClassicGroupState.STABLE));
        assertTrue(fixture.group().isLeader(oldLeader.memberId()), "the group's leader is the new instance");
        assertArrayEquals(
                bytes("a-parts"),
                fixture.sync(oldLeader.memberId(), "instance-a", 1, Map.of())
                        .join()
                        .assignment());
    }

    @Test
    void aStaticMemberRestartingWithNewMetadataKeepsItsPlaceUnlessTheGroupsProtocolChanges() {
        CompletableFuture<JoinGroupResponseData> aJoin =
                fixture.join(5, joinRequest("", "instance-a", "range", "roundrobin"));
        CompletableFuture<JoinGroupResponseData> bJoin =
                fixture.join(5, joinRequest("", "instance-b", "range", "roundrobin"));
        fixture.timer.advance(6_000);
        String a = aJoin.join().memberId();
        String b = bJoin.join().memberId();
        fixture.sync(b, "instance-b", 1, Map.of());
        fixture.sync(a, "instance-a", 1, Map.of(a, "a-parts", b, "b-parts")).join();

        // librdkafka's subscription metadata after a restart differs (owned partitions, generation): no rebalance.
        JoinGroupRequestData newMetadata = joinRequest("", "instance-b", "range", "roundrobin");
        newMetadata.protocols().find("range").setMetadata(bytes("sub-range-after-restart"));
        JoinGroupResponseData restarted = fixture.join(5, newMetadata).join();
        assertEquals(Errors.NONE.code(), restarted.errorCode());
        assertEquals(1, restarted.generationId());
        assertTrue(fixture.group().isInState(ClassicGroupState.STABLE));
        assertArrayEquals(
                bytes("b-parts"),
                fixture.sync(restarted.memberId(), "instance-b", 1, Map.of())
                        .join()
                        .assignment());

        // Protocols that change the one the group selects: a rebalance.
        fixture.join(5, joinRequest("", "instance-b", "roundrobin"));
        assertTrue(fixture.group().isInState(ClassicGroupState.PREPARING_REBALANCE));
    }

    @Test
    void aStaticMemberWhosePlaceCannotBeWrittenLeavesTheOldInstanceInPlace() {
        CompletableFuture<JoinGroupResponseData> joined = fixture.join(5, joinRequest("", "instance-a"));
        fixture.timer.advance(3_000);
        String a = joined.join().memberId();
        fixture.sync(a, "instance-a", 1, Map.of(a, "a-parts")).join();

        fixture.writer.failWith = Errors.NOT_COORDINATOR;
        JoinGroupResponseData refused =
                fixture.join(5, joinRequest("", "instance-a")).join();
        assertEquals(Errors.NOT_COORDINATOR.code(), refused.errorCode());
        assertEquals("", refused.memberId());
        assertEquals(a, fixture.group().staticMemberId("instance-a"));
        assertEquals(Errors.NONE, heartbeat(a, "instance-a", 1));
        assertArrayEquals(bytes("a-parts"), fixture.group().member(a).assignment());
        assertTrue(fixture.group().isInState(ClassicGroupState.STABLE));
    }

    @Test
    void leaveGroupRemovesABatchOfMembers() {
        String a = fixture.stableGroupOfOne();
        CompletableFuture<JoinGroupResponseData> bJoin = fixture.join(5, joinRequest("", "instance-b"));
        fixture.join(9, joinRequest(a, null)).join();
        String b = bJoin.join().memberId();
        fixture.sync(b, "instance-b", 2, Map.of());
        fixture.sync(a, 2, Map.of(a, "a", b, "b")).join();

        List<MemberResponse> responses = new java.util.ArrayList<>();
        Errors error = fixture.operations.leaveGroup(
                GroupFixture.GROUP,
                List.of(
                        new MemberIdentity().setMemberId(a),
                        new MemberIdentity().setMemberId("").setGroupInstanceId("instance-b"),
                        new MemberIdentity().setMemberId("nobody")),
                responses);
        assertEquals(Errors.NONE, error);
        assertEquals(
                List.of(Errors.NONE.code(), Errors.NONE.code(), Errors.UNKNOWN_MEMBER_ID.code()),
                responses.stream().map(MemberResponse::errorCode).toList());
        assertTrue(fixture.group().isInState(ClassicGroupState.EMPTY));
        assertEquals(3, fixture.group().generationId());
        GroupMetadataValue written = fixture.writer
                .written(CoordinatorRecord.GroupMetadata.class)
                .getLast()
                .value();
        assertTrue(written.members().isEmpty());
        assertNull(written.protocol());
    }

    @Test
    void leavingAGroupThatDoesNotExistNamesEachMemberUnknown() {
        List<MemberResponse> responses = new java.util.ArrayList<>();
        assertEquals(
                Errors.NONE,
                fixture.operations.leaveGroup(
                        "nowhere",
                        List.of(
                                new MemberIdentity().setMemberId("m1"),
                                new MemberIdentity().setMemberId("").setGroupInstanceId("i")),
                        responses));
        assertEquals(
                List.of(Errors.UNKNOWN_MEMBER_ID.code(), Errors.UNKNOWN_MEMBER_ID.code()),
                responses.stream().map(MemberResponse::errorCode).toList());
    }

    @Test
    void aStaticMemberLeavingWithAnotherMemberIdIsFenced() {
        CompletableFuture<JoinGroupResponseData> join = fixture.join(5, joinRequest("", "instance-a"));
        fixture.timer.advance(3_000);
        String a = join.join().memberId();
        List<MemberResponse> responses = new java.util.ArrayList<>();
        fixture.operations.leaveGroup(
                GroupFixture.GROUP,
                List.of(new MemberIdentity().setMemberId("stale").setGroupInstanceId("instance-a")),
                responses);
        assertEquals(Errors.FENCED_INSTANCE_ID.code(), responses.getFirst().errorCode());
        assertTrue(fixture.group().hasMember(a));
    }

    @Test
    void joinRequestsKafkaRefuses() {
        assertEquals(
                Errors.INVALID_SESSION_TIMEOUT.code(),
                fixture.join(9, joinRequest("", null).setSessionTimeoutMs(5_999))
                        .join()
                        .errorCode());
        assertEquals(
                Errors.INVALID_SESSION_TIMEOUT.code(),
                fixture.join(9, joinRequest("", null).setSessionTimeoutMs(1_800_001))
                        .join()
                        .errorCode());
        assertEquals(
                Errors.UNKNOWN_MEMBER_ID.code(),
                fixture.join(9, joinRequest("ghost", null)).join().errorCode());
        assertEquals(
                Errors.INCONSISTENT_GROUP_PROTOCOL.code(),
                fixture.join(9, joinRequest("", null).setProtocolType(""))
                        .join()
                        .errorCode());

        String a = fixture.stableGroupOfOne();
        assertEquals(
                Errors.INCONSISTENT_GROUP_PROTOCOL.code(),
                fixture.join(9, joinRequest("", null, "roundrobin")).join().errorCode(),
                "no protocol in common with the group");
        assertEquals(
                Errors.INCONSISTENT_GROUP_PROTOCOL.code(),
                fixture.join(9, joinRequest("", null).setProtocolType("connect"))
                        .join()
                        .errorCode());
        assertEquals(
                Errors.UNKNOWN_MEMBER_ID.code(),
                fixture.join(9, joinRequest("ghost", null)).join().errorCode());
        assertTrue(fixture.group().hasMember(a));
    }

    @Test
    void theGroupMaxSizeIsEnforcedOnNewMembers() {
        GroupFixture small = new GroupFixture(new GroupCoordinatorConfig(
                6_000,
                1_800_000,
                0,
                1,
                300_000,
                50,
                (short) 1,
                104_857_600,
                io.krabka.kernel.record.CompressionType.NONE,
                4096,
                10_080,
                600_000));
        small.join(3, joinRequest("", null));
        assertEquals(
                Errors.GROUP_MAX_SIZE_REACHED.code(),
                small.join(3, joinRequest("", null)).join().errorCode());
    }

    @Test
    void aFailedAssignmentWriteSendsTheGroupBackToRebalance() {
        CompletableFuture<JoinGroupResponseData> joined = fixture.joinWithNewId(9);
        fixture.timer.advance(3_000);
        String a = joined.join().memberId();
        fixture.writer.failWith = Errors.NOT_COORDINATOR;
        assertEquals(
                Errors.NOT_COORDINATOR.code(),
                fixture.sync(a, 1, Map.of(a, "x")).join().errorCode());
        assertTrue(fixture.group().isInState(ClassicGroupState.PREPARING_REBALANCE));
    }

    @Test
    void membersThatDoNotSyncWithinTheRebalanceTimeoutAreRemoved() {
        String a = fixture.stableGroupOfOne();
        CompletableFuture<JoinGroupResponseData> bJoin =
                fixture.join(3, joinRequest("", null).setRebalanceTimeoutMs(5_000));
        fixture.join(9, joinRequest(a, null).setRebalanceTimeoutMs(5_000)).join();
        String b = bJoin.join().memberId();
        fixture.sync(a, 2, Map.of(a, "a", b, "b")).join();
        // b never sends SyncGroup: the rebalance timeout (shorter than its session) removes it.
        fixture.timer.advance(4_999);
        assertTrue(fixture.group().hasMember(b));
        fixture.timer.advance(1);
        assertFalse(fixture.group().hasMember(b));
        assertTrue(fixture.group().isInState(ClassicGroupState.PREPARING_REBALANCE));
    }

    @Test
    void listAndDescribe() {
        String a = fixture.stableGroupOfOne();
        var listed = fixture.operations.listGroups(List.of("STABLE"), List.of());
        assertEquals(1, listed.size());
        assertEquals("Stable", listed.getFirst().groupState());
        assertEquals("classic", listed.getFirst().groupType());
        assertEquals("consumer", listed.getFirst().protocolType());
        assertTrue(fixture.operations.listGroups(List.of("Empty"), List.of()).isEmpty());
        assertTrue(fixture.operations.listGroups(List.of(), List.of("consumer")).isEmpty());

        var described = fixture.operations.describeGroup(GroupFixture.GROUP, (short) 5);
        assertEquals("Stable", described.groupState());
        assertEquals("range", described.protocolData());
        assertEquals(a, described.members().getFirst().memberId());
        assertEquals("/127.0.0.1", described.members().getFirst().clientHost());
        assertArrayEquals(bytes("assignment-1"), described.members().getFirst().memberAssignment());
        assertArrayEquals(bytes("sub-range"), described.members().getFirst().memberMetadata());

        assertEquals(
                Errors.GROUP_ID_NOT_FOUND.code(),
                fixture.operations.describeGroup("unknown", (short) 6).errorCode());
        var old = fixture.operations.describeGroup("unknown", (short) 5);
        assertEquals(Errors.NONE.code(), old.errorCode());
        assertEquals("Dead", old.groupState());
    }
}
