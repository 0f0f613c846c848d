package io.krabka.kernel.replica;

import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.BrokerConfigOverrides;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.PartitionRegistration;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Applies the cluster metadata to this node's partitions (Kafka's {@code ReplicaManager.applyDelta}): a topic gone
 * (or re-created under a new id) has its logs deleted; a partition this node leads gets its log, created with the
 * topic's settings over the broker's defaults (its dynamic ones over server.properties), and its leader epoch; changed
 * settings, a topic's or the broker's, reach the topic's logs. A log that cannot be opened leaves its partition
 * offline (KAFKA_STORAGE_ERROR) rather than failing the update; one whose log directory went offline stays so, never
 * re-created elsewhere, until the broker restarts.
 */
final class PartitionStates {

    private static final System.Logger LOG = System.getLogger(PartitionStates.class.getName());

    private final ReplicaManagerConfig config;
    private final LogManager logManager;
    private final ConcurrentHashMap<TopicPartition, Partition> partitions;
    private final Consumer<TopicPartition> onRemoved;
    private final Set<TopicPartition> offline = ConcurrentHashMap.newKeySet();

    PartitionStates(
            ReplicaManagerConfig config,
            LogManager logManager,
            ConcurrentHashMap<TopicPartition, Partition> partitions,
            Consumer<TopicPartition> onRemoved) {
        this.config = Objects.requireNonNull(config, "config");
        this.logManager = Objects.requireNonNull(logManager, "logManager");
        this.partitions = partitions;
        this.onRemoved = onRemoved;
    }

    boolean isOffline(TopicPartition topicPartition) {
        return offline.contains(topicPartition);
    }

    void apply(MetadataImage previous, MetadataImage current) {
        for (TopicImage topic : previous.topics().values()) {
            Optional<TopicImage> now = current.topic(topic.name());
            if (now.isEmpty() || !now.get().id().equals(topic.id())) {
                deleteTopic(topic);
            }
        }
        Map<String, String> brokerProps = BrokerConfigOverrides.effective(
                config.brokerProps(), current.brokerConfigs(), current.perBrokerConfig(config.nodeId()));
        boolean brokerConfigsChanged = !previous.brokerConfigs().equals(current.brokerConfigs())
                || !previous.perBrokerConfig(config.nodeId()).equals(current.perBrokerConfig(config.nodeId()));
        for (TopicImage topic : current.topics().values()) {
            LogConfig logConfig = logConfig(brokerProps, current, topic.name());
            topic.partitions().forEach((index, registration) -> applyPartition(topic, index, registration, logConfig));
            boolean topicConfigChanged = !previous.topicConfig(topic.name()).equals(current.topicConfig(topic.name()));
            if (brokerConfigsChanged || topicConfigChanged) {
                logManager.updateTopicConfig(topic.name(), logConfig);
            }
        }
    }

    private static LogConfig logConfig(Map<String, String> brokerProps, MetadataImage image, String topic) {
        return LogConfig.fromProps(brokerProps, image.topicConfig(topic));
    }

    private void applyPartition(TopicImage topic, int index, PartitionRegistration registration, LogConfig logConfig) {
        TopicPartition topicPartition = new TopicPartition(topic.name(), index);
        if (registration.leader() != config.nodeId() || logManager.isOffline(topicPartition)) {
            return;
        }
        try {
            Partition partition = partitions.get(topicPartition);
            if (partition == null) {
                UnifiedLog log = logManager.getOrCreateLog(topicPartition, Optional.of(topic.id()), logConfig);
                partition = new Partition(
                        new TopicIdPartition(topic.id(), topicPartition), log, registration.leaderEpoch());
                partition.makeLeader(registration.leaderEpoch());
                partitions.put(topicPartition, partition);
                offline.remove(topicPartition);
            } else if (partition.leaderEpoch() != registration.leaderEpoch()) {
                partition.makeLeader(registration.leaderEpoch());
            }
        } catch (IOException | RuntimeException e) {
            offline.add(topicPartition);
            LOG.log(
                    System.Logger.Level.ERROR,
                    "Could not open the log of " + topicPartition + " (topic id " + topic.id()
                            + "); the partition is offline",
                    e);
        }
    }

    private void deleteTopic(TopicImage topic) {
        for (int index : topic.partitions().keySet()) {
            TopicPartition topicPartition = new TopicPartition(topic.name(), index);
            Partition removed = partitions.remove(topicPartition);
            offline.remove(topicPartition);
            if (removed == null) {
                continue;
            }
            try {
                logManager.deleteLog(topicPartition);
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "Could not delete the log of " + topicPartition, e);
            }
            onRemoved.accept(topicPartition);
        }
    }
}
