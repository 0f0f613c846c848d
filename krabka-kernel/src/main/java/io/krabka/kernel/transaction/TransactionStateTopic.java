package io.krabka.kernel.transaction;

import io.krabka.kernel.coordinator.CoordinatorPartitions;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntSupplier;
import org.apache.kafka.common.message.CreateTopicsRequestData;

/**
 * The {@code __transaction_state} topic: which partition holds a transactional id, and how the topic is created
 * (Kafka's {@code TransactionStateManager.transactionTopicConfigs}: compacted, uncompressed, segments of
 * {@code transaction.state.log.segment.bytes}, {@code min.insync.replicas} of {@code transaction.state.log.min.isr},
 * no unclean leader election).
 */
public final class TransactionStateTopic {

    /** The topic's name. */
    public static final String NAME = "__transaction_state";

    private final TransactionCoordinatorConfig config;
    private final IntSupplier partitionCount;

    /**
     * The topic.
     *
     * @param partitionCount the topic's partitions once it exists, else 0 (then the configured count is used)
     */
    TransactionStateTopic(TransactionCoordinatorConfig config, IntSupplier partitionCount) {
        this.config = Objects.requireNonNull(config, "config");
        this.partitionCount = Objects.requireNonNull(partitionCount, "partitionCount");
    }

    /** The partition of a transactional id: Kafka's {@code Utils.abs(transactionalId.hashCode()) % partitions}. */
    public int partitionFor(String transactionalId) {
        int existing = partitionCount.getAsInt();
        return CoordinatorPartitions.partitionFor(
                transactionalId, existing > 0 ? existing : config.transactionLogNumPartitions());
    }

    /** The CreateTopics request that creates the topic. */
    CreateTopicsRequestData creation() {
        return CoordinatorPartitions.creation(
                NAME,
                config.transactionLogNumPartitions(),
                config.transactionLogReplicationFactor(),
                Map.of(
                        "cleanup.policy",
                        "compact",
                        "compression.type",
                        "uncompressed",
                        "segment.bytes",
                        Integer.toString(config.transactionLogSegmentBytes()),
                        "min.insync.replicas",
                        Integer.toString(config.transactionLogMinInsyncReplicas()),
                        "unclean.leader.election.enable",
                        "false"));
    }
}
