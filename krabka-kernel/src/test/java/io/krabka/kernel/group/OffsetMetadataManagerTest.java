package io.krabka.kernel.group;

import static io.krabka.kernel.group.GroupFixture.joinRequest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.coordinator.CoordinatorLogWriter.TransactionalProducer;
import io.krabka.kernel.log.TransactionResult;
import io.krabka.kernel.log.VerificationGuard;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.LeaveGroupRequestData.MemberIdentity;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

/** Offset commits against the group's generation, fetches, deletion, expiry and replay from the log's records. */
class OffsetMetadataManagerTest {

    private static final String GROUP = GroupFixture.GROUP;
    private final GroupFixture fixture = new GroupFixture();

    private static List<PartitionCommit> commits(long offset) {
        return List.of(
                new PartitionCommit("orders", Uuid.ZERO_UUID, 0, offset, 3, "m"),
                new PartitionCommit("orders", Uuid.ZERO_UUID, 1, offset + 1, 3, null));
    }

    private List<Errors> commit(String memberId, int generation, List<PartitionCommit> commits) {
        Errors error = fixture.offsets.validateCommit(GROUP, memberId, null, generation);
        return error != Errors.NONE ? List.of(error) : fixture.offsets.commit(GROUP, memberId, commits, -1);
    }

    @Test
    void aStandaloneConsumerCommitsWithoutAGeneration() {
        assertEquals(
                List.of(Errors.ILLEGAL_GENERATION),
                commit("", 4, commits(10)),
                "a generation for a group that does not exist");
        assertEquals(List.of(Errors.NONE, Errors.NONE), commit("", -1, commits(10)));
        assertTrue(fixture.group().isInState(ClassicGroupState.EMPTY), "a simple group holds the offsets");
        assertEquals(
                Errors.NONE,
                fixture.offsets.validateCommit(GROUP, "a-former-member", null, -1),
                "an empty group takes offsets without a generation, whoever sends them");
        OffsetCommitValue value = fixture.offsets.committed(GROUP, "orders", 0);
        assertEquals(10, value.offset());
        assertEquals(3, value.leaderEpoch());
        assertEquals("m", value.metadata());
        assertEquals(fixture.timer.millis(), value.commitTimestamp());
        assertEquals("", fixture.offsets.committed(GROUP, "orders", 1).metadata());
        assertEquals(
                2, fixture.writer.written(CoordinatorRecord.OffsetCommit.class).size());
    }

    @Test
    void membersCommitInTheirGeneration() {
        String a = fixture.stableGroupOfOne();
        assertEquals(List.of(Errors.NONE, Errors.NONE), commit(a, 1, commits(5)));
        assertEquals(List.of(Errors.ILLEGAL_GENERATION), commit(a, 0, commits(6)));
        assertEquals(List.of(Errors.UNKNOWN_MEMBER_ID), commit("stranger", 1, commits(6)));
        assertEquals(
                List.of(Errors.UNKNOWN_MEMBER_ID), commit("", -1, commits(6)), "a simple commit into a live group");
        assertEquals(
                Errors.UNKNOWN_MEMBER_ID,
                fixture.offsets.validateCommit(GROUP, a, "instance-x", 1),
                "an instance id the group does not know");

        // A new member starts a rebalance; once the join phase ends, commits wait for the assignment.
        CompletableFuture<JoinGroupResponseData> b = fixture.join(3, joinRequest("", null));
        assertEquals(List.of(Errors.NONE, Errors.NONE), commit(a, 1, commits(7)), "PreparingRebalance still commits");
        fixture.join(9, joinRequest(a, null)).join();
        assertTrue(b.isDone());
        assertEquals(List.of(Errors.REBALANCE_IN_PROGRESS), commit(a, 2, commits(8)));
        assertEquals(7, fixture.offsets.committed(GROUP, "orders", 0).offset());
    }

    @Test
    void tooMuchMetadataFailsItsPartitionOnly() {
        String metadata = "x".repeat(4097);
        List<Errors> errors = commit(
                "",
                -1,
                List.of(
                        new PartitionCommit("orders", Uuid.ZERO_UUID, 0, 1, -1, metadata),
                        new PartitionCommit("orders", Uuid.ZERO_UUID, 1, 1, -1, "ok")));
        assertEquals(List.of(Errors.OFFSET_METADATA_TOO_LARGE, Errors.NONE), errors);
        assertNull(fixture.offsets.committed(GROUP, "orders", 0));
    }

