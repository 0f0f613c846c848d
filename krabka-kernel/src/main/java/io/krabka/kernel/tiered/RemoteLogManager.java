package io.krabka.kernel.tiered;

import io.krabka.kernel.log.LogStartOffsetIncrementReason;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataPublisher;
import io.krabka.kernel.metrics.MetricsRegistry;
import io.krabka.kernel.scheduler.Scheduler;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.Closeable;
import java.io.IOException;
import java.time.InstantSource;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Kafka's {@code RemoteLogManager} for a single-node broker: tiers the partitions this node leads whose log is
 * tiered ({@link UnifiedLog#remoteLogEnabled()}), each with an {@link RLMCopyTask} and an {@link RLMExpirationTask}
 * run every {@code remote.log.manager.task.interval.ms}, and deletes the remote data of deleted tiered topics and
 * of topics whose {@code remote.storage.enable} was turned off with {@code remote.log.delete.on.disable}
 * (KIP-950) through {@link RemotePartitionDeleter}.
 *
 * <p>A {@link MetadataPublisher}, registered after the replica manager (which creates, reconfigures and deletes the
 * logs): {@link #onMetadataUpdate} only works out which partitions start, stop or go, and hands that to the
 * scheduler; every plugin call (the metadata manager's leadership changes, copies, deletes) runs on the scheduler's
 * threads, never on the caller's. A partition's tasks do nothing while the metadata manager is not ready for it.
 *
 * <p>It owns the storage manager and the metadata manager: {@link #close} closes them.
 */
public final class RemoteLogManager implements MetadataPublisher, Closeable {

    private static final System.Logger LOG = System.getLogger(RemoteLogManager.class.getName());

    private final RemoteLogManagerConfig config;
    private final int brokerId;
    private final RemoteStorageManager rsm;
    private final RemoteLogMetadataManager rlmm;
    private final Function<TopicPartition, Optional<UnifiedLog>> logs;
    private final Scheduler scheduler;
    private final InstantSource time;
    private final RemoteLogManagerMetrics metrics;
    private final RLMQuotaManager copyQuota;
    private final ExponentialBackoff backoff;
    private final RemoteLogSegmentDeleter segmentDeleter;
    private final Consumer<String> topicDeleted;
    private final Map<TopicIdPartition, PartitionTasks> tasks = new ConcurrentHashMap<>();
    private final Map<TopicIdPartition, RemotePartitionDeleter> deletions = new ConcurrentHashMap<>();
    private final Queue<Runnable> pendingChanges = new ConcurrentLinkedQueue<>();
    private final Object changeLock = new Object();
    // The partitions tiered as of the last image; only onMetadataUpdate's thread reads and writes it.
    private Set<TopicIdPartition> tiered = Set.of();
    private volatile boolean closed;

    /** A partition's scheduled tasks. */
    private record PartitionTasks(
            RLMCopyTask copy,
            ScheduledFuture<?> copyFuture,
            RLMExpirationTask expiration,
            ScheduledFuture<?> expirationFuture) {
        void cancel() {
            copy.cancel();
            expiration.cancel();
            copyFuture.cancel(false);
            expirationFuture.cancel(false);
        }
    }

    /**
     * A remote log manager; it does nothing until the first {@link #onMetadataUpdate}.
     *
     * @param config    the broker's tiered storage settings
     * @param brokerId  this node's id: the leader of the partitions it tiers, and the broker id of its metadata
     * @param rsm       the remote storage manager, configured
     * @param rlmm      the remote log metadata manager, configured
     * @param logs      the log of a partition, if this broker has it ({@code LogManager::getLog})
     * @param scheduler runs the tasks and every plugin call; a dedicated one sized by
     *                  {@code remote.log.manager.thread.pool.size} keeps slow storage off the log's own tasks
     * @param time      the clock of task intervals, backoffs, quotas and retention
     * @param registry  where its metrics are published
     * @param deleted   told the id of every remote segment deleted, once its data is gone (the remote index cache
     *                  forgets its indexes)
     * @param topicDeleted told the name of a deleted topic once the remote data of its last partition is gone (its
     *                  per-topic metrics elsewhere go, as Kafka removes a deleted topic's)
     */
    public RemoteLogManager(
            RemoteLogManagerConfig config,
            int brokerId,
            RemoteStorageManager rsm,
            RemoteLogMetadataManager rlmm,
            Function<TopicPartition, Optional<UnifiedLog>> logs,
            Scheduler scheduler,
            InstantSource time,
            MetricsRegistry registry,
            Consumer<Uuid> deleted,
            Consumer<String> topicDeleted) {
        this.metrics = new RemoteLogManagerMetrics(registry);
        this.config = Objects.requireNonNull(config, "config");
        this.brokerId = brokerId;
        this.rsm = Objects.requireNonNull(rsm, "rsm");
        this.rlmm = Objects.requireNonNull(rlmm, "rlmm");
        this.logs = Objects.requireNonNull(logs, "logs");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.time = Objects.requireNonNull(time, "time");
        this.copyQuota = new RLMQuotaManager(
                config.remoteLogManagerCopyMaxBytesPerSecond(),
                config.remoteLogManagerCopyQuotaWindowNum(),
                config.remoteLogManagerCopyQuotaWindowSizeSeconds(),
                time);
        this.backoff = new ExponentialBackoff(
                config.remoteLogManagerTaskRetryBackoffMs(),
                config.remoteLogManagerTaskRetryBackoffMaxMs(),
                config.remoteLogManagerTaskRetryJitter());
        this.segmentDeleter = new RemoteLogSegmentDeleter(rsm, rlmm, metrics, brokerId, time, deleted);
        this.topicDeleted = Objects.requireNonNull(topicDeleted, "topicDeleted");
    }

    @Override
    public String name() {
        return "RemoteLogManager";
    }

    /** The metrics, for JMX. */
    public RemoteLogManagerMetrics metrics() {
        return metrics;
    }

    /** The partitions whose copy and expiration tasks are scheduled. */
    public Set<TopicIdPartition> tieredPartitions() {
        return Set.copyOf(tasks.keySet());
    }

    /** The partitions whose remote data is being deleted (a failed deletion is retried). */
    public Set<TopicIdPartition> pendingDeletions() {
        return Set.copyOf(deletions.keySet());
    }

    @Override
    public void onMetadataUpdate(MetadataImage previous, MetadataImage current) {
        TieredPartitionChanges changes = TieredPartitionChanges.of(tiered, current, brokerId, logs);
        tiered = changes.tiered();
        if (!changes.isEmpty()) {
            enqueue(() -> applyChanges(changes));
        }
    }

    // Runs the changes in the order of the images, one at a time, on the scheduler.
    private void enqueue(Runnable change) {
        pendingChanges.add(change);
        scheduler.scheduleOnce("remote-log-manager-partition-changes", () -> {
            synchronized (changeLock) {
                for (Runnable next = pendingChanges.poll(); next != null; next = pendingChanges.poll()) {
                    if (closed) {
                        return;
                    }
                    try {
                        next.run();
                    } catch (RuntimeException e) {
                        LOG.log(System.Logger.Level.ERROR, "Error while changing the tiered partitions", e);
                    }
                }
            }
        });
    }

    private void applyChanges(TieredPartitionChanges changes) {
        Set<TopicIdPartition> stopped = changes.stopped();
        Set<TopicIdPartition> started = changes.started();
        if (!stopped.isEmpty()) {
            for (TopicIdPartition partition : stopped) {
                PartitionTasks partitionTasks = tasks.remove(partition);
                if (partitionTasks != null) {
                    partitionTasks.cancel();
                }
                metrics.removePartition(partition);
            }
            try {
                rlmm.onStopPartitions(stopped);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "The metadata manager failed to stop " + stopped, e);
            }
            LOG.log(System.Logger.Level.INFO, "Stopped tiering " + stopped);
        }
        if (!started.isEmpty()) {
            // The tasks start even if the metadata manager fails here: they wait while it is not ready.
            try {
                rlmm.onPartitionLeadershipChanges(started, Set.of());
            } catch (RuntimeException e) {
                LOG.log(
                        System.Logger.Level.ERROR,
                        "The metadata manager failed to take the leadership of " + started,
                        e);
            }
            started.forEach(this::scheduleTasks);
            LOG.log(System.Logger.Level.INFO, "Started tiering " + started);
        }
        for (TopicIdPartition partition : changes.deleted()) {
            RemotePartitionDeleter deleter =
                    new RemotePartitionDeleter(partition, rlmm, segmentDeleter, brokerId, time);
            deletions.put(partition, deleter);
            // On its own: a slow deletion holds no other partition's start or stop back.
            scheduler.scheduleOnce("RemotePartitionDeleter-" + partition, () -> runDeletion(deleter, 1));
        }
    }

    private void scheduleTasks(TopicIdPartition partition) {
        long intervalMs = config.remoteLogManagerTaskIntervalMs();
        RLMCopyTask copy = new RLMCopyTask(
                partition,
                logs,
                rsm,
                rlmm,
                segmentDeleter,
                metrics,
                copyQuota,
                brokerId,
                config.remoteLogMetadataCustomMetadataMaxBytes(),
                time,
                backoff);
        RLMExpirationTask expiration =
                new RLMExpirationTask(partition, logs, rlmm, segmentDeleter, metrics, time, backoff);
        PartitionTasks previous = tasks.put(
                partition,
                new PartitionTasks(
                        copy,
                        scheduler.schedule("RLMCopyTask-" + partition, copy, 0, intervalMs),
                        expiration,
                        scheduler.schedule("RLMExpirationTask-" + partition, expiration, 0, intervalMs)));
        if (previous != null) {
            previous.cancel();
        }
    }

    private void runDeletion(RemotePartitionDeleter deleter, int attempt) {
        if (closed) {
            return;
        }
        TopicIdPartition partition = deleter.topicIdPartition();
        try {
            deleter.delete();
        } catch (RemoteStorageException | RuntimeException e) {
            long waitMs = backoff.backoffMs(attempt);
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Deleting the remote data of " + partition + " failed; retrying in " + waitMs + " ms",
                    e);
            scheduler.scheduleOnce(
                    "RemotePartitionDeleter-" + partition, () -> runDeletion(deleter, attempt + 1), waitMs);
            return;
        }
        deletions.remove(partition, deleter);
        metrics.removePartition(partition);
        // A topic that stays but is no longer tiered starts where its local log does.
        Optional<UnifiedLog> log = logs.apply(partition.topicPartition());
        String topic = partition.topic();
        if (log.isEmpty()
                && tasks.keySet().stream().noneMatch(p -> p.topic().equals(topic))
                && deletions.keySet().stream().noneMatch(p -> p.topic().equals(topic))) {
            metrics.removeTopic(topic);
            topicDeleted.accept(topic);
        }
        try {
            if (log.isPresent() && !log.get().remoteLogEnabled()) {
                log.get()
                        .maybeIncrementLogStartOffset(
                                Math.min(
                                        log.get().localLogStartOffset(),
                                        log.get().highWatermark()),
                                LogStartOffsetIncrementReason.SEGMENT_DELETION);
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Could not move the log start offset of " + partition
                            + " to its local log after its remote data was deleted",
                    e);
        }
    }

    /**
     * Stops every task; one that is running ends at its next step. The storage and metadata managers are not closed
     * here: their owner closes them once the scheduler's threads, which may still be in a call into them, are done.
     */
    @Override
    public void close() {
        closed = true;
        // Under the lock: a change under way may still schedule tasks, which are cancelled once it is done.
        synchronized (changeLock) {
            tasks.values().forEach(PartitionTasks::cancel);
            tasks.clear();
        }
    }
}
