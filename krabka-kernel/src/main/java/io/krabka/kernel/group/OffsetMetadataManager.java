package io.krabka.kernel.group;

import io.krabka.kernel.coordinator.CoordinatorLogWriter.TransactionalProducer;
import io.krabka.kernel.log.TransactionResult;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.spi.common.TopicPartition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
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
 *
 * <p>Transactional offset commits (TxnOffsetCommit) are written in their producer's transaction and kept pending
 * until its marker: a commit marker makes them committed, unless a commit written later in the log replaced them
 * (Kafka compares the offsets of the records, so that compaction cannot change the outcome); an abort drops them.
 * Every method runs under the coordinator's lock.
 */
final class OffsetMetadataManager {

    private static final System.Logger LOG = System.getLogger(OffsetMetadataManager.class.getName());

    private final GroupMetadataManager groups;
    private final CoordinatorWriter writer;
    private final Map<String, Map<TopicPartition, Committed>> offsets = new HashMap<>();
    // The offsets of open transactions, by producer then group; and the producers with offsets pending in a group.
    private final Map<Long, Map<String, Map<TopicPartition, Committed>>> pendingByProducer = new HashMap<>();
    private final Map<String, Set<Long>> openTransactionsByGroup = new HashMap<>();

    /** An offset with the log offset of the record that committed it. */
    private record Committed(OffsetCommitValue value, long recordOffset) {}