    @Test
    void aFailedWriteCommitsNothing() {
        fixture.writer.failWith = Errors.NOT_COORDINATOR;
        assertEquals(List.of(Errors.NOT_COORDINATOR, Errors.NOT_COORDINATOR), commit("", -1, commits(1)));
        assertNull(fixture.offsets.committed(GROUP, "orders", 0));
    }

    @Test
    void onlyEmptyGroupsAreDeleted() {
        assertEquals(Errors.GROUP_ID_NOT_FOUND, fixture.offsets.deleteGroup(GROUP));
        String a = fixture.stableGroupOfOne();
        commit(a, 1, commits(3));
        assertEquals(Errors.NON_EMPTY_GROUP, fixture.offsets.deleteGroup(GROUP));
        fixture.operations.leaveGroup(GROUP, List.of(new MemberIdentity().setMemberId(a)), new java.util.ArrayList<>());
        assertTrue(fixture.group().isInState(ClassicGroupState.EMPTY));
        fixture.writer.records.clear();
        assertEquals(Errors.NONE, fixture.offsets.deleteGroup(GROUP));
        assertTrue(fixture.groups.group(GROUP).isEmpty());
        assertFalse(fixture.offsets.hasOffsets(GROUP));
        assertTrue(fixture.writer.records.stream().allMatch(CoordinatorRecord::isTombstone));
        assertEquals(3, fixture.writer.records.size(), "two offsets and the group");
    }

    @Test
    void offsetDeleteWritesATombstoneForEachOffsetIncludingAnOpenTransactions() {
        assertEquals(
                OffsetDeletion.failed(Errors.GROUP_ID_NOT_FOUND),
                fixture.offsets.deleteOffsets(GROUP, Map.of("orders", List.of(0))));
        commit("", -1, commits(1));
        fixture.offsets.commitTransactional(
                GROUP,
                new TransactionalProducer(7, (short) 0, VerificationGuard.SENTINEL),
                List.of(new PartitionCommit("audit", Uuid.ZERO_UUID, 0, 9, -1, "")));
        assertTrue(fixture.offsets.hasPendingTransactionalOffsets(GROUP, new TopicPartition("audit", 0)));
        fixture.writer.records.clear();

        OffsetDeletion deletion =
                fixture.offsets.deleteOffsets(GROUP, Map.of("orders", List.of(0, 5), "audit", List.of(0)));

        assertEquals(Errors.NONE, deletion.error());
        assertEquals(
                Map.of(
                        new TopicPartition("orders", 0), Errors.NONE,
                        new TopicPartition("orders", 5), Errors.NONE,
                        new TopicPartition("audit", 0), Errors.NONE),
                deletion.partitions(),
                "a partition without an offset answers NONE too");
        assertEquals(2, fixture.writer.records.size(), "no tombstone for a partition without an offset");
        assertTrue(fixture.writer.records.stream().allMatch(CoordinatorRecord::isTombstone));
        assertNull(fixture.offsets.committed(GROUP, "orders", 0));
        assertEquals(2, fixture.offsets.committed(GROUP, "orders", 1).offset());
        assertFalse(fixture.offsets.hasPendingTransactionalOffsets(GROUP, new TopicPartition("audit", 0)));
        fixture.offsets.replayEndTransactionMarker(7, TransactionResult.COMMIT, group -> true);
        assertNull(fixture.offsets.committed(GROUP, "audit", 0), "the transaction's commit brings nothing back");
    }

    @Test
    void offsetDeleteRefusesAGroupWithMembersUnlessItIsAConsumerGroupAndThenItsTopics() {
        String a = fixture.stableGroupOfOne();
        commit(a, 1, commits(3));
        // The members' subscriptions do not parse: a consumer group is then taken to consume every topic.
        OffsetDeletion unknownSubscription = fixture.offsets.deleteOffsets(GROUP, Map.of("orders", List.of(0)));
        assertEquals(
                Map.of(new TopicPartition("orders", 0), Errors.GROUP_SUBSCRIBED_TO_TOPIC),
                unknownSubscription.partitions());
        assertEquals(3, fixture.offsets.committed(GROUP, "orders", 0).offset());

        GroupFixture connect = new GroupFixture();
        JoinGroupResponseData required = connect.join(9, joinRequest("", null).setProtocolType("connect"))
                .join();
        connect.join(9, joinRequest(required.memberId(), null).setProtocolType("connect"));
        assertEquals(
                OffsetDeletion.failed(Errors.NON_EMPTY_GROUP),
                connect.offsets.deleteOffsets(GROUP, Map.of("orders", List.of(0))),
                "a group of another protocol with members");
    }

