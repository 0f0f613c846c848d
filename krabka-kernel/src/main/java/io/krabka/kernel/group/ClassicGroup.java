package io.krabka.kernel.group;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.JoinGroupResponseData.JoinGroupResponseMember;
import org.apache.kafka.common.message.SyncGroupResponseData;

/**
 * A classic group (Kafka's {@code ClassicGroup}): its state, generation, protocol, leader and members, with the
 * static members by instance id and the members not yet joined (KIP-394) or not yet synced. Guarded by the
 * coordinator's lock; the state machine that drives it is {@link GroupMetadataManager}.
 */
final class ClassicGroup {

    /** The protocol type of the Java consumer's groups. */
    static final String CONSUMER_PROTOCOL_TYPE = ConsumerProtocol.PROTOCOL_TYPE;

    private final String groupId;
    private ClassicGroupState state;
    private ClassicGroupState previousState;
    private long currentStateTimestampMs;
    private String protocolType;
    private String protocolName;
    private int generationId;
    private String leaderId;
    private final Map<String, ClassicGroupMember> members = new LinkedHashMap<>();
    private final Map<String, String> staticMembers = new HashMap<>();
    private final Set<String> pendingJoinMembers = new HashSet<>();
    private final Set<String> pendingSyncMembers = new HashSet<>();
    private final Map<String, Integer> supportedProtocols = new HashMap<>();
    private int numMembersAwaitingJoin;
    private boolean newMemberAdded;
    private boolean initialDelayElapsed;

    ClassicGroup(String groupId, ClassicGroupState state, long nowMs) {
        this.groupId = Objects.requireNonNull(groupId, "groupId");
        this.state = state;
        this.previousState = state;
        this.currentStateTimestampMs = nowMs;
    }

    String groupId() {
        return groupId;
    }

    ClassicGroupState state() {
        return state;
    }

    ClassicGroupState previousState() {
        return previousState;
    }

    boolean isInState(ClassicGroupState candidate) {
        return state == candidate;
    }

    long currentStateTimestampMs() {
        return currentStateTimestampMs;
    }

    void transitionTo(ClassicGroupState target, long nowMs) {
        if (!target.validPreviousStates().contains(state)) {
            throw new IllegalStateException("group " + groupId + " should be in " + target.validPreviousStates()
                    + " to move to " + target + " but is " + state);
        }
        previousState = state;
        state = target;
        currentStateTimestampMs = nowMs;
    }

    /** Whether a rebalance may start now. */
    boolean canRebalance() {
        return ClassicGroupState.PREPARING_REBALANCE.validPreviousStates().contains(state);
    }

    Optional<String> protocolType() {
        return Optional.ofNullable(protocolType);
    }

    Optional<String> protocolName() {
        return Optional.ofNullable(protocolName);
    }

    int generationId() {
        return generationId;
    }

    String leaderOrNull() {
        return leaderId;
    }

    boolean isLeader(String memberId) {
        return memberId.equals(leaderId);
    }

    /** Restores what a GroupMetadata record holds. */
    void restore(int generation, String type, String protocol, String leader, long stateTimestampMs) {
        this.generationId = generation;
        this.protocolType = type == null || type.isEmpty() ? null : type;
        this.protocolName = protocol;
        this.leaderId = leader;
        if (stateTimestampMs >= 0) {
            this.currentStateTimestampMs = stateTimestampMs;
        }
    }

    // Members.

    boolean isEmpty() {
        return members.isEmpty();
    }

    int size() {
        return members.size();
    }

    boolean hasMember(String memberId) {
        return members.containsKey(memberId);
    }

    ClassicGroupMember member(String memberId) {
        return members.get(memberId);
    }

    Collection<ClassicGroupMember> allMembers() {
        return List.copyOf(members.values());
    }

    String staticMemberId(String groupInstanceId) {
        return groupInstanceId == null ? null : staticMembers.get(groupInstanceId);
    }

    void add(ClassicGroupMember member, CompletableFuture<JoinGroupResponseData> joinFuture) {
        if (members.isEmpty()) {
            protocolType = member.protocolType();
        }
        if (!member.protocolType().equals(protocolType)) {
            throw new IllegalStateException("member " + member.memberId() + " of protocol type " + member.protocolType()
                    + " in a group of " + protocolType);
        }
        if (leaderId == null) {
            leaderId = member.memberId();
        }
        if (member.isStaticMember()) {
            staticMembers.put(member.groupInstanceId(), member.memberId());
        }
        members.put(member.memberId(), member);
        countProtocols(member, 1);
        member.setAwaitingJoin(joinFuture);
        if (joinFuture != null) {
            numMembersAwaitingJoin++;
        }
        pendingJoinMembers.remove(member.memberId());
    }

