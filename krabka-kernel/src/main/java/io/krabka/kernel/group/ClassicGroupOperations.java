package io.krabka.kernel.group;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.message.DescribeGroupsResponseData.DescribedGroup;
import org.apache.kafka.common.message.DescribeGroupsResponseData.DescribedGroupMember;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.LeaveGroupRequestData.MemberIdentity;
import org.apache.kafka.common.message.LeaveGroupResponseData.MemberResponse;
import org.apache.kafka.common.message.ListGroupsResponseData.ListedGroup;
import org.apache.kafka.common.protocol.Errors;

/**
 * Heartbeat, LeaveGroup, ListGroups and DescribeGroups on the classic groups of a {@link GroupMetadataManager}, as
 * Kafka's {@code GroupMetadataManager} answers them. Every method runs under the coordinator's lock.
 */
final class ClassicGroupOperations {

    /** The type ListGroups v5+ reports for a classic group. */
    static final String CLASSIC_GROUP_TYPE = "classic";

    private final GroupMetadataManager groups;

    ClassicGroupOperations(GroupMetadataManager groups) {
        this.groups = Objects.requireNonNull(groups, "groups");
    }

    /** A member's heartbeat: REBALANCE_IN_PROGRESS tells it to rejoin. */
    Errors heartbeat(HeartbeatRequestData request) {
        ClassicGroup group = groups.group(request.groupId()).orElse(null);
        if (group == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (group.isInState(ClassicGroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        Errors error = GroupMetadataManager.validateMember(group, request.memberId(), request.groupInstanceId());
        if (error != Errors.NONE) {
            return error;
        }
        if (request.generationId() != group.generationId()) {
            return Errors.ILLEGAL_GENERATION;
        }
        ClassicGroupMember member = group.member(request.memberId());
        return switch (group.state()) {
            case EMPTY, DEAD -> Errors.UNKNOWN_MEMBER_ID;
            case PREPARING_REBALANCE -> {
                groups.scheduleHeartbeat(group, member, member.sessionTimeoutMs());
                yield Errors.REBALANCE_IN_PROGRESS;
            }
            case COMPLETING_REBALANCE, STABLE -> {
                groups.scheduleHeartbeat(group, member, member.sessionTimeoutMs());
                yield Errors.NONE;
            }
        };
    }

    /**
     * Members leaving (LeaveGroup v3+ names several; older versions one, by member id).
     *
     * @return the group's error, and each member's in {@code responses}
     */
    Errors leaveGroup(String groupId, List<MemberIdentity> members, List<MemberResponse> responses) {
        ClassicGroup group = groups.group(groupId).orElse(null);
        if (group != null && group.isInState(ClassicGroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        for (MemberIdentity identity : members) {
            // No such group: each member is unknown, as Kafka's GroupCoordinatorService answers.
            Errors error = group == null ? Errors.UNKNOWN_MEMBER_ID : leave(group, identity);
            responses.add(new MemberResponse()
                    .setMemberId(identity.memberId())
                    .setGroupInstanceId(identity.groupInstanceId())
                    .setErrorCode(error.code()));
        }
        return Errors.NONE;
    }

    private Errors leave(ClassicGroup group, MemberIdentity identity) {
        String memberId = identity.memberId();
        String instanceId = identity.groupInstanceId();
        if (instanceId != null) {
            String existing = group.staticMemberId(instanceId);
            if (existing == null) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            if (!GroupMetadataManager.UNKNOWN_MEMBER_ID.equals(memberId) && !existing.equals(memberId)) {
                return Errors.FENCED_INSTANCE_ID;
            }
            memberId = existing;
        } else if (group.isPendingMember(memberId)) {
            groups.removePendingMember(group, memberId);
            return Errors.NONE;
        }
        ClassicGroupMember member = group.member(memberId);
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        groups.removeMemberAndUpdateGroup(group, member);
        return Errors.NONE;
    }

    /** The groups whose state and type are among those asked for (all when a filter is empty), case-insensitive. */
    List<ListedGroup> listGroups(List<String> statesFilter, List<String> typesFilter) {
        Set<String> states = lowerCase(statesFilter);
        Set<String> types = lowerCase(typesFilter);
        List<ListedGroup> listed = new ArrayList<>();
        if (!types.isEmpty() && !types.contains(CLASSIC_GROUP_TYPE)) {
            return listed;
        }
        for (ClassicGroup group : groups.groups()) {
            String state = group.state().toString();
            if (group.isInState(ClassicGroupState.DEAD)
                    || (!states.isEmpty() && !states.contains(state.toLowerCase(Locale.ROOT)))) {
                continue;
            }
            listed.add(new ListedGroup()
                    .setGroupId(group.groupId())
                    .setProtocolType(group.protocolType().orElse(""))
                    .setGroupState(state)
                    .setGroupType(CLASSIC_GROUP_TYPE));
        }
        return listed;
    }

    private static Set<String> lowerCase(List<String> values) {
        return values == null
                ? Set.of()
                : Set.copyOf(
                        values.stream().map(v -> v.toLowerCase(Locale.ROOT)).toList());
    }

    /**
     * A group as DescribeGroups reports it: the members' metadata and assignments only when Stable; a group that
     * does not exist is Dead, with GROUP_ID_NOT_FOUND from v6 (KIP-1043).
     */
    DescribedGroup describeGroup(String groupId, short version) {
        ClassicGroup group = groups.group(groupId).orElse(null);
        if (group == null || group.isInState(ClassicGroupState.DEAD)) {
            DescribedGroup dead = new DescribedGroup()
                    .setGroupId(groupId)
                    .setGroupState(ClassicGroupState.DEAD.toString())
                    .setProtocolType("")
                    .setProtocolData("");
            if (version >= 6) {
                dead.setErrorCode(Errors.GROUP_ID_NOT_FOUND.code()).setErrorMessage("Group " + groupId + " not found.");
            }
            return dead;
        }
        boolean stable = group.isInState(ClassicGroupState.STABLE);
        List<DescribedGroupMember> members = new ArrayList<>();
        for (ClassicGroupMember member : group.allMembers()) {
            DescribedGroupMember described = new DescribedGroupMember()
                    .setMemberId(member.memberId())
                    .setGroupInstanceId(member.groupInstanceId())
                    .setClientId(member.clientId())
                    .setClientHost(member.clientHost());
            if (stable) {
                described
                        .setMemberMetadata(member.metadata(group.protocolName().orElseThrow()))
                        .setMemberAssignment(member.assignment());
            }
            members.add(described);
        }
        return new DescribedGroup()
                .setGroupId(groupId)
                .setGroupState(group.state().toString())
                .setProtocolType(group.protocolType().orElse(""))
                .setProtocolData(stable ? group.protocolName().orElse("") : "")
                .setMembers(members);
    }
}
