package io.krabka.kernel.group;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.PartitionRegistration;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.scheduler.Scheduler;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.protocol.Errors;

/**
 * The partitions of {@code __consumer_offsets} this node leads, and their loading: each partition that appears
 * with this node as leader is read from its log (on the scheduler) into the coordinator, then served. Creates the
 * topic through the controller on first use, as Kafka's FindCoordinator does.
 */
final class OffsetsTopicPartitions {

    private static final System.Logger LOG = System.getLogger(OffsetsTopicPartitions.class.getName());
    private static final long MAX_LOG_WAIT_MS = 5_000;

    private final GroupCoordinator coordinator;
    private final int nodeId;
    private final Controller controller;
    private final LogManager logManager;
    private final Scheduler scheduler;
    private final OffsetsTopic topic;
    private final Map<Integer, Integer> leaderEpochs = new ConcurrentHashMap<>();
    private final Set<Integer> loaded = ConcurrentHashMap.newKeySet();
    private CompletableFuture<Void> creation;

    OffsetsTopicPartitions(
            GroupCoordinator coordinator,
            int nodeId,
            Controller controller,
            LogManager logManager,
            Scheduler scheduler,
            OffsetsTopic topic) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.nodeId = nodeId;
        this.controller = Objects.requireNonNull(controller, "controller");
        this.logManager = Objects.requireNonNull(logManager, "logManager");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.topic = Objects.requireNonNull(topic, "topic");
    }

    /** Starts loading the partitions new to this node as leader; records the leader epochs. */
    void onMetadataUpdate(MetadataImage image) {
        TopicImage offsets = image.topic(OffsetsTopic.NAME).orElse(null);
        if (offsets == null) {
            return;
        }
        offsets.partitions().forEach((partition, registration) -> {
            if (registration.leader() == nodeId && leaderEpochs.put(partition, registration.leaderEpoch()) == null) {
                scheduler.scheduleOnce("group-coordinator-load-" + partition, () -> load(partition, 0));
            }
        });
    }

    // The replica manager creates the log for the same image; if it has not yet, the load waits for it, backing
    // off, while the partition's groups get COORDINATOR_LOAD_IN_PROGRESS (which clients retry).
    private void load(int partition, int attempt) {
        if (coordinator.isClosed()) {
            return;
        }
        TopicPartition tp = new TopicPartition(OffsetsTopic.NAME, partition);
        UnifiedLog log = logManager.getLog(tp).orElse(null);
        if (log == null) {
            long delayMs = Math.min(MAX_LOG_WAIT_MS, 50L << Math.min(attempt, 10));
            LOG.log(
                    attempt == 0 ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG,
                    "No log of " + tp + " yet to load the groups from; trying again in " + delayMs + " ms");
            scheduler.scheduleOnce("group-coordinator-load-" + partition, () -> load(partition, attempt + 1), delayMs);
            return;
        }
        try {
            // This node is the partition's whole ISR: everything in the log is committed.
            log.updateHighWatermark(log.logEndOffset());
            long startNanos = System.nanoTime();
            long records = CoordinatorLoader.load(log, chunk -> {
                synchronized (coordinator) {
                    coordinator.replay(chunk);
                }
            });
            synchronized (coordinator) {
                coordinator.onLoaded(partition);
                loaded.add(partition);
            }
            LOG.log(
                    System.Logger.Level.INFO,
                    "Loaded " + records + " records of " + tp + " in " + (System.nanoTime() - startNanos) / 1_000_000
                            + " ms");
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "Could not load " + tp + "; its groups get NOT_COORDINATOR", e);
            leaderEpochs.remove(partition);
        }
    }

    /** NONE if the partition is loaded, COORDINATOR_LOAD_IN_PROGRESS while it loads, else NOT_COORDINATOR. */
    Errors state(int partition) {
        if (loaded.contains(partition)) {
            return Errors.NONE;
        }
        return leaderEpochs.containsKey(partition) ? Errors.COORDINATOR_LOAD_IN_PROGRESS : Errors.NOT_COORDINATOR;
    }

    boolean anyLoading() {
        return leaderEpochs.size() > loaded.size();
    }

    int leaderEpoch(int partition) {
        return leaderEpochs.getOrDefault(partition, 0);
    }

    /** Completes once the topic exists: at once, or after the controller created it (concurrent calls share one). */
    synchronized CompletableFuture<Void> ensureTopic(MetadataImage image) {
        if (image.topic(OffsetsTopic.NAME).isPresent()) {
            return CompletableFuture.completedFuture(null);
        }
        if (creation == null || creation.isCompletedExceptionally()) {
            LOG.log(System.Logger.Level.INFO, "Creating " + OffsetsTopic.NAME);
            creation = controller
                    .createTopics(topic.creation())
                    .thenAccept(OffsetsTopicPartitions::checkCreated)
                    .whenComplete((created, failure) -> {
                        if (failure != null) {
                            LOG.log(
                                    System.Logger.Level.WARNING,
                                    "Could not create " + OffsetsTopic.NAME + " (" + failure.getMessage()
                                            + "); the next group request tries again");
                        }
                    });
        }
        return creation;
    }

    private static void checkCreated(CreateTopicsResponseData response) {
        CreatableTopicResult result = response.topics().find(OffsetsTopic.NAME);
        if (result == null) {
            throw Errors.UNKNOWN_SERVER_ERROR.exception("no result for " + OffsetsTopic.NAME);
        }
        Errors error = Errors.forCode(result.errorCode());
        if (error != Errors.NONE && error != Errors.TOPIC_ALREADY_EXISTS) {
            throw error.exception("creating " + OffsetsTopic.NAME + ": " + result.errorMessage());
        }
    }

    /** NONE if this node leads the partition of {@code groupId}, else COORDINATOR_NOT_AVAILABLE. */
    Errors leadsPartitionOf(MetadataImage image, String groupId) {
        PartitionRegistration registration = image.topic(OffsetsTopic.NAME)
                .map(t -> t.partitions().get(topic.partitionFor(groupId)))
                .orElse(null);
        return registration != null && registration.leader() == nodeId ? Errors.NONE : Errors.COORDINATOR_NOT_AVAILABLE;
    }
}
