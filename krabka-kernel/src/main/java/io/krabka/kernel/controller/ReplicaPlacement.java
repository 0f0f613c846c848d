package io.krabka.kernel.controller;

import io.krabka.kernel.metadata.PartitionRegistration;
import java.util.List;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;

/**
 * Where replicas go on a cluster of one registered broker (Kafka's replica placer and its checks of manual
 * assignments, with Kafka's messages): every partition has the one node as replica, ISR and leader.
 */
final class ReplicaPlacement {

    private final int nodeId;

    ReplicaPlacement(int nodeId) {
        this.nodeId = nodeId;
    }

    /** A new partition: the node as replica, ISR and leader, epochs 0. */
    PartitionRegistration newPartition() {
        return new PartitionRegistration(List.of(nodeId), List.of(nodeId), nodeId, 0, 0);
    }

    /** Kafka's placer: a replication factor above the one broker cannot be reached. */
    void checkReplicationFactor(int replicationFactor) {
        if (replicationFactor > 1) {
            throw new InvalidReplicationFactorException("Unable to replicate the partition " + replicationFactor
                    + " time(s): The target replication factor of " + replicationFactor + " cannot be reached because "
                    + "only 1 broker(s) are registered or some brokers have all their log directories cordoned.");
        }
    }

    /**
     * Kafka's checks of a manual assignment: not empty, only registered brokers, none twice, and as many replicas
     * as {@code expectedSize} when given (the other partitions').
     */
    void validateAssignment(List<Integer> brokerIds, Integer expectedSize) {
        if (brokerIds.isEmpty()) {
            throw new InvalidReplicaAssignmentException(
                    "The manual partition assignment includes an empty replica list.");
        }
        List<Integer> sorted = brokerIds.stream().sorted().toList();
        Integer previous = null;
        for (Integer brokerId : sorted) {
            if (brokerId != nodeId) {
                throw new InvalidReplicaAssignmentException("The manual partition assignment includes broker "
                        + brokerId + ", but no such broker is registered.");
            }
            if (brokerId.equals(previous)) {
                throw new InvalidReplicaAssignmentException(
                        "The manual partition assignment includes the broker " + previous + " more than once.");
            }
            previous = brokerId;
        }
        if (expectedSize != null && sorted.size() != expectedSize) {
            throw new InvalidReplicaAssignmentException("The manual partition assignment includes a partition with "
                    + sorted.size() + " replica(s), but this is not consistent with previous partitions, which have "
                    + expectedSize + " replica(s).");
        }
    }
}
