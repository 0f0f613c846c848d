package io.krabka.kernel.group;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.coordinator.CoordinatorLogWriter;
import io.krabka.kernel.coordinator.CoordinatorLogWriter.TransactionalProducer;
import io.krabka.kernel.coordinator.CoordinatorPartitions;
import io.krabka.kernel.errors.KernelErrors;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.TransactionResult;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.VerificationGuard;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataPublisher;
import io.krabka.kernel.scheduler.Scheduler;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.time.InstantSource;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import org.apache.kafka.common.message.DescribeGroupsResponseData.DescribedGroup;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.LeaveGroupRequestData.MemberIdentity;
import org.apache.kafka.common.message.LeaveGroupResponseData.MemberResponse;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;

/**
 * The classic group coordinator of this node (Kafka's {@code GroupCoordinator} service): it owns the partitions of
 * {@code __consumer_offsets} this node leads, loads their groups and offsets from the log when they appear in a
 * published image, and answers the group APIs for their groups. One lock serializes every change and the timers;
 * records are appended to the log under it, so every answer follows its write.
 *
 * <p>The offsets of a topic deleted from the metadata are deleted too (tombstones), as Kafka does.
 *
 * <p>Errors, as Kafka's: an empty group id is INVALID_GROUP_ID; a group of a partition this node does not lead
 * (or of a topic not yet created) NOT_COORDINATOR; of a partition still loading COORDINATOR_LOAD_IN_PROGRESS.
 */
public final class GroupCoordinator implements MetadataPublisher, AutoCloseable {

    private final GroupCoordinatorConfig config;
    private final Scheduler scheduler;
    private final OffsetsTopic topic;
    private final CoordinatorPartitions partitions;
    private final CoordinatorTimers timers;
    private final GroupMetadataManager groups;
    private final ClassicGroupJoin join;
    private final ClassicGroupSync sync;
    private final ClassicGroupOperations operations;
    private final OffsetMetadataManager offsets;
    private final LogManager logManager;
    private final OffsetsTopicWriter writer;
    private volatile MetadataImage image = MetadataImage.EMPTY;
    private ScheduledFuture<?> retention;
    private volatile boolean closed;

    /**
     * A coordinator; {@link #startup()} starts its offset expiry, and the integrator registers it with the
     * controller after the replica manager (which creates the logs it loads).
     *
     * @param nodeId     this node: the coordinator serves the partitions it leads
     * @param controller creates {@code __consumer_offsets} on first use
     * @param logManager holds the partitions' logs
     * @param scheduler  runs the loads, timers and offset expiry
     */
    public GroupCoordinator(
            int nodeId,
            GroupCoordinatorConfig config,
            Controller controller,
            LogManager logManager,
            Scheduler scheduler,
            InstantSource time) {
        this.config = Objects.requireNonNull(config, "config");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.logManager = Objects.requireNonNull(logManager, "logManager");
        this.topic = new OffsetsTopic(
                config,
                () -> image.topic(OffsetsTopic.NAME)
                        .map(t -> t.partitions().size())
                        .orElse(0));
        this.timers = new CoordinatorTimers(this, scheduler);
        this.partitions = new CoordinatorPartitions(
                OffsetsTopic.NAME, new Shard(), nodeId, controller, logManager, scheduler, topic::creation);
        this.writer = new OffsetsTopicWriter(
                new CoordinatorLogWriter(logManager, time),
                topic,
                config.offsetsTopicCompressionType(),
                partitions::leaderEpoch);
        this.groups = new GroupMetadataManager(config, time, timers, writer);
        this.join = new ClassicGroupJoin(groups, writer);
        this.sync = new ClassicGroupSync(groups, writer);
        this.operations = new ClassicGroupOperations(groups);
        this.offsets = new OffsetMetadataManager(groups, writer);
    }

    /** Starts the periodic offset expiry ({@code offsets.retention.check.interval.ms}). */
    public synchronized void startup() {
        long interval = config.offsetsRetentionCheckIntervalMs();
        retention = scheduler.schedule("group-coordinator-offsets-retention", this::expireOffsets, interval, interval);
    }

    /** The topic of the offsets. */
    public OffsetsTopic offsetsTopic() {
        return topic;
    }

