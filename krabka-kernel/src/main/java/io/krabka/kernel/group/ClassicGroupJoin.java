package io.krabka.kernel.group;

import static io.krabka.kernel.group.GroupMetadataManager.UNKNOWN_MEMBER_ID;
import static io.krabka.kernel.group.GroupMetadataManager.currentGeneration;
import static io.krabka.kernel.group.GroupMetadataManager.groupRecord;
import static io.krabka.kernel.group.GroupMetadataManager.joinError;
import static io.krabka.kernel.group.GroupMetadataManager.syncError;
import static io.krabka.kernel.group.GroupMetadataManager.validateMember;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.JoinGroupRequest;

/**
 * JoinGroup on the classic groups, as Kafka's {@code GroupMetadataManager.classicGroupJoin}: a new member gets its
 * id first (KIP-394, v4+) and joins with it; a static member (KIP-345) that restarts takes its old place, fencing
 * the old instance, without a rebalance unless the group's protocol would change (a v9+ leader skips assigning,
 * KIP-814; an older one syncs as a follower); a known member rejoining starts or joins a rebalance. Runs under the
 * coordinator's lock.
 */
final class ClassicGroupJoin {

    private final GroupMetadataManager groups;
    private final CoordinatorWriter writer;

    ClassicGroupJoin(GroupMetadataManager groups, CoordinatorWriter writer) {
        this.groups = Objects.requireNonNull(groups, "groups");
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    void joinGroup(
            GroupRequestContext context,
            JoinGroupRequestData request,
            CompletableFuture<JoinGroupResponseData> future) {
        List<Protocol> protocols = request.protocols().stream()
                .map(p -> new Protocol(p.name(), p.metadata()))
                .toList();
        String memberId = request.memberId();
        boolean unknownMember = UNKNOWN_MEMBER_ID.equals(memberId);
        if (request.sessionTimeoutMs() < groups.config().groupMinSessionTimeoutMs()
                || request.sessionTimeoutMs() > groups.config().groupMaxSessionTimeoutMs()) {
            future.complete(joinError(memberId, Errors.INVALID_SESSION_TIMEOUT));
            return;
        }
        ClassicGroup group = groups.group(request.groupId()).orElse(null);
        if (group == null && !unknownMember) {
            future.complete(joinError(memberId, Errors.UNKNOWN_MEMBER_ID));
            return;
        }
        if (group == null) {
            group = groups.getOrCreateGroup(request.groupId());
        }
        if (group.isInState(ClassicGroupState.DEAD)) {
            future.complete(joinError(memberId, Errors.COORDINATOR_NOT_AVAILABLE));
        } else if (!group.supportsProtocols(request.protocolType(), protocols)) {
            future.complete(joinError(memberId, Errors.INCONSISTENT_GROUP_PROTOCOL));
        } else if (unknownMember) {
            joinNewMember(context, group, request, protocols, future);
        } else {
            joinExistingMember(context, group, request, protocols, future);
        }
    }

    private void joinNewMember(
            GroupRequestContext context,
            ClassicGroup group,
            JoinGroupRequestData request,
            List<Protocol> protocols,
            CompletableFuture<JoinGroupResponseData> future) {
        String instanceId = request.groupInstanceId();
        String existingStatic = group.staticMemberId(instanceId);
        if (existingStatic == null
                && group.size() + group.numPendingJoinMembers()
                        >= groups.config().groupMaxSize()) {
            future.complete(joinError(UNKNOWN_MEMBER_ID, Errors.GROUP_MAX_SIZE_REACHED));
            return;
        }
        String newMemberId = context.clientId() + "-" + UUID.randomUUID();
        if (existingStatic != null) {
            replaceStaticMember(context, group, existingStatic, newMemberId, request, protocols, future);
        } else if (JoinGroupRequest.requiresKnownMemberId(request, context.apiVersion())) {
            // KIP-394: the member learns its id first and joins with it, so a lost response leaves no ghost member.
            group.addPendingMember(newMemberId);
            groups.schedulePendingMemberExpiry(group, newMemberId, request.sessionTimeoutMs());
            future.complete(joinError(newMemberId, Errors.MEMBER_ID_REQUIRED));
        } else {
            addMemberAndRebalance(context, group, newMemberId, request, protocols, future);
        }
    }

    private void joinExistingMember(
            GroupRequestContext context,
            ClassicGroup group,
            JoinGroupRequestData request,
            List<Protocol> protocols,
            CompletableFuture<JoinGroupResponseData> future) {
        String memberId = request.memberId();
        if (group.isPendingMember(memberId)) {
            if (request.groupInstanceId() != null) {
                future.complete(joinError(memberId, Errors.UNKNOWN_MEMBER_ID));
            } else {
                addMemberAndRebalance(context, group, memberId, request, protocols, future);
            }
            return;
        }
        Errors error = validateMember(group, memberId, request.groupInstanceId());
        if (error != Errors.NONE) {
            future.complete(joinError(memberId, error));
            return;
        }
        ClassicGroupMember member = group.member(memberId);
        switch (group.state()) {
            case PREPARING_REBALANCE ->
                updateMemberAndRebalance(
                        group, member, request, protocols, future, reason("member " + memberId + " rejoined", request));
            case COMPLETING_REBALANCE -> {
                if (member.matches(protocols)) {
                    // The member lost its join response: it gets it again.
                    future.complete(currentGeneration(group, memberId, group.isLeader(memberId), false));
                } else {
                    updateMemberAndRebalance(
                            group,
                            member,
                            request,
                            protocols,
                            future,
                            reason("member " + memberId + " changed its protocols", request));
                }
            }
            case STABLE -> {
                if (group.isLeader(memberId) || !member.matches(protocols)) {
                    updateMemberAndRebalance(
                            group,
                            member,
                            request,
                            protocols,
                            future,
                            reason("leader or member with new protocols " + memberId + " rejoined", request));
                } else {
                    future.complete(currentGeneration(group, memberId, false, false));
                }
            }
            case EMPTY, DEAD -> future.complete(joinError(memberId, Errors.UNKNOWN_MEMBER_ID));
        }
    }

    private void addMemberAndRebalance(
            GroupRequestContext context,
            ClassicGroup group,
            String memberId,
            JoinGroupRequestData request,
            List<Protocol> protocols,
            CompletableFuture<JoinGroupResponseData> future) {
        ClassicGroupMember member = new ClassicGroupMember(
                memberId,
                request.groupInstanceId(),
                context.clientId(),
                context.clientHost(),
                request.rebalanceTimeoutMs(),
                request.sessionTimeoutMs(),
                request.protocolType(),
                protocols);
        member.setNew(true);
        group.add(member, future);
        if (group.isInState(ClassicGroupState.PREPARING_REBALANCE)
                && group.previousState() == ClassicGroupState.EMPTY) {
            group.setNewMemberAdded(true);
        }
        // A new member that never completes its join is dropped after the new-member timeout.
        groups.scheduleHeartbeat(group, member, groups.config().newMemberJoinTimeoutMs());
        groups.maybePrepareRebalanceOrCompleteJoin(group, reason("member " + memberId + " joined", request));
    }

    private void replaceStaticMember(
            GroupRequestContext context,
            ClassicGroup group,
            String oldMemberId,
            String newMemberId,
            JoinGroupRequestData request,
            List<Protocol> protocols,
            CompletableFuture<JoinGroupResponseData> future) {
        ClassicGroupMember old = group.member(oldMemberId);
        // The old instance is fenced: its pending requests fail, as its later ones will.
        group.completeJoinFuture(old, joinError(oldMemberId, Errors.FENCED_INSTANCE_ID));
        group.completeSyncFuture(old, syncError(Errors.FENCED_INSTANCE_ID));
        groups.cancelHeartbeat(group, oldMemberId);
        String previousLeader = group.leaderOrNull();
        List<Protocol> oldProtocols = old.supportedProtocols();
        int oldRebalanceTimeoutMs = old.rebalanceTimeoutMs();
        int oldSessionTimeoutMs = old.sessionTimeoutMs();
        ClassicGroupMember member = group.replaceStaticMember(request.groupInstanceId(), oldMemberId, newMemberId);
        group.updateMember(member, protocols, request.rebalanceTimeoutMs(), request.sessionTimeoutMs(), future);
        groups.scheduleHeartbeat(group, member, member.sessionTimeoutMs());
        String reason = "static member " + request.groupInstanceId() + " rejoined";
        switch (group.state()) {
            case STABLE -> {
                // As Kafka: the member takes its old place and assignment unless the group's protocol would change.
                if (!group.protocolName().orElse("").equals(group.selectProtocol())) {
                    groups.prepareRebalance(group, reason(reason + " with protocols that change the group's", request));
                    return;
                }
                try {
                    writer.append(group.groupId(), List.of(groupRecord(group, Map.of())));
                } catch (ApiException e) {
                    // The new member id is not written: the old instance keeps its place, as Kafka reverts it.
                    group.updateMember(member, oldProtocols, oldRebalanceTimeoutMs, oldSessionTimeoutMs, null);
                    groups.cancelHeartbeat(group, newMemberId);
                    ClassicGroupMember restored =
                            group.replaceStaticMember(request.groupInstanceId(), newMemberId, oldMemberId);
                    groups.scheduleHeartbeat(group, restored, restored.sessionTimeoutMs());
                    future.complete(joinError(UNKNOWN_MEMBER_ID, Errors.forException(e)));
                    return;
                }
                group.completeJoinFuture(member, stableRejoin(group, newMemberId, previousLeader, context));
            }
            case COMPLETING_REBALANCE ->
                // The leader may already hold the old member id: its assignment would miss the new one.
                groups.prepareRebalance(group, reason(reason + " during the sync", request));
            case PREPARING_REBALANCE -> groups.maybeCompleteJoin(group);
            case EMPTY, DEAD -> throw new IllegalStateException("static member of " + group + " replaced");
        }
    }

    /**
     * A static member's answer when it takes its place in a Stable group: a leader of v9+ gets the members and
     * skips assigning (KIP-814); an older leader, which cannot skip, is told the previous leader's id, so it syncs as
     * a follower and gets its assignment back, as Kafka answers it.
     */
    private static JoinGroupResponseData stableRejoin(
            ClassicGroup group, String memberId, String previousLeader, GroupRequestContext context) {
        if (JoinGroupRequest.supportsSkippingAssignment(context.apiVersion())) {
            boolean leader = group.isLeader(memberId);
            return currentGeneration(group, memberId, leader, leader);
        }
        return currentGeneration(group, memberId, false, false).setLeader(previousLeader);
    }

    private void updateMemberAndRebalance(
            ClassicGroup group,
            ClassicGroupMember member,
            JoinGroupRequestData request,
            List<Protocol> protocols,
            CompletableFuture<JoinGroupResponseData> future,
            String reason) {
        // A second JoinGroup replaces the first, which is answered so that its connection is not held.
        group.completeJoinFuture(member, joinError(member.memberId(), Errors.REBALANCE_IN_PROGRESS));
        group.updateMember(member, protocols, request.rebalanceTimeoutMs(), request.sessionTimeoutMs(), future);
        groups.maybePrepareRebalanceOrCompleteJoin(group, reason);
    }

    // JoinGroup v8+ carries the client's reason, which the rebalance's log line gives.
    private static String reason(String what, JoinGroupRequestData request) {
        return what + "; the member's reason: " + JoinGroupRequest.joinReason(request);
    }
}
