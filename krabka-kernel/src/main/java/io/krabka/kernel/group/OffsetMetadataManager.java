package io.krabka.kernel.group;

import io.krabka.spi.common.TopicPartition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.protocol.Errors;

/**
 * The committed offsets of every group (Kafka's {@code OffsetMetadataManager}): commits checked against the classic
 * group's generation (or simple commits, generation -1, for empty groups and standalone consumers), written to the
 * log before they are answered; fetches; deletion with the group; expiry after {@code offsets.retention.minutes}.
 * Every method runs under the coordinator's lock.
 */
final class OffsetMetadataManager {

    private static final System.Logger LOG = System.getLogger(OffsetMetadataManager.class.getName());

    private final GroupMetadataManager groups;
    private final CoordinatorWriter writer;
    private final Map<String, Map<TopicPartition, OffsetCommitValue>> offsets = new HashMap<>();

    OffsetMetadataManager(GroupMetadataManager groups, CoordinatorWriter writer) {
        this.groups = Objects.requireNonNull(groups, "groups");
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    /** The error of a whole commit by this member and generation, or NONE (Kafka's {@code validateOffsetCommit}). */
    Errors validateCommit(String groupId, String memberId, String groupInstanceId, int generationId) {
        ClassicGroup group = groups.group(groupId).orElse(null);
        if (group == null) {
            return generationId < 0 ? Errors.NONE : Errors.ILLEGAL_GENERATION;
        }
        if (group.isInState(ClassicGroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        if (generationId < 0 && group.isInState(ClassicGroupState.EMPTY)) {
            // The admin client, or a consumer without group management: an empty group takes its offsets.
            return Errors.NONE;
        }
        if (generationId >= 0 || !memberId.isEmpty() || groupInstanceId != null) {
            Errors error = GroupMetadataManager.validateMember(group, memberId, groupInstanceId);
            if (error != Errors.NONE) {
                return error;
            }
            if (generationId != group.generationId()) {
                return Errors.ILLEGAL_GENERATION;
            }
        } else if (!group.isInState(ClassicGroupState.EMPTY)) {
            // A simple commit into a group that has members.
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (group.isInState(ClassicGroupState.COMPLETING_REBALANCE)) {
            return Errors.REBALANCE_IN_PROGRESS;
        }
        return Errors.NONE;
    }

    /**
     * Commits offsets validated by {@link #validateCommit}; returns each partition's error in order.
     *
     * @param retentionTimeMs OffsetCommit v2-v4's retention time, or -1 for {@code offsets.retention.minutes}
     */
    List<Errors> commit(String groupId, String memberId, List<PartitionCommit> commits, long retentionTimeMs) {
        ClassicGroup group = groups.getOrCreateGroup(groupId);
        ClassicGroupMember member = group.member(memberId);
        if (member != null) {
            // A commit shows the member is alive, as a heartbeat does.
            groups.scheduleHeartbeat(group, member, member.sessionTimeoutMs());
        }
        long now = groups.now();
        long expireTimestamp = retentionTimeMs < 0 ? -1 : now + retentionTimeMs;
        int maxMetadata = groups.config().offsetMetadataMaxBytes();
        List<Errors> errors = new ArrayList<>(commits.size());
        List<CoordinatorRecord> records = new ArrayList<>();
        for (PartitionCommit commit : commits) {
            if (commit.metadata() != null && commit.metadata().length() > maxMetadata) {
                errors.add(Errors.OFFSET_METADATA_TOO_LARGE);
                continue;
            }
            errors.add(Errors.NONE);
            records.add(new CoordinatorRecord.OffsetCommit(
                    new OffsetCommitKey(groupId, commit.topic(), commit.partition()),
                    new OffsetCommitValue(
                            commit.offset(),
                            commit.leaderEpoch(),
                            commit.metadata() == null ? "" : commit.metadata(),
                            now,
                            expireTimestamp,
                            commit.topicId())));
        }
        if (records.isEmpty()) {
            return errors;
        }
        try {
            writer.append(groupId, records);
        } catch (ApiException e) {
            Errors error =
                    e instanceof RecordTooLargeException ? Errors.INVALID_COMMIT_OFFSET_SIZE : Errors.forException(e);
            return errors.stream().map(e1 -> e1 == Errors.NONE ? error : e1).toList();
        }
        records.forEach(this::replay);
        return errors;
    }

    /** The offset committed for a partition, if any. */
    OffsetCommitValue committed(String groupId, String topic, int partition) {
        return offsets.getOrDefault(groupId, Map.of()).get(new TopicPartition(topic, partition));
    }

    /** Every offset committed by a group, by topic then partition. */
    Map<TopicPartition, OffsetCommitValue> committed(String groupId) {
        TreeMap<TopicPartition, OffsetCommitValue> sorted =
                new TreeMap<>((a, b) -> a.topic().equals(b.topic())
                        ? Integer.compare(a.partition(), b.partition())
                        : a.topic().compareTo(b.topic()));
        sorted.putAll(offsets.getOrDefault(groupId, Map.of()));
        return sorted;
    }

    boolean hasOffsets(String groupId) {
        return !offsets.getOrDefault(groupId, Map.of()).isEmpty();
    }

    /** DeleteGroups: an Empty group, its offsets and metadata, by tombstones. */
    Errors deleteGroup(String groupId) {
        ClassicGroup group = groups.group(groupId).orElse(null);
        if (group == null || group.isInState(ClassicGroupState.DEAD)) {
            return Errors.GROUP_ID_NOT_FOUND;
        }
        if (!group.isInState(ClassicGroupState.EMPTY)) {
            return Errors.NON_EMPTY_GROUP;
        }
        List<CoordinatorRecord> tombstones = new ArrayList<>();
        offsets.getOrDefault(groupId, Map.of())
                .keySet()
                .forEach(tp -> tombstones.add(new CoordinatorRecord.OffsetCommit(
                        new OffsetCommitKey(groupId, tp.topic(), tp.partition()), null)));
        tombstones.add(new CoordinatorRecord.GroupMetadata(new GroupMetadataKey(groupId), null));
        try {
            writer.append(groupId, tombstones);
        } catch (ApiException e) {
            return Errors.forException(e);
        }
        offsets.remove(groupId);
        groups.removeGroup(group);
        return Errors.NONE;
    }

    /**
     * Deletes every offset of these topics, as Kafka does when topics are deleted
     * ({@code GroupCoordinator.onPartitionsDeleted}), by tombstones group by group.
     *
     * @param served whether a group's partition is loaded here
     */
    void deleteTopics(Set<String> topics, Predicate<String> served) {
        for (String groupId : List.copyOf(offsets.keySet())) {
            if (!served.test(groupId)) {
                continue;
            }
            List<TopicPartition> deleted = offsets.get(groupId).keySet().stream()
                    .filter(tp -> topics.contains(tp.topic()))
                    .toList();
            if (deleted.isEmpty()) {
                continue;
            }
            try {
                writer.append(
                        groupId,
                        deleted.stream()
                                .<CoordinatorRecord>map(tp -> new CoordinatorRecord.OffsetCommit(
                                        new OffsetCommitKey(groupId, tp.topic(), tp.partition()), null))
                                .toList());
            } catch (ApiException e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "Could not delete the offsets of deleted topics " + topics + " in group " + groupId + ": " + e);
                continue;
            }
            deleted.forEach(tp -> removeOffset(groupId, tp));
        }
    }

    /**
     * Deletes the offsets past their retention, as Kafka's {@code cleanupGroupMetadata}: only of topics the group
     * does not subscribe to; for an Empty group {@code offsets.retention.minutes} after it became empty, for a
     * Stable consumer group (its other topics) and a group without a protocol (standalone consumers) after their
     * commit; those committed with an expire timestamp at it. An Empty group left without offsets is deleted.
     *
     * @param served whether a group's partition is loaded here
     */
    void expireOffsets(Predicate<String> served) {
        long now = groups.now();
        long retentionMs = groups.config().offsetsRetentionMs();
        for (ClassicGroup group : groups.groups()) {
            String groupId = group.groupId();
            if (!served.test(groupId)) {
                continue;
            }
            Optional<Set<String>> subscribed = group.subscribedTopics();
            List<TopicPartition> expired = new ArrayList<>();
            offsets.getOrDefault(groupId, Map.of()).forEach((tp, value) -> {
                boolean isSubscribed =
                        subscribed.map(topics -> topics.contains(tp.topic())).orElse(false);
                if (!isSubscribed && isExpired(group, subscribed, value, now, retentionMs)) {
                    expired.add(tp);
                }
            });
            List<CoordinatorRecord> tombstones = new ArrayList<>(expired.stream()
                    .<CoordinatorRecord>map(tp -> new CoordinatorRecord.OffsetCommit(
                            new OffsetCommitKey(groupId, tp.topic(), tp.partition()), null))
                    .toList());
            boolean deleteGroup = group.isInState(ClassicGroupState.EMPTY)
                    && offsets.getOrDefault(groupId, Map.of()).size() == expired.size()
                    && group.numPendingJoinMembers() == 0;
            if (deleteGroup) {
                tombstones.add(new CoordinatorRecord.GroupMetadata(new GroupMetadataKey(groupId), null));
            }
            if (tombstones.isEmpty()) {
                continue;
            }
            try {
                writer.append(groupId, tombstones);
            } catch (ApiException e) {
                LOG.log(System.Logger.Level.WARNING, "Could not expire the offsets of group " + groupId + ": " + e);
                continue;
            }
            expired.forEach(tp -> removeOffset(groupId, tp));
            if (deleteGroup) {
                groups.removeGroup(group);
            }
            LOG.log(
                    System.Logger.Level.INFO,
                    "Expired " + expired.size() + " offsets of group " + groupId
                            + (deleteGroup ? "; the group is deleted" : ""));
        }
    }

    // Kafka's ClassicGroup.offsetExpirationCondition: the time an offset's retention counts from, if it has one.
    private static boolean isExpired(
            ClassicGroup group, Optional<Set<String>> subscribed, OffsetCommitValue value, long now, long retentionMs) {
        long base;
        if (group.protocolType().isEmpty()) {
            base = value.commitTimestamp();
        } else if (group.isInState(ClassicGroupState.EMPTY)) {
            base = group.currentStateTimestampMs();
        } else if (subscribed.isPresent() && group.isInState(ClassicGroupState.STABLE)) {
            base = value.commitTimestamp();
        } else {
            return false;
        }
        return value.expireTimestamp() >= 0 ? now >= value.expireTimestamp() : now - base >= retentionMs;
    }

    /** Forgets the offsets of the groups of a partition this node no longer leads. */
    void unload(Predicate<String> inPartition) {
        offsets.keySet().removeIf(inPartition);
    }

    /** Applies an OffsetCommit record: the offset, or none for a tombstone; a group to hold it, as Kafka's. */
    void replay(CoordinatorRecord record) {
        if (!(record instanceof CoordinatorRecord.OffsetCommit(OffsetCommitKey key, OffsetCommitValue value))) {
            return;
        }
        TopicPartition tp = new TopicPartition(key.topic(), key.partition());
        if (value == null) {
            removeOffset(key.group(), tp);
        } else {
            groups.getOrCreateGroup(key.group());
            offsets.computeIfAbsent(key.group(), g -> new HashMap<>()).put(tp, value);
        }
    }

    private void removeOffset(String groupId, TopicPartition tp) {
        Map<TopicPartition, OffsetCommitValue> group = offsets.get(groupId);
        if (group != null) {
            group.remove(tp);
            if (group.isEmpty()) {
                offsets.remove(groupId);
            }
        }
    }
}