    void remove(String memberId) {
        ClassicGroupMember removed = members.remove(memberId);
        if (removed == null) {
            return;
        }
        countProtocols(removed, -1);
        if (removed.isAwaitingJoin()) {
            numMembersAwaitingJoin--;
        }
        if (removed.isStaticMember()) {
            staticMembers.remove(removed.groupInstanceId(), memberId);
        }
        pendingSyncMembers.remove(memberId);
        if (isLeader(memberId)) {
            leaderId = members.isEmpty() ? null : members.keySet().iterator().next();
        }
    }

    /** Gives a static member's place to a new member id (KIP-345); the old member's futures are the caller's. */
    ClassicGroupMember replaceStaticMember(String groupInstanceId, String oldMemberId, String newMemberId) {
        ClassicGroupMember old = members.remove(oldMemberId);
        if (old == null) {
            throw new IllegalStateException("no static member " + oldMemberId + " to replace");
        }
        ClassicGroupMember replacement = new ClassicGroupMember(
                newMemberId,
                groupInstanceId,
                old.clientId(),
                old.clientHost(),
                old.rebalanceTimeoutMs(),
                old.sessionTimeoutMs(),
                old.protocolType(),
                old.supportedProtocols());
        replacement.setAssignment(old.assignment());
        if (old.isAwaitingJoin()) {
            numMembersAwaitingJoin--;
        }
        members.put(newMemberId, replacement);
        staticMembers.put(groupInstanceId, newMemberId);
        if (isLeader(oldMemberId)) {
            leaderId = newMemberId;
        }
        pendingSyncMembers.remove(oldMemberId);
        return replacement;
    }

    void updateMember(
            ClassicGroupMember member,
            List<Protocol> protocols,
            int rebalanceTimeoutMs,
            int sessionTimeoutMs,
            CompletableFuture<JoinGroupResponseData> joinFuture) {
        countProtocols(member, -1);
        member.update(protocols, rebalanceTimeoutMs, sessionTimeoutMs);
        countProtocols(member, 1);
        if (joinFuture != null) {
            if (!member.isAwaitingJoin()) {
                numMembersAwaitingJoin++;
            }
            member.setAwaitingJoin(joinFuture);
        }
    }

    private void countProtocols(ClassicGroupMember member, int delta) {
        for (Protocol protocol : member.supportedProtocols()) {
            supportedProtocols.merge(protocol.name(), delta, (a, b) -> a + b == 0 ? null : a + b);
        }
    }

    void addPendingMember(String memberId) {
        pendingJoinMembers.add(memberId);
    }

    boolean isPendingMember(String memberId) {
        return pendingJoinMembers.contains(memberId);
    }

    void removePendingMember(String memberId) {
        pendingJoinMembers.remove(memberId);
    }

    int numPendingJoinMembers() {
        return pendingJoinMembers.size();
    }

    boolean hasAllMembersJoined() {
        return members.size() == numMembersAwaitingJoin && pendingJoinMembers.isEmpty();
    }

    int numAwaitingJoinResponse() {
        return numMembersAwaitingJoin;
    }

    void setNewMemberAdded(boolean added) {
        newMemberAdded = added;
    }

    boolean newMemberAdded() {
        return newMemberAdded;
    }

    /** Whether the first rebalance's delay is over and it waits only for the members that have their id. */
    boolean initialDelayElapsed() {
        return initialDelayElapsed;
    }

    void setInitialDelayElapsed(boolean elapsed) {
        initialDelayElapsed = elapsed;
    }

    /** The longest rebalance timeout of the members: how long a rebalance waits for them. */
    int rebalanceTimeoutMs() {
        return members.values().stream()
                .mapToInt(ClassicGroupMember::rebalanceTimeoutMs)
                .max()
                .orElse(0);
    }

    // Protocols.

    /** Whether a member of this type with these protocols may join: the group's type, and a protocol all share. */
    boolean supportsProtocols(String memberProtocolType, List<Protocol> protocols) {
        if (memberProtocolType == null || memberProtocolType.isEmpty() || protocols.isEmpty()) {
            return false;
        }
        if (members.isEmpty()) {
            return true;
        }
        return memberProtocolType.equals(protocolType)
                && protocols.stream().anyMatch(p -> supportedProtocols.getOrDefault(p.name(), 0) == members.size());
    }

