package io.krabka.plugin.rlmm.topic;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates {@code __remote_log_metadata} as Kafka's manager does, with the Admin client: the configured partitions
 * and replication factor, {@code retention.ms} and {@code min.insync.replicas} as configured,
 * {@code cleanup.policy=delete} and {@code remote.storage.enable=false}, as Kafka 4.3 creates it; an existing topic must
 * have the configured partition count, as Kafka requires, since the partitioning depends on it.
 */
final class MetadataTopic {

    private MetadataTopic() {}

    /**
     * Makes sure the topic exists, retrying what may pass until {@code remote.log.metadata.initialization.retry.max.timeout.ms}.
     *
     * @throws IllegalStateException if the topic has another partition count, cannot be created, or the time is up
     */
    static void ensure(Admin admin, TopicBasedRemoteLogMetadataManagerConfig config) throws InterruptedException {
        long deadline = System.nanoTime() + config.initRetryTimeout().toNanos();
        String topic = TopicBasedRemoteLogMetadataManagerConfig.TOPIC;
        while (true) {
            try {
                TopicDescription description = admin.describeTopics(List.of(topic))
                        .allTopicNames()
                        .get()
                        .get(topic);
                int partitions = description.partitions().size();
                if (partitions != config.topicPartitions()) {
                    throw new IllegalStateException(topic + " has " + partitions + " partitions but "
                            + TopicBasedRemoteLogMetadataManagerConfig.PARTITIONS + " is " + config.topicPartitions());
                }
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    retryOrFail(e.getCause(), deadline, config, "finding " + topic);
                    continue;
                }
            }
            NewTopic newTopic = new NewTopic(topic, config.topicPartitions(), config.replicationFactor())
                    .configs(Map.of(
                            "retention.ms",
                            Long.toString(config.retentionMs()),
                            "cleanup.policy",
                            "delete",
                            "remote.storage.enable",
                            "false",
                            "min.insync.replicas",
                            Integer.toString(config.minIsr())));
            try {
                admin.createTopics(List.of(newTopic)).all().get();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    retryOrFail(e.getCause(), deadline, config, "creating " + topic);
                }
            }
        }
    }

    private static void retryOrFail(
            Throwable failure, long deadline, TopicBasedRemoteLogMetadataManagerConfig config, String what)
            throws InterruptedException {
        if (!(failure instanceof RetriableException) || System.nanoTime() > deadline) {
            throw new IllegalStateException(what + " failed: " + failure.getMessage(), failure);
        }
        Thread.sleep(config.initRetryInterval());
    }
}