    OffsetMetadataManager(GroupMetadataManager groups, CoordinatorWriter writer) {
        this.groups = Objects.requireNonNull(groups, "groups");
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    /** The error of a whole commit by this member and generation, or NONE (Kafka's {@code validateOffsetCommit}). */
    Errors validateCommit(String groupId, String memberId, String groupInstanceId, int generationId) {
        return validateCommit(groupId, memberId, groupInstanceId, generationId, false);
    }

    /**
     * As {@link #validateCommit(String, String, String, int)}; a transactional commit may come without member and
     * generation into a group with members, and while the group completes a rebalance.
     */
    Errors validateCommit(
            String groupId, String memberId, String groupInstanceId, int generationId, boolean isTransactional) {
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
        } else if (!isTransactional && !group.isInState(ClassicGroupState.EMPTY)) {
            // A simple commit into a group that has members.
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (!isTransactional && group.isInState(ClassicGroupState.COMPLETING_REBALANCE)) {
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
        long expireTimestamp = retentionTimeMs < 0 ? -1 : groups.now() + retentionTimeMs;
        List<Errors> errors = new ArrayList<>(commits.size());
        List<CoordinatorRecord> records = offsetRecords(groupId, commits, expireTimestamp, errors);
        return write(groupId, records, errors, null);
    }

    /**
     * Commits offsets in {@code producer}'s transaction (TxnOffsetCommit), validated by {@link #validateCommit} as
     * transactional; they stay pending until the transaction's marker. Returns each partition's error in order.
     */
    List<Errors> commitTransactional(String groupId, TransactionalProducer producer, List<PartitionCommit> commits) {
        groups.getOrCreateGroup(groupId);
        List<Errors> errors = new ArrayList<>(commits.size());
        return write(groupId, offsetRecords(groupId, commits, -1, errors), errors, producer);
    }

    private List<CoordinatorRecord> offsetRecords(
            String groupId, List<PartitionCommit> commits, long expireTimestamp, List<Errors> errors) {
        long now = groups.now();
        int maxMetadata = groups.config().offsetMetadataMaxBytes();
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
        return records;
    }

    // Writes the records (in the producer's transaction, if any) and replays them; the errors of the partitions
    // written become the write's error if it fails.
    private List<Errors> write(
            String groupId, List<CoordinatorRecord> records, List<Errors> errors, TransactionalProducer producer) {
        if (records.isEmpty()) {
            return errors;
        }
        long firstOffset;
        try {
            firstOffset = writer.append(groupId, records, producer);
        } catch (ApiException e) {
            Errors error =
                    e instanceof RecordTooLargeException ? Errors.INVALID_COMMIT_OFFSET_SIZE : Errors.forException(e);
            return errors.stream().map(e1 -> e1 == Errors.NONE ? error : e1).toList();
        }
        long producerId = producer == null ? RecordBatch.NO_PRODUCER_ID : producer.producerId();
        for (int i = 0; i < records.size(); i++) {
            replay(firstOffset + i, producerId, records.get(i));
        }
        return errors;
    }

    /** The offset committed for a partition, if any. */
    OffsetCommitValue committed(String groupId, String topic, int partition) {
        Committed committed = offsets.getOrDefault(groupId, Map.of()).get(new TopicPartition(topic, partition));
        return committed == null ? null : committed.value();
    }

    /** Every offset committed by a group, by topic then partition. */
    Map<TopicPartition, OffsetCommitValue> committed(String groupId) {
        TreeMap<TopicPartition, OffsetCommitValue> sorted =
                new TreeMap<>((a, b) -> a.topic().equals(b.topic())
                        ? Integer.compare(a.partition(), b.partition())
                        : a.topic().compareTo(b.topic()));
        offsets.getOrDefault(groupId, Map.of()).forEach((tp, committed) -> sorted.put(tp, committed.value()));
        return sorted;
    }

    /** Whether an open transaction holds an offset of {@code tp} for the group (OffsetFetch's require_stable). */
    boolean hasPendingTransactionalOffsets(String groupId, TopicPartition tp) {
        return openTransactionsByGroup.getOrDefault(groupId, Set.of()).stream()
                .anyMatch(producerId -> pendingByProducer
                        .getOrDefault(producerId, Map.of())
                        .getOrDefault(groupId, Map.of())
                        .containsKey(tp));
    }

    /**
     * Ends {@code producerId}'s transaction in the groups {@code inPartition} names (those of the partition of
     * {@code __consumer_offsets} whose marker this is): its offsets committed, or dropped.
     */
    void replayEndTransactionMarker(long producerId, TransactionResult result, Predicate<String> inPartition) {
        Map<String, Map<TopicPartition, Committed>> pending = pendingByProducer.get(producerId);
        if (pending == null) {
            return;
        }
        for (String groupId : List.copyOf(pending.keySet())) {
            if (!inPartition.test(groupId)) {
                continue;
            }
            Map<TopicPartition, Committed> groupOffsets = pending.remove(groupId);
            Set<Long> open = openTransactionsByGroup.get(groupId);
            if (open != null) {
                open.remove(producerId);
                if (open.isEmpty()) {
                    openTransactionsByGroup.remove(groupId);
                }
            }
            if (result == TransactionResult.COMMIT) {
                groupOffsets.forEach((tp, committed) -> {
                    Committed existing = offsets.getOrDefault(groupId, Map.of()).get(tp);
                    // The latest record wins, transactional or not.
                    if (existing == null || committed.recordOffset() > existing.recordOffset()) {
                        offsets.computeIfAbsent(groupId, g -> new HashMap<>()).put(tp, committed);
                    }
                });
            }
        }
        if (pending.isEmpty()) {
            pendingByProducer.remove(producerId);
        }
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
        // The offsets of open transactions go too, as Kafka's deleteAllOffsets deletes them.
        Set<TopicPartition> deleted =
                new HashSet<>(offsets.getOrDefault(groupId, Map.of()).keySet());
        for (Long open : openTransactionsByGroup.getOrDefault(groupId, Set.of())) {
            deleted.addAll(pendingByProducer
                    .getOrDefault(open, Map.of())
                    .getOrDefault(groupId, Map.of())
                    .keySet());
        }
        List<CoordinatorRecord> tombstones = new ArrayList<>();
        deleted.forEach(tp -> tombstones.add(
                new CoordinatorRecord.OffsetCommit(new OffsetCommitKey(groupId, tp.topic(), tp.partition()), null)));
        tombstones.add(new CoordinatorRecord.GroupMetadata(new GroupMetadataKey(groupId), null));
        try {
            writer.append(groupId, tombstones);
        } catch (ApiException e) {
            return Errors.forException(e);
        }
        tombstones.forEach(tombstone -> replay(-1, RecordBatch.NO_PRODUCER_ID, tombstone));
        groups.removeGroup(group);
        return Errors.NONE;
    }

    /**
     * OffsetDelete (Kafka's {@code deleteOffsets}): a tombstone for each partition asked for that has an offset,
     * committed or pending in a transaction; every partition of a topic the group's members consume answers
     * GROUP_SUBSCRIBED_TO_TOPIC and keeps its offset. The group's error (GROUP_ID_NOT_FOUND for none,
     * NON_EMPTY_GROUP for a group with members that is not a consumer group, the write's error) fails them all.
     *
     * @param topics the partitions asked for, by topic
     */
    OffsetDeletion deleteOffsets(String groupId, Map<String, List<Integer>> topics) {
        ClassicGroup group = groups.group(groupId).orElse(null);
        if (group == null || group.isInState(ClassicGroupState.DEAD)) {
            return OffsetDeletion.failed(Errors.GROUP_ID_NOT_FOUND);
        }
        boolean consumerGroup = group.protocolType()
                .filter(ClassicGroup.CONSUMER_PROTOCOL_TYPE::equals)
                .isPresent();
        if (!group.isInState(ClassicGroupState.EMPTY) && !consumerGroup) {
            return OffsetDeletion.failed(Errors.NON_EMPTY_GROUP);
        }
        Optional<Set<String>> subscribed = group.subscribedTopics();
        Map<TopicPartition, Errors> results = new LinkedHashMap<>();
        List<CoordinatorRecord> tombstones = new ArrayList<>();
        topics.forEach((topic, partitions) -> {
            // A consumer group whose subscription is unknown is taken to consume every topic, as Kafka takes it.
            boolean isSubscribed =
                    subscribed.map(names -> names.contains(topic)).orElse(consumerGroup);
            for (int partition : partitions) {
                TopicPartition tp = new TopicPartition(topic, partition);
                if (isSubscribed) {
                    results.put(tp, Errors.GROUP_SUBSCRIBED_TO_TOPIC);
                    continue;
                }
                results.put(tp, Errors.NONE);
                if (committed(groupId, topic, partition) != null || hasPendingTransactionalOffsets(groupId, tp)) {
                    tombstones.add(
                            new CoordinatorRecord.OffsetCommit(new OffsetCommitKey(groupId, topic, partition), null));
                }
            }
        });
        if (!tombstones.isEmpty()) {
            try {
                writer.append(groupId, tombstones);
            } catch (ApiException e) {
                return OffsetDeletion.failed(Errors.forException(e));
            }
            tombstones.forEach(tombstone -> replay(-1, RecordBatch.NO_PRODUCER_ID, tombstone));
        }
        return new OffsetDeletion(Errors.NONE, results);
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
            offsets.getOrDefault(groupId, Map.of()).forEach((tp, committed) -> {
                boolean isSubscribed =
                        subscribed.map(topics -> topics.contains(tp.topic())).orElse(false);
                if (!isSubscribed && isExpired(group, subscribed, committed.value(), now, retentionMs)) {
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
        openTransactionsByGroup.keySet().removeIf(inPartition);
        pendingByProducer.values().forEach(byGroup -> byGroup.keySet().removeIf(inPartition));
        pendingByProducer.values().removeIf(Map::isEmpty);
    }

    /**
     * Applies an OffsetCommit record: the offset (pending, for a transactional one), or none for a tombstone, which
     * also drops the partition's pending offsets; a group to hold it, as Kafka's.
     *
     * @param recordOffset the record's offset in the log
     * @param producerId   the producer of a transactional commit, else {@link RecordBatch#NO_PRODUCER_ID}
     */
    void replay(long recordOffset, long producerId, CoordinatorRecord record) {
        if (!(record instanceof CoordinatorRecord.OffsetCommit(OffsetCommitKey key, OffsetCommitValue value))) {
            return;
        }
        String groupId = key.group();
        TopicPartition tp = new TopicPartition(key.topic(), key.partition());
        if (value == null) {
            removeOffset(groupId, tp);
            for (Long open : openTransactionsByGroup.getOrDefault(groupId, Set.of())) {
                Map<TopicPartition, Committed> pending =
                        pendingByProducer.getOrDefault(open, Map.of()).get(groupId);
                if (pending != null) {
                    pending.remove(tp);
                }
            }
            return;
        }
        groups.getOrCreateGroup(groupId);
        Committed committed = new Committed(value, recordOffset);
        if (producerId == RecordBatch.NO_PRODUCER_ID) {
            offsets.computeIfAbsent(groupId, g -> new HashMap<>()).put(tp, committed);
        } else {
            pendingByProducer
                    .computeIfAbsent(producerId, id -> new HashMap<>())
                    .computeIfAbsent(groupId, g -> new HashMap<>())
                    .put(tp, committed);
            openTransactionsByGroup
                    .computeIfAbsent(groupId, g -> new HashSet<>())
                    .add(producerId);
        }
    }

    private void removeOffset(String groupId, TopicPartition tp) {
        Map<TopicPartition, Committed> group = offsets.get(groupId);
        if (group != null) {
            group.remove(tp);
            if (group.isEmpty()) {
                offsets.remove(groupId);
            }
        }
    }
}
