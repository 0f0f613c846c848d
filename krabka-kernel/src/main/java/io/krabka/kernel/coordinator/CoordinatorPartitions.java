package io.krabka.kernel.coordinator;

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
import java.util.function.Supplier;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopicCollection;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopicConfig;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopicConfigCollection;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.protocol.Errors;

/**
 * The partitions of a coordinator's topic ({@code __consumer_offsets}, {@code __transaction_state}) this node leads,
 * and their loading: each partition that appears with this node as leader is read from its log (on the scheduler)
 * into the coordinator, then served; one that leaves this node (its topic deleted) is unloaded. Creates the topic
 * through the controller on first use, as Kafka's FindCoordinator does.
 */
public final class CoordinatorPartitions {

    private static final System.Logger LOG = System.getLogger(CoordinatorPartitions.class.getName());
    private static final long MAX_LOG_WAIT_MS = 5_000;

    /** The coordinator whose partitions these are. */
    public interface Shard {
        /**
         * Reads a partition this node now leads into the coordinator.
         *
         * @param leaderEpoch the partition's leader epoch: the coordinator epoch of what it serves from it
         * @return the records read
         */
        long load(int partition, int leaderEpoch, UnifiedLog log) throws IOException;

        /** Called once a partition loaded by {@link #load} is served: for work that needs it served. */
        default void loaded(int partition) {}

        /** Forgets a partition this node no longer leads. */
        void unload(int partition);

        /** Whether the coordinator stopped: nothing more is loaded. */
        boolean isClosed();
    }

    private final String topic;
    private final Shard shard;
    private final int nodeId;
    private final Controller controller;
    private final LogManager logManager;
    private final Scheduler scheduler;
    private final Supplier<CreateTopicsRequestData> creation;
    private final Map<Integer, Integer> leaderEpochs = new ConcurrentHashMap<>();
    private final Set<Integer> loaded = ConcurrentHashMap.newKeySet();
    private CompletableFuture<Void> creating;

