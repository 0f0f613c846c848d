package io.krabka.kernel.tiered;

import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.PartitionRegistration;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.TopicPartition;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What a metadata image changes for the remote log manager: the partitions it tiers now (those this node leads
 * whose log is tiered, once the replica manager applied the image), those it starts and stops tiering, and among
 * the stopped those whose remote data goes: their topic was deleted, or its {@code remote.storage.enable} was
 * turned off with {@code remote.log.delete.on.disable} (KIP-950).
 *
 * @param tiered  the partitions tiered as of the image
 * @param started the partitions tiered now and not before
 * @param stopped the partitions tiered before and not now
 * @param deleted the stopped partitions whose remote data is to be deleted
 */
record TieredPartitionChanges(
        Set<TopicIdPartition> tiered,
        Set<TopicIdPartition> started,
        Set<TopicIdPartition> stopped,
        Set<TopicIdPartition> deleted) {

    TieredPartitionChanges {
        tiered = Set.copyOf(tiered);
        started = Set.copyOf(started);
        stopped = Set.copyOf(stopped);
        deleted = Set.copyOf(deleted);
    }

    /** The changes from the partitions {@code tieredBefore} to those of {@code image}. */
    static TieredPartitionChanges of(
            Set<TopicIdPartition> tieredBefore,
            MetadataImage image,
            int brokerId,
            Function<TopicPartition, Optional<UnifiedLog>> logs) {
        Set<TopicIdPartition> tiered = new HashSet<>();
        for (TopicImage topic : image.topics().values()) {
            for (Map.Entry<Integer, PartitionRegistration> partition :
                    topic.partitions().entrySet()) {
                TopicPartition topicPartition = new TopicPartition(topic.name(), partition.getKey());
                if (partition.getValue().leader() == brokerId
                        && logs.apply(topicPartition)
                                .map(UnifiedLog::remoteLogEnabled)
                                .orElse(false)) {
                    tiered.add(new TopicIdPartition(topic.id(), topicPartition));
                }
            }
        }
        Set<TopicIdPartition> started = new HashSet<>(tiered);
        started.removeAll(tieredBefore);
        Set<TopicIdPartition> stopped = new HashSet<>(tieredBefore);
        stopped.removeAll(tiered);
        Set<TopicIdPartition> deleted = new HashSet<>();
        for (TopicIdPartition partition : stopped) {
            if (image.topic(partition.topicId()).isEmpty()
                    || logs.apply(partition.topicPartition())
                            .map(log -> !log.remoteLogEnabled() && log.config().remoteLogDeleteOnDisable())
                            .orElse(false)) {
                deleted.add(partition);
            }
        }
        return new TieredPartitionChanges(tiered, started, stopped, deleted);
    }

    /** Whether anything starts or stops. */
    boolean isEmpty() {
        return started.isEmpty() && stopped.isEmpty();
    }
}