    @Test
    void aFailedOffsetDeleteDeletesNothing() {
        commit("", -1, commits(1));
        fixture.writer.failWith = Errors.NOT_COORDINATOR;
        assertEquals(
                OffsetDeletion.failed(Errors.NOT_COORDINATOR),
                fixture.offsets.deleteOffsets(GROUP, Map.of("orders", List.of(0))));
        assertEquals(1, fixture.offsets.committed(GROUP, "orders", 0).offset());
    }

    @Test
    void theOffsetsOfAStandaloneConsumerExpireAfterTheRetention() {
        commit("", -1, commits(1));
        long retention = GroupCoordinatorConfig.DEFAULTS.offsetsRetentionMs();
        fixture.timer.advance(retention - 1);
        fixture.offsets.expireOffsets(group -> true);
        assertTrue(fixture.offsets.hasOffsets(GROUP));
        fixture.timer.advance(1);
        fixture.offsets.expireOffsets(group -> true);
        assertFalse(fixture.offsets.hasOffsets(GROUP));
        assertTrue(fixture.groups.group(GROUP).isEmpty(), "the empty group left without offsets is deleted");
        assertTrue(fixture.writer.records.subList(2, 5).stream().allMatch(CoordinatorRecord::isTombstone));
    }

    @Test
    void theOffsetsOfAConsumerGroupExpireOnlyOnceItIsEmpty() {
        String a = fixture.stableGroupOfOne();
        commit(a, 1, commits(1));
        long retention = GroupCoordinatorConfig.DEFAULTS.offsetsRetentionMs();
        // A live member heartbeats; the offsets stay however old they are.
        for (long passed = 0; passed <= retention; passed += 5_000) {
            fixture.timer.advance(5_000);
            fixture.operations.heartbeat(new org.apache.kafka.common.message.HeartbeatRequestData()
                    .setGroupId(GROUP)
                    .setMemberId(a)
                    .setGenerationId(1));
        }
        fixture.offsets.expireOffsets(group -> true);
        assertTrue(fixture.offsets.hasOffsets(GROUP));
        fixture.operations.leaveGroup(GROUP, List.of(new MemberIdentity().setMemberId(a)), new java.util.ArrayList<>());
        fixture.timer.advance(retention - 1);
        fixture.offsets.expireOffsets(group -> true);
        assertTrue(fixture.offsets.hasOffsets(GROUP), "retention counts from the time the group became empty");
        fixture.timer.advance(1);
        fixture.offsets.expireOffsets(group -> false);
        assertTrue(fixture.offsets.hasOffsets(GROUP), "groups of partitions not served are left alone");
        fixture.offsets.expireOffsets(group -> true);
        assertFalse(fixture.offsets.hasOffsets(GROUP));
    }

    @Test
    void aStableConsumerGroupKeepsTheOffsetsOfItsTopicsAndLosesTheOthers() {
        GroupFixture oneMinute = new GroupFixture(new GroupCoordinatorConfig(
                6_000,
                1_800_000,
                3_000,
                Integer.MAX_VALUE,
                300_000,
                50,
                (short) 1,
                104_857_600,
                io.krabka.kernel.record.CompressionType.NONE,
                4096,
                1,
                600_000));
        byte[] subscription = org.apache.kafka.common.utils.Utils.toArray(
                org.apache.kafka.clients.consumer.internals.ConsumerProtocol.serializeSubscription(
                        new org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription(
                                List.of("orders"))));
        JoinGroupResponseData required =
                oneMinute.join(9, joinRequest("", null)).join();
        var request = joinRequest(required.memberId(), null);
        request.protocols().forEach(protocol -> protocol.setMetadata(subscription));
        CompletableFuture<JoinGroupResponseData> joined = oneMinute.join(9, request);
        oneMinute.timer.advance(3_000);
        String a = joined.join().memberId();
        oneMinute.sync(a, 1, Map.of(a, "orders-0")).join();
        Errors error = oneMinute.offsets.validateCommit(GROUP, a, null, 1);
        assertEquals(Errors.NONE, error);
        oneMinute.offsets.commit(
                GROUP,
                a,
                List.of(
                        new PartitionCommit("orders", Uuid.ZERO_UUID, 0, 5, -1, ""),
                        new PartitionCommit("legacy", Uuid.ZERO_UUID, 0, 6, -1, "")),
                -1);
        for (int seconds = 0; seconds < 60; seconds += 5) {
            oneMinute.timer.advance(5_000);
            oneMinute.operations.heartbeat(new org.apache.kafka.common.message.HeartbeatRequestData()
                    .setGroupId(GROUP)
                    .setMemberId(a)
                    .setGenerationId(1));
        }
        oneMinute.offsets.expireOffsets(group -> true);
        assertEquals(5, oneMinute.offsets.committed(GROUP, "orders", 0).offset(), "a topic the group consumes");
        assertNull(oneMinute.offsets.committed(GROUP, "legacy", 0), "a topic no member subscribes to");
        assertTrue(oneMinute.group().isInState(ClassicGroupState.STABLE));
    }

