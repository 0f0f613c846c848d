package io.krabka.kernel.transaction;

import io.krabka.kernel.coordinator.CoordinatorLogWriter;
import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.group.OffsetsTopic;
import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.TransactionResult;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.replica.ProducePartitionResult;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.spi.common.TopicPartition;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.common.protocol.Errors;

/**
 * Writes the end-transaction markers of a decided transaction to its partitions, as the partition leader does for
 * Kafka's {@code WriteTxnMarkers}: through the replica manager for data partitions, through the group coordinator for
 * {@code __consumer_offsets} (which then commits or drops the transaction's offsets). A partition whose topic is gone
 * needs no marker. What fails for a reason that passes (a partition not yet loaded, an offline directory, a full
 * disk) is left to write again; what a marker can never fix (an older producer epoch: a newer coordinator fenced this
 * one) is logged and given up, as Kafka's {@code TransactionMarkerRequestCompletionHandler} does.
 */
final class TransactionMarkerWriter {

    private static final System.Logger LOG = System.getLogger(TransactionMarkerWriter.class.getName());

    private final ReplicaManager replicaManager;
    private final GroupCoordinator groups;
    private final Supplier<MetadataImage> metadata;
    private final InstantSource time;

    TransactionMarkerWriter(
            ReplicaManager replicaManager,
            GroupCoordinator groups,
            Supplier<MetadataImage> metadata,
            InstantSource time) {
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
        this.groups = Objects.requireNonNull(groups, "groups");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        this.time = Objects.requireNonNull(time, "time");
    }

    /** The markers of one transaction. */
    record Markers(
            String transactionalId,
            long producerId,
            short producerEpoch,
            TransactionResult result,
            int coordinatorEpoch,
            TransactionVersion transactionVersion) {}

    /**
     * Writes the markers to {@code partitions}.
     *
     * @return the partitions whose marker is to be written again
     */
    Set<TopicPartition> write(Markers markers, Set<TopicPartition> partitions) {
        MetadataImage image = metadata.get();
        Set<TopicPartition> retry = new HashSet<>();
        for (TopicPartition partition : partitions) {
            boolean exists = image.topic(partition.topic())
                    .map(topic -> topic.partitions().containsKey(partition.partition()))
                    .orElse(false);
            if (!exists) {
                LOG.log(
                        System.Logger.Level.INFO,
                        "No marker for " + partition + " of " + markers.transactionalId() + ": the partition is gone");
                continue;
            }
            Errors error = write(markers, partition);
            if (needsRetry(markers, partition, error)) {
                retry.add(partition);
            }
        }
        return retry;
    }

    /** Writes one marker; the partition's error. */
    Errors write(Markers markers, TopicPartition partition) {
        short version = markers.transactionVersion().featureLevel();
        if (partition.topic().equals(OffsetsTopic.NAME)) {
            return groups.completeTransaction(
                    partition.partition(),
                    markers.producerId(),
                    markers.producerEpoch(),
                    markers.coordinatorEpoch(),
                    markers.result(),
                    version);
        }
        Map<TopicPartition, ProducePartitionResult> results = replicaManager.appendRecords(
                (short) -1,
                true,
                AppendOrigin.COORDINATOR,
                Map.of(
                        partition,
                        CoordinatorLogWriter.markerBatch(
                                markers.producerId(),
                                markers.producerEpoch(),
                                markers.result(),
                                markers.coordinatorEpoch(),
                                time.millis())),
                version,
                Map.of());
        return results.get(partition).error();
    }

    private static boolean needsRetry(Markers markers, TopicPartition partition, Errors error) {
        return switch (error) {
            case NONE -> false;
            case INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED, UNSUPPORTED_FOR_MESSAGE_FORMAT -> {
                LOG.log(
                        System.Logger.Level.ERROR,
                        "The " + markers.result() + " marker of " + markers.transactionalId() + " (producer "
                                + markers.producerId() + ", epoch " + markers.producerEpoch() + ") was refused by "
                                + partition + " with " + error + "; it is not written");
                yield false;
            }
            default -> {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "The " + markers.result() + " marker of " + markers.transactionalId() + " could not be "
                                + "written to " + partition + " (" + error + "); it is written again later");
                yield true;
            }
        };
    }
}
