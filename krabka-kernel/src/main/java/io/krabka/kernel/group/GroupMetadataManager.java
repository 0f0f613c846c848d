package io.krabka.kernel.group;

import java.time.InstantSource;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;

/**
 * The classic groups and their rebalances (the classic part of Kafka's {@code GroupMetadataManager}): the groups
 * by id, the rebalance itself (the delayed initial rebalance, which then waits for the members that have their id,
 * the join phase ending when every member rejoined or at the rebalance timeout, the sync timeout), the members'
 * sessions, and the groups replayed from the log. JoinGroup is {@link ClassicGroupJoin}, SyncGroup
 * {@link ClassicGroupSync}; Heartbeat, LeaveGroup, describing and listing are {@link ClassicGroupOperations}. Every method runs under the coordinator's lock.
 */
final class GroupMetadataManager {

    private static final System.Logger LOG = System.getLogger(GroupMetadataManager.class.getName());

    /** The member id of a member that has none yet. */
    static final String UNKNOWN_MEMBER_ID = "";

    private final GroupCoordinatorConfig config;
    private final InstantSource time;
    private final CoordinatorTimer timer;
    private final CoordinatorWriter writer;
    private final Map<String, ClassicGroup> groups = new HashMap<>();

    GroupMetadataManager(
            GroupCoordinatorConfig config, InstantSource time, CoordinatorTimer timer, CoordinatorWriter writer) {
        this.config = Objects.requireNonNull(config, "config");
        this.time = Objects.requireNonNull(time, "time");
        this.timer = Objects.requireNonNull(timer, "timer");
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    GroupCoordinatorConfig config() {
        return config;
    }

    long now() {
        return time.millis();
    }

    Optional<ClassicGroup> group(String groupId) {
        return Optional.ofNullable(groups.get(groupId));
    }

    Collection<ClassicGroup> groups() {
        return List.copyOf(groups.values());
    }

    /** The group, created Empty if there is none (a first JoinGroup, or a simple consumer's commit). */
    ClassicGroup getOrCreateGroup(String groupId) {
        return groups.computeIfAbsent(groupId, id -> new ClassicGroup(id, ClassicGroupState.EMPTY, now()));
    }

    /** Forgets a group: deleted, or expired with its offsets. */
    void removeGroup(ClassicGroup group) {
        timer.cancel(joinKey(group));
        timer.cancel(syncKey(group));
        for (ClassicGroupMember member : group.allMembers()) {
            timer.cancel(heartbeatKey(group, member.memberId()));
        }
        if (!group.isInState(ClassicGroupState.DEAD)) {
            group.transitionTo(ClassicGroupState.DEAD, now());
        }
        groups.remove(group.groupId(), group);
    }

    void maybePrepareRebalanceOrCompleteJoin(ClassicGroup group, String reason) {
        if (group.canRebalance()) {
            prepareRebalance(group, reason);
        } else {
            maybeCompleteJoin(group);
        }
    }

    /** Starts a rebalance: the members have the longest rebalance timeout to rejoin. */
    void prepareRebalance(ClassicGroup group, String reason) {
        if (group.isInState(ClassicGroupState.COMPLETING_REBALANCE)) {
            resetAndPropagateAssignmentWithError(group, Errors.REBALANCE_IN_PROGRESS);
        }
        timer.cancel(syncKey(group));
        boolean initial = group.isInState(ClassicGroupState.EMPTY);
        if (initial) {
            group.setNewMemberAdded(false);
            group.setInitialDelayElapsed(false);
            int delay = config.groupInitialRebalanceDelayMs();
            scheduleInitialJoin(group, delay, Math.max(group.rebalanceTimeoutMs() - delay, 0));
        } else {
            timer.schedule(joinKey(group), group.rebalanceTimeoutMs(), () -> onJoinTimeout(group));
        }
        group.transitionTo(ClassicGroupState.PREPARING_REBALANCE, now());
        LOG.log(
                System.Logger.Level.INFO,
                "Preparing to rebalance group " + group.groupId() + " in state " + group.previousState()
                        + " with old generation " + group.generationId() + " (reason: " + reason + ")");
        if (!initial) {
            maybeCompleteJoin(group);
        }
    }

    // Kafka's InitialDelayedJoin: each new member extends the wait, within the rebalance timeout. Members that have
    // their id (KIP-394) are about to join: once the delay is over the join phase waits for them too, within the
    // rebalance timeout, so consumers that subscribe together start in one generation rather than two.
    private void scheduleInitialJoin(ClassicGroup group, int delayMs, int remainingMs) {
        timer.schedule(joinKey(group), delayMs, () -> {
            if (groups.get(group.groupId()) != group || !group.isInState(ClassicGroupState.PREPARING_REBALANCE)) {
                return;
            }
            if (group.newMemberAdded() && remainingMs != 0) {
                group.setNewMemberAdded(false);
                int next = Math.min(config.groupInitialRebalanceDelayMs(), remainingMs);
                scheduleInitialJoin(group, next, Math.max(remainingMs - delayMs, 0));
            } else if (group.numPendingJoinMembers() > 0 && remainingMs != 0) {
                group.setInitialDelayElapsed(true);
                timer.schedule(joinKey(group), remainingMs, () -> onJoinTimeout(group));
            } else {
                completeJoin(group);
            }
        });
    }

    private void onJoinTimeout(ClassicGroup group) {
        if (groups.get(group.groupId()) == group && group.isInState(ClassicGroupState.PREPARING_REBALANCE)) {
            completeJoin(group);
        }
    }

    void maybeCompleteJoin(ClassicGroup group) {
        if (group.isInState(ClassicGroupState.PREPARING_REBALANCE)
                && group.hasAllMembersJoined()
                && (group.previousState() != ClassicGroupState.EMPTY || group.initialDelayElapsed())) {
            completeJoin(group);
        }
    }

    private void completeJoin(ClassicGroup group) {
        timer.cancel(joinKey(group));
        for (ClassicGroupMember member : group.allMembers()) {
            // Dynamic members that did not rejoin are gone; static ones keep their place (KIP-345).
            if (!member.isAwaitingJoin() && !member.isStaticMember()) {
                timer.cancel(heartbeatKey(group, member.memberId()));
                group.remove(member.memberId());
            }
        }
        if (!group.isEmpty() && !group.maybeElectNewJoinedLeader()) {
            // Only static members that have not rejoined: wait for them once more.
            timer.schedule(joinKey(group), group.rebalanceTimeoutMs(), () -> onJoinTimeout(group));
            return;
        }
        group.initNextGeneration(now());
        if (group.isInState(ClassicGroupState.EMPTY)) {
            try {
                writer.append(group.groupId(), List.of(groupRecord(group, Map.of())));
            } catch (ApiException e) {
                LOG.log(System.Logger.Level.WARNING, "Could not write the empty group " + group.groupId() + ": " + e);
            }
            return;
        }
        LOG.log(
                System.Logger.Level.INFO,
                "Stabilized group " + group.groupId() + " generation " + group.generationId() + " with " + group.size()
                        + " members");
        for (ClassicGroupMember member : group.allMembers()) {
            if (member.isAwaitingJoin()) {
                boolean leader = group.isLeader(member.memberId());
                group.completeJoinFuture(member, currentGeneration(group, member.memberId(), leader, false));
                member.setNew(false);
                scheduleHeartbeat(group, member, member.sessionTimeoutMs());
            }
        }
        int generation = group.generationId();
        timer.schedule(syncKey(group), group.rebalanceTimeoutMs(), () -> onSyncTimeout(group, generation));
    }

    private void onSyncTimeout(ClassicGroup group, int generation) {
        if (groups.get(group.groupId()) != group
                || group.generationId() != generation
                || group.pendingSyncMembers().isEmpty()) {
            return;
        }
        if (group.isInState(ClassicGroupState.COMPLETING_REBALANCE) || group.isInState(ClassicGroupState.STABLE)) {
            for (String memberId : List.copyOf(group.pendingSyncMembers())) {
                ClassicGroupMember member = group.member(memberId);
                if (member != null) {
                    forgetMember(group, member);
                }
            }
            prepareRebalance(group, "members did not sync in time");
        }
    }

    void resetAndPropagateAssignmentWithError(ClassicGroup group, Errors error) {
        for (ClassicGroupMember member : group.allMembers()) {
            member.setAssignment(new byte[0]);
            group.completeSyncFuture(member, syncError(error));
        }
    }

    // Members leaving, by request or by timeout.

    void scheduleHeartbeat(ClassicGroup group, ClassicGroupMember member, int timeoutMs) {
        String groupId = group.groupId();
        String memberId = member.memberId();
        timer.schedule(heartbeatKey(group, memberId), timeoutMs, () -> onHeartbeatExpiry(groupId, memberId));
    }

    private void onHeartbeatExpiry(String groupId, String memberId) {
        ClassicGroup group = groups.get(groupId);
        if (group == null) {
            return;
        }
        if (group.isPendingMember(memberId)) {
            group.removePendingMember(memberId);
            maybeCompleteJoin(group);
            return;
        }
        ClassicGroupMember member = group.member(memberId);
        if (member == null) {
            return;
        }
        // A known member waiting on its rebalance is alive: the join or sync timers bound that wait.
        if ((member.isAwaitingJoin() && !member.isNew()) || member.isAwaitingSync()) {
            scheduleHeartbeat(group, member, member.sessionTimeoutMs());
            return;
        }
        LOG.log(System.Logger.Level.INFO, "Member " + memberId + " in group " + groupId + " has failed, removing it");
        removeMemberAndUpdateGroup(group, member);
    }

    /** A member that has its id but has not joined yet (KIP-394) is forgotten after its session. */
    void schedulePendingMemberExpiry(ClassicGroup group, String memberId, int sessionTimeoutMs) {
        String groupId = group.groupId();
        timer.schedule(heartbeatKey(group, memberId), sessionTimeoutMs, () -> onHeartbeatExpiry(groupId, memberId));
    }

    void cancelHeartbeat(ClassicGroup group, String memberId) {
        timer.cancel(heartbeatKey(group, memberId));
    }

    void cancelSyncTimer(ClassicGroup group) {
        timer.cancel(syncKey(group));
    }

    /** Removes a member (left, expired) and rebalances or completes the join of the others. */
    void removeMemberAndUpdateGroup(ClassicGroup group, ClassicGroupMember member) {
        forgetMember(group, member);
        switch (group.state()) {
            case STABLE, COMPLETING_REBALANCE -> prepareRebalance(group, "member " + member.memberId() + " left");
            case PREPARING_REBALANCE -> maybeCompleteJoin(group);
            case EMPTY, DEAD -> {
                // Nothing waits on the members.
            }
        }
    }

    private void forgetMember(ClassicGroup group, ClassicGroupMember member) {
        group.completeJoinFuture(member, joinError(UNKNOWN_MEMBER_ID, Errors.UNKNOWN_MEMBER_ID));
        group.completeSyncFuture(member, syncError(Errors.UNKNOWN_MEMBER_ID));
        timer.cancel(heartbeatKey(group, member.memberId()));
        group.remove(member.memberId());
    }

    void removePendingMember(ClassicGroup group, String memberId) {
        group.removePendingMember(memberId);
        timer.cancel(heartbeatKey(group, memberId));
        maybeCompleteJoin(group);
    }

    /** UNKNOWN_MEMBER_ID or FENCED_INSTANCE_ID for a member that is not this group's, else NONE. */
    static Errors validateMember(ClassicGroup group, String memberId, String groupInstanceId) {
        if (groupInstanceId != null) {
            String existing = group.staticMemberId(groupInstanceId);
            if (existing == null) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            return existing.equals(memberId) ? Errors.NONE : Errors.FENCED_INSTANCE_ID;
        }
        return group.hasMember(memberId) ? Errors.NONE : Errors.UNKNOWN_MEMBER_ID;
    }

    /**
     * Forgets the groups of a partition this node no longer leads: their waiting requests get NOT_COORDINATOR, their
     * timers stop.
     */
    void unload(Predicate<String> inPartition) {
        for (ClassicGroup group : List.copyOf(groups.values())) {
            if (inPartition.test(group.groupId())) {
                for (ClassicGroupMember member : group.allMembers()) {
                    group.completeJoinFuture(member, joinError(member.memberId(), Errors.NOT_COORDINATOR));
                    group.completeSyncFuture(member, syncError(Errors.NOT_COORDINATOR));
                }
                removeGroup(group);
            }
        }
    }

    /** Answers every JoinGroup and SyncGroup still waiting with {@code error} (at shutdown). */
    void failPending(Errors error) {
        for (ClassicGroup group : groups.values()) {
            for (ClassicGroupMember member : group.allMembers()) {
                group.completeJoinFuture(member, joinError(member.memberId(), error));
                group.completeSyncFuture(member, syncError(error));
            }
        }
    }

    // Replay.

    /** Applies a GroupMetadata record read from the log: the group as it was written, or gone for a tombstone. */
    void replay(GroupMetadataKey key, GroupMetadataValue value) {
        ClassicGroup existing = groups.remove(key.group());
        if (existing != null) {
            for (ClassicGroupMember member : existing.allMembers()) {
                timer.cancel(heartbeatKey(existing, member.memberId()));
            }
        }
        if (value == null) {
            return;
        }
        ClassicGroup group = new ClassicGroup(
                key.group(), value.members().isEmpty() ? ClassicGroupState.EMPTY : ClassicGroupState.STABLE, now());
        for (GroupMetadataValue.MemberMetadata record : value.members()) {
            ClassicGroupMember member = new ClassicGroupMember(
                    record.memberId(),
                    record.groupInstanceId(),
                    record.clientId(),
                    record.clientHost(),
                    record.rebalanceTimeout() < 0 ? record.sessionTimeout() : record.rebalanceTimeout(),
                    record.sessionTimeout(),
                    value.protocolType(),
                    List.of(new Protocol(value.protocol() == null ? "" : value.protocol(), record.subscription())));
            member.setAssignment(record.assignment());
            group.add(member, null);
        }
        group.restore(
                value.generation(),
                value.protocolType(),
                value.protocol(),
                value.leader(),
                value.currentStateTimestamp());
        groups.put(key.group(), group);
    }

    /** After a load: the members of the groups loaded must heartbeat within their sessions. */
    void onLoaded(ClassicGroup group) {
        for (ClassicGroupMember member : group.allMembers()) {
            scheduleHeartbeat(group, member, member.sessionTimeoutMs());
        }
    }

    // Responses and records.

    static JoinGroupResponseData currentGeneration(
            ClassicGroup group, String memberId, boolean withMembers, boolean skipAssignment) {
        return new JoinGroupResponseData()
                .setMembers(withMembers ? group.currentMembersForLeader() : List.of())
                .setMemberId(memberId)
                .setGenerationId(group.generationId())
                .setProtocolType(group.protocolType().orElse(null))
                .setProtocolName(group.protocolName().orElse(null))
                .setLeader(group.leaderOrNull())
                .setSkipAssignment(skipAssignment);
    }

    static JoinGroupResponseData joinError(String memberId, Errors error) {
        return new JoinGroupResponseData().setMemberId(memberId).setErrorCode(error.code());
    }

    static SyncGroupResponseData syncError(Errors error) {
        return new SyncGroupResponseData().setErrorCode(error.code());
    }

    static CoordinatorRecord groupRecord(ClassicGroup group, Map<String, byte[]> assignments) {
        return new CoordinatorRecord.GroupMetadata(new GroupMetadataKey(group.groupId()), group.toRecord(assignments));
    }

    private static String joinKey(ClassicGroup group) {
        return "join-" + group.groupId();
    }

    private static String syncKey(ClassicGroup group) {
        return "sync-" + group.groupId();
    }

    private static String heartbeatKey(ClassicGroup group, String memberId) {
        return "heartbeat-" + group.groupId() + "-" + memberId;
    }
}