    @Test
    void anExpireTimestampOfOldVersionsIsKept() {
        fixture.offsets.commit(GROUP, "", commits(1), 60_000);
        assertEquals(
                fixture.timer.millis() + 60_000,
                fixture.offsets.committed(GROUP, "orders", 0).expireTimestamp());
        fixture.timer.advance(60_000);
        fixture.offsets.expireOffsets(group -> true);
        assertFalse(fixture.offsets.hasOffsets(GROUP));
    }

    @Test
    void theOffsetsOfDeletedTopicsAreDeleted() {
        commit(
                "",
                -1,
                List.of(
                        new PartitionCommit("orders", Uuid.ZERO_UUID, 0, 1, -1, ""),
                        new PartitionCommit("audit", Uuid.ZERO_UUID, 0, 2, -1, "")));
        fixture.writer.records.clear();
        fixture.offsets.deleteTopics(java.util.Set.of("orders"), group -> true);
        assertNull(fixture.offsets.committed(GROUP, "orders", 0));
        assertEquals(2, fixture.offsets.committed(GROUP, "audit", 0).offset());
        assertEquals(
                List.of(new CoordinatorRecord.OffsetCommit(new OffsetCommitKey(GROUP, "orders", 0), null)),
                fixture.writer.records);
    }

    @Test
    void theRecordsWrittenRebuildTheGroupsAndOffsets() {
        String a = fixture.stableGroupOfOne();
        commit(a, 1, commits(9));
        commit(a, 1, List.of(new PartitionCommit("orders", Uuid.ZERO_UUID, 0, 11, 4, "later")));
        fixture.offsets.commit("simple", "", List.of(new PartitionCommit("audit", Uuid.ZERO_UUID, 2, 77, -1, "")), -1);
        fixture.offsets.deleteGroup("simple");

        GroupFixture restarted = new GroupFixture();
        for (int offset = 0; offset < fixture.writer.records.size(); offset++) {
            switch (fixture.writer.records.get(offset)) {
                case CoordinatorRecord.GroupMetadata group -> restarted.groups.replay(group.key(), group.value());
                case CoordinatorRecord.OffsetCommit commit ->
                    restarted.offsets.replay(offset, RecordBatch.NO_PRODUCER_ID, commit);
            }
        }
        ClassicGroup group = restarted.group();
        assertTrue(group.isInState(ClassicGroupState.STABLE));
        assertEquals(1, group.generationId());
        assertEquals(a, group.leaderOrNull());
        assertEquals("range", group.protocolName().orElseThrow());
        org.junit.jupiter.api.Assertions.assertArrayEquals(
                GroupFixture.bytes("assignment-1"), group.member(a).assignment());
        assertEquals(
                Map.of(new TopicPartition("orders", 0), 11L, new TopicPartition("orders", 1), 10L),
                Map.of(
                        new TopicPartition("orders", 0),
                        restarted.offsets.committed(GROUP, "orders", 0).offset(),
                        new TopicPartition("orders", 1),
                        restarted.offsets.committed(GROUP, "orders", 1).offset()));
        assertTrue(restarted.groups.group("simple").isEmpty(), "the deleted group stays deleted");
        assertFalse(restarted.offsets.hasOffsets("simple"));

        // The members loaded must heartbeat within their session.
        restarted.groups.onLoaded(group);
        restarted.timer.advance(GroupFixture.SESSION_MS);
        assertFalse(restarted.group().hasMember(a));
    }
}
