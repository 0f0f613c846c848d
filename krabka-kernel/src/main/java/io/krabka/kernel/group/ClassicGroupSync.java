package io.krabka.kernel.group;

import static io.krabka.kernel.group.GroupMetadataManager.groupRecord;
import static io.krabka.kernel.group.GroupMetadataManager.syncError;
import static io.krabka.kernel.group.GroupMetadataManager.validateMember;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;

/**
 * SyncGroup on the classic groups, as Kafka's {@code GroupMetadataManager.classicGroupSync}: the followers wait
 * for the leader's assignment, which is written to the log before anyone gets it; a failed write sends the group
 * back to rebalance. Runs under the coordinator's lock.
 */
final class ClassicGroupSync {

    private final GroupMetadataManager groups;
    private final CoordinatorWriter writer;

    ClassicGroupSync(GroupMetadataManager groups, CoordinatorWriter writer) {
        this.groups = Objects.requireNonNull(groups, "groups");
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    void syncGroup(SyncGroupRequestData request, CompletableFuture<SyncGroupResponseData> future) {
        ClassicGroup group = groups.group(request.groupId()).orElse(null);
        if (group == null) {
            future.complete(syncError(Errors.UNKNOWN_MEMBER_ID));
            return;
        }
        Errors error = group.isInState(ClassicGroupState.DEAD)
                ? Errors.COORDINATOR_NOT_AVAILABLE
                : validateMember(group, request.memberId(), request.groupInstanceId());
        if (error == Errors.NONE && request.generationId() != group.generationId()) {
            error = Errors.ILLEGAL_GENERATION;
        }
        if (error == Errors.NONE && !sameProtocol(group, request)) {
            error = Errors.INCONSISTENT_GROUP_PROTOCOL;
        }
        if (error != Errors.NONE) {
            future.complete(syncError(error));
            return;
        }
        ClassicGroupMember member = group.member(request.memberId());
        switch (group.state()) {
            case EMPTY, DEAD -> future.complete(syncError(Errors.UNKNOWN_MEMBER_ID));
            case PREPARING_REBALANCE -> future.complete(syncError(Errors.REBALANCE_IN_PROGRESS));
            case COMPLETING_REBALANCE -> {
                group.completeSyncFuture(member, syncError(Errors.REBALANCE_IN_PROGRESS));
                member.setAwaitingSync(future);
                markSynced(group, member);
                if (group.isLeader(member.memberId())) {
                    Map<String, byte[]> assignments = new HashMap<>();
                    request.assignments().forEach(a -> {
                        if (group.hasMember(a.memberId())) {
                            assignments.put(a.memberId(), a.assignment());
                        }
                    });
                    storeAssignment(group, assignments);
                }
            }
            case STABLE -> {
                markSynced(group, member);
                groups.scheduleHeartbeat(group, member, member.sessionTimeoutMs());
                future.complete(syncResponse(group, member.assignment()));
            }
        }
    }

    // SyncGroup v5+ names the protocol type and name; they must be the group's.
    private static boolean sameProtocol(ClassicGroup group, SyncGroupRequestData request) {
        return (request.protocolType() == null || group.protocolType().equals(Optional.of(request.protocolType())))
                && (request.protocolName() == null || group.protocolName().equals(Optional.of(request.protocolName())));
    }

    private void markSynced(ClassicGroup group, ClassicGroupMember member) {
        group.pendingSyncMembers().remove(member.memberId());
        if (group.pendingSyncMembers().isEmpty()) {
            groups.cancelSyncTimer(group);
        }
    }

    // The leader's assignment is written before any member gets it, so a restarted coordinator has it too.
    private void storeAssignment(ClassicGroup group, Map<String, byte[]> assignments) {
        try {
            writer.append(group.groupId(), List.of(groupRecord(group, assignments)));
        } catch (ApiException e) {
            groups.resetAndPropagateAssignmentWithError(group, Errors.forException(e));
            groups.prepareRebalance(group, "the assignment could not be written: " + e.getMessage());
            return;
        }
        for (ClassicGroupMember member : group.allMembers()) {
            member.setAssignment(assignments.getOrDefault(member.memberId(), new byte[0]));
            if (group.completeSyncFuture(member, syncResponse(group, member.assignment()))) {
                groups.scheduleHeartbeat(group, member, member.sessionTimeoutMs());
            }
        }
        group.transitionTo(ClassicGroupState.STABLE, groups.now());
    }

    private static SyncGroupResponseData syncResponse(ClassicGroup group, byte[] assignment) {
        return new SyncGroupResponseData()
                .setProtocolType(group.protocolType().orElse(null))
                .setProtocolName(group.protocolName().orElse(null))
                .setAssignment(assignment);
    }
}