    @Override
    public String name() {
        return "GroupCoordinator";
    }

    @Override
    public void onMetadataUpdate(MetadataImage previous, MetadataImage current) {
        image = current;
        partitions.onMetadataUpdate(current);
        Set<String> deleted = new HashSet<>();
        previous.topics().forEach((name, before) -> {
            if (current.topic(name).filter(now -> now.id().equals(before.id())).isEmpty()) {
                deleted.add(name);
            }
        });
        if (!deleted.isEmpty()) {
            synchronized (this) {
                offsets.deleteTopics(deleted, groupId -> check(groupId) == Errors.NONE);
            }
        }
    }

    /**
     * Where a group's coordinator is: NONE when this node leads the group's partition (creating
     * {@code __consumer_offsets} first if it does not exist), else COORDINATOR_NOT_AVAILABLE.
     */
    public CompletableFuture<Errors> findCoordinator(String groupId) {
        return partitions
                .ensureTopic(image)
                .handle((done, error) -> error != null
                        ? Errors.COORDINATOR_NOT_AVAILABLE
                        : partitions.leads(image, topic.partitionFor(groupId)));
    }

    // The group APIs.

    /** JoinGroup; the future completes when the join phase does (or at once with an error). */
    public synchronized CompletableFuture<JoinGroupResponseData> joinGroup(
            GroupRequestContext context, JoinGroupRequestData request) {
        CompletableFuture<JoinGroupResponseData> future = new CompletableFuture<>();
        Errors error = check(request.groupId());
        if (error != Errors.NONE) {
            future.complete(GroupMetadataManager.joinError(request.memberId(), error));
        } else {
            join.joinGroup(context, request, future);
        }
        return future;
    }

    /** SyncGroup; the future completes when the leader's assignment is written (or at once). */
    public synchronized CompletableFuture<SyncGroupResponseData> syncGroup(SyncGroupRequestData request) {
        CompletableFuture<SyncGroupResponseData> future = new CompletableFuture<>();
        Errors error = check(request.groupId());
        if (error != Errors.NONE) {
            future.complete(GroupMetadataManager.syncError(error));
        } else {
            sync.syncGroup(request, future);
        }
        return future;
    }

    /** Heartbeat: the error to answer. */
    public synchronized Errors heartbeat(HeartbeatRequestData request) {
        Errors error = check(request.groupId());
        return error != Errors.NONE ? error : operations.heartbeat(request);
    }

    /** LeaveGroup: the group's error, and each member's in {@code responses}. */
    public synchronized Errors leaveGroup(
            String groupId, List<MemberIdentity> members, List<MemberResponse> responses) {
        Errors error = check(groupId);
        return error != Errors.NONE ? error : operations.leaveGroup(groupId, members, responses);
    }

    /**
     * OffsetCommit: each partition's error, in order, once the offsets are written.
     *
     * @param generationId    the member's generation, or -1 for a simple commit
     * @param retentionTimeMs OffsetCommit v2-v4's retention time, or -1
     */
    public synchronized List<Errors> commitOffsets(
            String groupId,
            String memberId,
            String groupInstanceId,
            int generationId,
            long retentionTimeMs,
            List<PartitionCommit> commits) {
        Errors error = check(groupId);
        if (error == Errors.NONE) {
            error = offsets.validateCommit(groupId, memberId, groupInstanceId, generationId);
        }
        if (error != Errors.NONE) {
            return Collections.nCopies(commits.size(), error);
        }
        return offsets.commit(groupId, memberId, commits, retentionTimeMs);
    }

    /**
     * OffsetFetch of one group. With {@code requireStable} (a read_committed consumer), a partition whose offset an
     * open transaction holds answers UNSTABLE_OFFSET_COMMIT, which the consumer retries.
     *
     * @param partitions the partitions asked for, or null for every partition with an offset
     */
    public synchronized GroupOffsets fetchOffsets(
            String groupId, List<TopicPartition> partitions, boolean requireStable) {
        Errors error = check(groupId);
        if (error != Errors.NONE) {
            return new GroupOffsets(error, Map.of(), Set.of());
        }
        Map<TopicPartition, OffsetCommitValue> found;
        if (partitions == null) {
            found = offsets.committed(groupId);
        } else {
            found = new LinkedHashMap<>();
            for (TopicPartition tp : partitions) {
                found.put(tp, offsets.committed(groupId, tp.topic(), tp.partition()));
            }
        }
        Set<TopicPartition> unstable = new HashSet<>();
        if (requireStable) {
            found.keySet().stream()
                    .filter(tp -> offsets.hasPendingTransactionalOffsets(groupId, tp))
                    .forEach(unstable::add);
        }
        return new GroupOffsets(Errors.NONE, found, unstable);
    }