    /**
     * The topics the members subscribe to (Kafka's {@code computeSubscribedTopics}): none for an empty consumer
     * group; unknown (empty) for another protocol type, or when a member's subscription does not parse.
     */
    Optional<Set<String>> subscribedTopics() {
        if (!CONSUMER_PROTOCOL_TYPE.equals(protocolType)) {
            return Optional.empty();
        }
        if (members.isEmpty()) {
            return Optional.of(Set.of());
        }
        if (protocolName == null) {
            return Optional.empty();
        }
        Set<String> topics = new HashSet<>();
        try {
            for (ClassicGroupMember member : members.values()) {
                topics.addAll(ConsumerProtocol.deserializeConsumerProtocolSubscription(
                                ByteBuffer.wrap(member.metadata(protocolName)))
                        .topics());
            }
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        return Optional.of(topics);
    }

    /** The protocol with the most votes among those every member supports. */
    String selectProtocol() {
        Set<String> candidates = new HashSet<>();
        supportedProtocols.forEach((name, count) -> {
            if (count == members.size()) {
                candidates.add(name);
            }
        });
        if (candidates.isEmpty()) {
            throw new IllegalStateException("no protocol is supported by all members of " + groupId);
        }
        Map<String, Integer> votes = new LinkedHashMap<>();
        for (ClassicGroupMember member : members.values()) {
            votes.merge(member.vote(candidates), 1, Integer::sum);
        }
        return votes.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .orElseThrow()
                .getKey();
    }

    /** Starts the next generation: CompletingRebalance with a protocol, or Empty with none. */
    void initNextGeneration(long nowMs) {
        generationId++;
        if (!members.isEmpty()) {
            protocolName = selectProtocol();
            pendingSyncMembers.clear();
            pendingSyncMembers.addAll(members.keySet());
            transitionTo(ClassicGroupState.COMPLETING_REBALANCE, nowMs);
        } else {
            protocolName = null;
            transitionTo(ClassicGroupState.EMPTY, nowMs);
        }
    }

    /** If the leader has not rejoined, makes a member that has the leader; false if none has. */
    boolean maybeElectNewJoinedLeader() {
        if (leaderId == null) {
            return false;
        }
        ClassicGroupMember leader = members.get(leaderId);
        if (leader != null && leader.isAwaitingJoin()) {
            return true;
        }
        Optional<ClassicGroupMember> joined = members.values().stream()
                .filter(ClassicGroupMember::isAwaitingJoin)
                .findFirst();
        joined.ifPresent(member -> leaderId = member.memberId());
        return joined.isPresent();
    }

    Set<String> pendingSyncMembers() {
        return pendingSyncMembers;
    }

    /** Every member with its metadata for the selected protocol: what the leader's JoinGroup response lists. */
    List<JoinGroupResponseMember> currentMembersForLeader() {
        List<JoinGroupResponseMember> list = new ArrayList<>(members.size());
        for (ClassicGroupMember member : members.values()) {
            list.add(new JoinGroupResponseMember()
                    .setMemberId(member.memberId())
                    .setGroupInstanceId(member.groupInstanceId())
                    .setMetadata(member.metadata(protocolName)));
        }
        return list;
    }

    boolean completeJoinFuture(ClassicGroupMember member, JoinGroupResponseData response) {
        CompletableFuture<JoinGroupResponseData> future = member.awaitingJoin();
        if (future == null) {
            return false;
        }
        member.setAwaitingJoin(null);
        numMembersAwaitingJoin--;
        return future.complete(response);
    }

    boolean completeSyncFuture(ClassicGroupMember member, SyncGroupResponseData response) {
        CompletableFuture<SyncGroupResponseData> future = member.awaitingSync();
        if (future == null) {
            return false;
        }
        member.setAwaitingSync(null);
        return future.complete(response);
    }

    // Records.

    /** The group's GroupMetadata record value, with these assignments (or the members' current ones). */
    GroupMetadataValue toRecord(Map<String, byte[]> assignments) {
        List<GroupMetadataValue.MemberMetadata> list = new ArrayList<>(members.size());
        for (ClassicGroupMember member : members.values()) {
            byte[] assignment = assignments.getOrDefault(member.memberId(), member.assignment());
            list.add(new GroupMetadataValue.MemberMetadata(
                    member.memberId(),
                    member.groupInstanceId(),
                    member.clientId(),
                    member.clientHost(),
                    member.rebalanceTimeoutMs(),
                    member.sessionTimeoutMs(),
                    protocolName == null ? new byte[0] : member.metadata(protocolName),
                    assignment));
        }
        return new GroupMetadataValue(
                protocolType == null ? "" : protocolType,
                generationId,
                protocolName,
                leaderId,
                currentStateTimestampMs,
                list);
    }

    @Override
    public String toString() {
        return "ClassicGroup(groupId=" + groupId + ", state=" + state + ", generationId=" + generationId
                + ", protocolType=" + protocolType + ", protocolName=" + protocolName + ", leaderId=" + leaderId
                + ", members=" + members.keySet() + ")";
    }
}
