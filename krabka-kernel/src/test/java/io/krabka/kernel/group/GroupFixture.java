package io.krabka.kernel.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData.JoinGroupRequestProtocol;
import org.apache.kafka.common.message.JoinGroupRequestData.JoinGroupRequestProtocolCollection;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupRequestData.SyncGroupRequestAssignment;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;

/** The coordinator's managers on a manual timer and a recording writer, with requests as a consumer sends them. */
final class GroupFixture {

    static final String GROUP = "payments";
    static final int SESSION_MS = 10_000;
    static final int REBALANCE_MS = 30_000;

    final ManualTimer timer = new ManualTimer();
    final RecordingWriter writer = new RecordingWriter();
    final GroupMetadataManager groups;
    final ClassicGroupJoin joins;
    final ClassicGroupSync syncs;
    final ClassicGroupOperations operations;
    final OffsetMetadataManager offsets;

    GroupFixture() {
        this(GroupCoordinatorConfig.DEFAULTS);
    }

    GroupFixture(GroupCoordinatorConfig config) {
        groups = new GroupMetadataManager(config, timer, timer, writer);
        joins = new ClassicGroupJoin(groups, writer);
        syncs = new ClassicGroupSync(groups, writer);
        operations = new ClassicGroupOperations(groups);
        offsets = new OffsetMetadataManager(groups, writer);
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static JoinGroupRequestData joinRequest(String memberId, String instanceId, String... protocols) {
        JoinGroupRequestProtocolCollection collection = new JoinGroupRequestProtocolCollection();
        for (String protocol : protocols.length == 0 ? new String[] {"range"} : protocols) {
            collection.add(new JoinGroupRequestProtocol().setName(protocol).setMetadata(bytes("sub-" + protocol)));
        }
        return new JoinGroupRequestData()
                .setGroupId(GROUP)
                .setMemberId(memberId)
                .setGroupInstanceId(instanceId)
                .setProtocolType("consumer")
                .setProtocols(collection)
                .setSessionTimeoutMs(SESSION_MS)
                .setRebalanceTimeoutMs(REBALANCE_MS);
    }

    CompletableFuture<JoinGroupResponseData> join(int version, JoinGroupRequestData request) {
        CompletableFuture<JoinGroupResponseData> future = new CompletableFuture<>();
        joins.joinGroup(new GroupRequestContext("client", "/127.0.0.1", (short) version), request, future);
        return future;
    }

    CompletableFuture<SyncGroupResponseData> sync(String memberId, int generation, Map<String, String> assignments) {
        return sync(memberId, null, generation, assignments);
    }

    CompletableFuture<SyncGroupResponseData> sync(
            String memberId, String instanceId, int generation, Map<String, String> assignments) {
        List<SyncGroupRequestAssignment> list = assignments.entrySet().stream()
                .map(e ->
                        new SyncGroupRequestAssignment().setMemberId(e.getKey()).setAssignment(bytes(e.getValue())))
                .toList();
        CompletableFuture<SyncGroupResponseData> future = new CompletableFuture<>();
        syncs.syncGroup(
                new SyncGroupRequestData()
                        .setGroupId(GROUP)
                        .setMemberId(memberId)
                        .setGroupInstanceId(instanceId)
                        .setGenerationId(generation)
                        .setAssignments(list),
                future);
        return future;
    }

    ClassicGroup group() {
        return groups.group(GROUP).orElseThrow();
    }

    /** A dynamic member through KIP-394: its id, joined and waiting for the join phase to end. */
    CompletableFuture<JoinGroupResponseData> joinWithNewId(int version) {
        JoinGroupResponseData required = join(version, joinRequest("", null)).join();
        assertEquals(Errors.MEMBER_ID_REQUIRED.code(), required.errorCode());
        return join(version, joinRequest(required.memberId(), null));
    }

    /** A Stable group with one dynamic member, generation 1; returns the member id. */
    String stableGroupOfOne() {
        CompletableFuture<JoinGroupResponseData> joined = joinWithNewId(9);
        timer.advance(GroupCoordinatorConfig.DEFAULTS.groupInitialRebalanceDelayMs());
        JoinGroupResponseData response = joined.join();
        SyncGroupResponseData synced = sync(
                        response.memberId(), response.generationId(), Map.of(response.memberId(), "assignment-1"))
                .join();
        assertEquals(Errors.NONE.code(), synced.errorCode());
        assertTrue(group().isInState(ClassicGroupState.STABLE));
        return response.memberId();
    }
}