    // Transactions.

    /** The partition of {@code __consumer_offsets} that holds a group. */
    public TopicPartition offsetsPartition(String groupId) {
        return new TopicPartition(OffsetsTopic.NAME, topic.partitionFor(groupId));
    }

    /**
     * Begins the verification that the partition of the group's offsets is in {@code producerId}'s transaction
     * (KIP-890), for a TxnOffsetCommit: none is needed ({@link VerificationGuard#SENTINEL}) when the producer has a
     * transaction open there, or when {@code transaction.partition.verification.enable} is off and the producer does
     * not add partitions itself (transaction version 2).
     *
     * @throws org.apache.kafka.common.errors.ApiException NOT_COORDINATOR if this node has no log of the partition,
     *                                                     INVALID_PRODUCER_EPOCH for an epoch older than the log's
     */
    public VerificationGuard maybeStartTransactionVerification(
            String groupId, long producerId, short producerEpoch, boolean supportsEpochBump) {
        if (!supportsEpochBump && !logManager.producerStateManagerConfig().transactionVerificationEnabled()) {
            return VerificationGuard.SENTINEL;
        }
        TopicPartition partition = offsetsPartition(groupId);
        UnifiedLog log = logManager
                .getLog(partition)
                .orElseThrow(() -> Errors.NOT_COORDINATOR.exception("this broker has no log of " + partition));
        try {
            return log.maybeStartTransactionVerification(producerId, producerEpoch, supportsEpochBump);
        } catch (RuntimeException e) {
            throw KernelErrors.forException(e).exception(e.getMessage());
        }
    }

    /**
     * TxnOffsetCommit: commits offsets in the producer's transaction, pending until its marker; each partition's
     * error, in order, once they are written.
     *
     * @param generationId the member's generation, or -1 for a producer outside the group
     * @param guard        the verification {@link #maybeStartTransactionVerification} began, confirmed by the
     *                     transaction coordinator
     */
    public synchronized List<Errors> commitTransactionalOffsets(
            String groupId,
            String memberId,
            String groupInstanceId,
            int generationId,
            long producerId,
            short producerEpoch,
            VerificationGuard guard,
            List<PartitionCommit> commits) {
        Errors error = check(groupId);
        if (error == Errors.NONE) {
            error = offsets.validateCommit(groupId, memberId, groupInstanceId, generationId, true);
        }
        if (error != Errors.NONE) {
            return Collections.nCopies(commits.size(), error);
        }
        return offsets.commitTransactional(
                groupId, new TransactionalProducer(producerId, producerEpoch, guard), commits);
    }

    /**
     * Writes the end-transaction marker of {@code producerId}'s transaction to a partition of
     * {@code __consumer_offsets}, and commits or drops the transaction's offsets of that partition's groups (Kafka's
     * {@code completeTransaction}). A partition not served here answers NOT_LEADER_OR_FOLLOWER, which the
     * transaction coordinator retries.
     */
    public synchronized Errors completeTransaction(
            int partition,
            long producerId,
            short producerEpoch,
            int coordinatorEpoch,
            TransactionResult result,
            short transactionVersion) {
        if (closed || partitions.state(partition) != Errors.NONE) {
            return Errors.NOT_LEADER_OR_FOLLOWER;
        }
        try {
            writer.appendMarker(partition, producerId, producerEpoch, result, coordinatorEpoch, transactionVersion);
        } catch (org.apache.kafka.common.errors.ApiException e) {
            return Errors.forException(e);
        }
        offsets.replayEndTransactionMarker(producerId, result, groupId -> topic.partitionFor(groupId) == partition);
        return Errors.NONE;
    }

