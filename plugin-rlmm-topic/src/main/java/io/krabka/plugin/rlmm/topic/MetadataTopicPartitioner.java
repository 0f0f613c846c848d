package io.krabka.plugin.rlmm.topic;

import io.krabka.spi.common.TopicIdPartition;
import java.util.Objects;
import org.apache.kafka.common.utils.Utils;

/**
 * Which partition of {@code __remote_log_metadata} holds the events of a user partition, as Kafka's
 * {@code RemoteLogMetadataTopicPartitioner} decides: murmur2 of the four big-endian bytes of
 * {@code Objects.hash(topicId.leastSignificantBits, topicId.mostSignificantBits, partition)}, made positive, modulo
 * the number of metadata partitions. The topic name is not part of it, so a renamed topic keeps its partition.
 *
 * @param metadataPartitions how many partitions the metadata topic has, at least 1
 */
record MetadataTopicPartitioner(int metadataPartitions) {

    /** Validates the count. */
    MetadataTopicPartitioner {
        if (metadataPartitions < 1) {
            throw new IllegalArgumentException("the metadata topic needs at least 1 partition: " + metadataPartitions);
        }
    }

    /** The metadata partition of {@code partition}. */
    int metadataPartition(TopicIdPartition partition) {
        int hash = Objects.hash(
                partition.topicId().leastSignificantBits(),
                partition.topicId().mostSignificantBits(),
                partition.partition());
        byte[] bytes = {(byte) (hash >> 24), (byte) (hash >> 16), (byte) (hash >> 8), (byte) hash};
        return Utils.toPositive(Utils.murmur2(bytes)) % metadataPartitions;
    }
}
