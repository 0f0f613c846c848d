package io.krabka.kernel.metadata;

import java.util.List;

/**
 * A partition as the cluster metadata records it (Kafka's {@code PartitionRegistration}). On a single node the node
 * is the only replica, the whole ISR and the leader.
 *
 * @param replicas       the replica node ids
 * @param isr            the in-sync replica node ids
 * @param leader         the leader's node id, -1 for none
 * @param leaderEpoch    the leader epoch, raised on every leader change
 * @param partitionEpoch the partition epoch, raised on every change of this registration
 */
public record PartitionRegistration(
        List<Integer> replicas, List<Integer> isr, int leader, int leaderEpoch, int partitionEpoch) {

    /** Copies the lists and checks the epochs. */
    public PartitionRegistration {
        replicas = List.copyOf(replicas);
        isr = List.copyOf(isr);
        if (leaderEpoch < 0 || partitionEpoch < 0) {
            throw new IllegalArgumentException(
                    "negative epoch: leader " + leaderEpoch + ", partition " + partitionEpoch);
        }
    }
}