    /** ListGroups: the groups of the loaded partitions, and COORDINATOR_LOAD_IN_PROGRESS while some load. */
    public synchronized ListGroupsResponseData listGroups(List<String> statesFilter, List<String> typesFilter) {
        return new ListGroupsResponseData()
                .setErrorCode((partitions.anyLoading() ? Errors.COORDINATOR_LOAD_IN_PROGRESS : Errors.NONE).code())
                .setGroups(operations.listGroups(statesFilter, typesFilter).stream()
                        .filter(g -> check(g.groupId()) == Errors.NONE)
                        .toList());
    }

    /** DescribeGroups of one group. */
    public synchronized DescribedGroup describeGroup(String groupId, short version) {
        Errors error = check(groupId);
        return error != Errors.NONE
                ? new DescribedGroup().setGroupId(groupId).setErrorCode(error.code())
                : operations.describeGroup(groupId, version);
    }

    /** DeleteGroups of one group: only an Empty group goes (NON_EMPTY_GROUP otherwise). */
    public synchronized Errors deleteGroup(String groupId) {
        Errors error = check(groupId);
        return error != Errors.NONE ? error : offsets.deleteGroup(groupId);
    }

    /**
     * OffsetDelete of one group: the offsets of the partitions asked for, except those of topics its members
     * consume (GROUP_SUBSCRIBED_TO_TOPIC); a group with members that is not a consumer group answers
     * NON_EMPTY_GROUP, an unknown group GROUP_ID_NOT_FOUND.
     *
     * @param topics the partitions asked for, by topic (all of them known to the metadata)
     */
    public synchronized OffsetDeletion deleteOffsets(String groupId, Map<String, List<Integer>> topics) {
        Errors error = check(groupId);
        return error != Errors.NONE ? OffsetDeletion.failed(error) : offsets.deleteOffsets(groupId, topics);
    }

    private Errors check(String groupId) {
        if (groupId == null || groupId.isEmpty()) {
            return Errors.INVALID_GROUP_ID;
        }
        if (closed) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        return partitions.state(topic.partitionFor(groupId));
    }

    private synchronized void expireOffsets() {
        if (!closed) {
            offsets.expireOffsets(groupId -> check(groupId) == Errors.NONE);
        }
    }

    // Loading and unloading the partitions of __consumer_offsets this node leads.
    private final class Shard implements CoordinatorPartitions.Shard {

        @Override
        public long load(int partition, int leaderEpoch, UnifiedLog log) throws IOException {
            long records = CoordinatorLoader.load(log, chunk -> {
                synchronized (GroupCoordinator.this) {
                    replay(partition, chunk);
                }
            });
            synchronized (GroupCoordinator.this) {
                for (ClassicGroup group : groups.groups()) {
                    if (topic.partitionFor(group.groupId()) == partition) {
                        groups.onLoaded(group);
                    }
                }
            }
            return records;
        }

        @Override
        public void unload(int partition) {
            synchronized (GroupCoordinator.this) {
                groups.unload(groupId -> topic.partitionFor(groupId) == partition);
                offsets.unload(groupId -> topic.partitionFor(groupId) == partition);
            }
        }

        @Override
        public boolean isClosed() {
            return closed;
        }
    }

    private void replay(int partition, List<CoordinatorLoader.Loaded> loaded) {
        for (CoordinatorLoader.Loaded entry : loaded) {
            switch (entry) {
                case CoordinatorLoader.LoadedRecord(long offset, long producerId, CoordinatorRecord record) -> {
                    switch (record) {
                        case CoordinatorRecord.GroupMetadata group -> groups.replay(group.key(), group.value());
                        case CoordinatorRecord.OffsetCommit commit -> offsets.replay(offset, producerId, commit);
                    }
                }
                case CoordinatorLoader.LoadedMarker(long producerId, TransactionResult result) ->
                    offsets.replayEndTransactionMarker(
                            producerId, result, groupId -> topic.partitionFor(groupId) == partition);
            }
        }
    }

    /** Stops the timers and the expiry; requests waiting on a join or sync get COORDINATOR_NOT_AVAILABLE. */
    @Override
    public synchronized void close() {
        closed = true;
        if (retention != null) {
            retention.cancel(false);
        }
        timers.cancelAll();
        groups.failPending(Errors.COORDINATOR_NOT_AVAILABLE);
    }
}
