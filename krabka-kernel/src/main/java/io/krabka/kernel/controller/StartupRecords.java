package io.krabka.kernel.controller;

import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataRecordAndVersion;
import io.krabka.kernel.metadata.MetadataTransactionRecord;
import io.krabka.kernel.metadata.PartitionChangeRecord;
import io.krabka.kernel.metadata.PartitionRegistration;
import io.krabka.kernel.metadata.TopicImage;
import java.util.ArrayList;
import java.util.List;

/**
 * What the controller appends when it starts on a metadata log another node's controller wrote, Kafka's among
 * them: an {@code AbortTransactionRecord} for a metadata transaction the log ends in (Kafka's new active controller
 * aborts it so), and the election of this node as the leader of each partition whose only replica it is, and ISR or
 * (the ISR empty) eligible leader replica, but which it does not lead (Kafka's controller leaves a single node's
 * partitions leaderless when its broker shuts down and elects the broker again, with a new leader epoch, when it
 * registers).
 */
final class StartupRecords {

    private StartupRecords() {}

    /** The records, in order; none for a log this controller left as it wrote it. */
    static List<MetadataRecordAndVersion> of(boolean inTransaction, MetadataImage image, int nodeId) {
        List<MetadataRecordAndVersion> records = new ArrayList<>();
        if (inTransaction) {
            records.add(new MetadataRecordAndVersion(
                    MetadataTransactionRecord.of(MetadataTransactionRecord.Kind.ABORT), (short) 0));
        }
        for (TopicImage topic : image.topics().values()) {
            topic.partitions().forEach((partition, registration) -> {
                if (!leaderless(registration, nodeId)) {
                    return;
                }
                records.add(
                        registration.isr().isEmpty()
                                ? new MetadataRecordAndVersion(
                                        PartitionChangeRecord.electingFromElr(topic.id(), partition, nodeId), (short) 2)
                                : new MetadataRecordAndVersion(
                                        PartitionChangeRecord.electing(topic.id(), partition, nodeId), (short) 0));
            });
        }
        return records;
    }

    // With eligible leader replicas on, Kafka's controlled shutdown empties a single node's ISR and keeps the node
    // as the partition's ELR; the image keeps no ELR, and on one node the node is the only replica there can be.
    private static boolean leaderless(PartitionRegistration registration, int nodeId) {
        return registration.leader() != nodeId
                && registration.replicas().equals(List.of(nodeId))
                && (registration.isr().isEmpty() || registration.isr().equals(List.of(nodeId)));
    }
}