    /**
     * The partitions of {@code topic} for {@code shard}.
     *
     * @param creation the CreateTopics request that creates the topic
     */
    public CoordinatorPartitions(
            String topic,
            Shard shard,
            int nodeId,
            Controller controller,
            LogManager logManager,
            Scheduler scheduler,
            Supplier<CreateTopicsRequestData> creation) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.shard = Objects.requireNonNull(shard, "shard");
        this.nodeId = nodeId;
        this.controller = Objects.requireNonNull(controller, "controller");
        this.logManager = Objects.requireNonNull(logManager, "logManager");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.creation = Objects.requireNonNull(creation, "creation");
    }

    /** Starts loading the partitions new to this node as leader, unloads those it lost; records leader epochs. */
    public void onMetadataUpdate(MetadataImage image) {
        Map<Integer, PartitionRegistration> partitions =
                image.topic(topic).map(TopicImage::partitions).orElse(java.util.Collections.emptySortedMap());
        for (Integer partition : Set.copyOf(leaderEpochs.keySet())) {
            PartitionRegistration registration = partitions.get(partition);
            if (registration == null || registration.leader() != nodeId) {
                leaderEpochs.remove(partition);
                loaded.remove(partition);
                shard.unload(partition);
                LOG.log(System.Logger.Level.INFO, "Unloaded " + new TopicPartition(topic, partition));
            }
        }
        partitions.forEach((partition, registration) -> {
            if (registration.leader() == nodeId && leaderEpochs.put(partition, registration.leaderEpoch()) == null) {
                scheduler.scheduleOnce(loadTaskName(partition), () -> load(partition, 0));
            }
        });
    }

    // The replica manager creates the log for the same image; if it has not yet, the load waits for it, backing
    // off, while the partition answers COORDINATOR_LOAD_IN_PROGRESS (which clients retry).
    private void load(int partition, int attempt) {
        Integer leaderEpoch = leaderEpochs.get(partition);
        if (shard.isClosed() || leaderEpoch == null) {
            return;
        }
        TopicPartition tp = new TopicPartition(topic, partition);
        UnifiedLog log = logManager.getLog(tp).orElse(null);
        if (log == null) {
            long delayMs = Math.min(MAX_LOG_WAIT_MS, 50L << Math.min(attempt, 10));
            LOG.log(
                    attempt == 0 ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG,
                    "No log of " + tp + " yet to load from; trying again in " + delayMs + " ms");
            scheduler.scheduleOnce(loadTaskName(partition), () -> load(partition, attempt + 1), delayMs);
            return;
        }
        try {
            // This node is the partition's whole ISR: everything in the log is committed.
            log.updateHighWatermark(log.logEndOffset());
            long started = System.nanoTime();
            long records = shard.load(partition, leaderEpoch, log);
            loaded.add(partition);
            shard.loaded(partition);
            LOG.log(
                    System.Logger.Level.INFO,
                    "Loaded " + records + " records of " + tp + " in " + (System.nanoTime() - started) / 1_000_000
                            + " ms");
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "Could not load " + tp + "; it answers NOT_COORDINATOR", e);
            leaderEpochs.remove(partition);
        }
    }

    private String loadTaskName(int partition) {
        return "coordinator-load-" + topic + "-" + partition;
    }

    /** NONE if the partition is loaded, COORDINATOR_LOAD_IN_PROGRESS while it loads, else NOT_COORDINATOR. */
    public Errors state(int partition) {
        if (loaded.contains(partition)) {
            return Errors.NONE;
        }
        return leaderEpochs.containsKey(partition) ? Errors.COORDINATOR_LOAD_IN_PROGRESS : Errors.NOT_COORDINATOR;
    }

    /** Whether some partition is still loading. */
    public boolean anyLoading() {
        return leaderEpochs.size() > loaded.size();
    }

    /** The leader epoch of a partition this node leads, 0 for another. */
    public int leaderEpoch(int partition) {
        return leaderEpochs.getOrDefault(partition, 0);
    }

    /** Completes once the topic exists: at once, or after the controller created it (concurrent calls share one). */
    public synchronized CompletableFuture<Void> ensureTopic(MetadataImage image) {
        if (image.topic(topic).isPresent()) {
            return CompletableFuture.completedFuture(null);
        }
        if (creating == null || creating.isCompletedExceptionally()) {
            LOG.log(System.Logger.Level.INFO, "Creating " + topic);
            creating = controller
                    .createTopics(creation.get())
                    .thenAccept(this::checkCreated)
                    .whenComplete((created, failure) -> {
                        if (failure != null) {
                            LOG.log(
                                    System.Logger.Level.WARNING,
                                    "Could not create " + topic + " (" + failure.getMessage()
                                            + "); the next request tries again");
                        }
                    });
        }
        return creating;
    }

    private void checkCreated(CreateTopicsResponseData response) {
        CreatableTopicResult result = response.topics().find(topic);
        if (result == null) {
            throw Errors.UNKNOWN_SERVER_ERROR.exception("no result for " + topic);
        }
        Errors error = Errors.forCode(result.errorCode());
        if (error != Errors.NONE && error != Errors.TOPIC_ALREADY_EXISTS) {
            throw error.exception("creating " + topic + ": " + result.errorMessage());
        }
    }

    /**
     * The partition of a coordinator's topic that holds {@code key} (a group id, a transactional id): Kafka's
     * {@code Utils.abs(key.hashCode()) % partitions}.
     */
    public static int partitionFor(String key, int partitions) {
        int hash = key.hashCode();
        // Kafka's Utils.abs: Integer.MIN_VALUE maps to 0, not to itself.
        return (hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % partitions;
    }

    /** The CreateTopics request of a coordinator's topic, with these topic configs. */
    public static CreateTopicsRequestData creation(
            String topic, int partitions, short replicationFactor, Map<String, String> configs) {
        CreatableTopicConfigCollection topicConfigs = new CreatableTopicConfigCollection();
        configs.forEach((key, value) ->
                topicConfigs.add(new CreatableTopicConfig().setName(key).setValue(value)));
        CreatableTopicCollection topics = new CreatableTopicCollection();
        topics.add(new CreatableTopic()
                .setName(topic)
                .setNumPartitions(partitions)
                .setReplicationFactor(replicationFactor)
                .setConfigs(topicConfigs));
        return new CreateTopicsRequestData().setTopics(topics).setTimeoutMs(30_000);
    }

    /** NONE if this node leads {@code partition} in {@code image}, else COORDINATOR_NOT_AVAILABLE. */
    public Errors leads(MetadataImage image, int partition) {
        PartitionRegistration registration =
                image.topic(topic).map(t -> t.partitions().get(partition)).orElse(null);
        return registration != null && registration.leader() == nodeId ? Errors.NONE : Errors.COORDINATOR_NOT_AVAILABLE;
    }
}
