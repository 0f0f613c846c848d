package io.krabka.plugin.rlmm.topic;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.RemoteLogMetadata;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import java.util.TreeMap;

/** Krabka's SPI values as Apache Kafka's storage-api classes and back, so Kafka's serde can judge ours. */
final class KafkaTypes {

    private KafkaTypes() {}

    static org.apache.kafka.common.Uuid kafka(Uuid id) {
        return new org.apache.kafka.common.Uuid(id.mostSignificantBits(), id.leastSignificantBits());
    }

    static Uuid krabka(org.apache.kafka.common.Uuid id) {
        return new Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    static org.apache.kafka.common.TopicIdPartition kafka(TopicIdPartition partition) {
        return new org.apache.kafka.common.TopicIdPartition(
                kafka(partition.topicId()), partition.partition(), partition.topic());
    }

    static TopicIdPartition krabka(org.apache.kafka.common.TopicIdPartition partition) {
        return new TopicIdPartition(krabka(partition.topicId()), partition.topic(), partition.partition());
    }

    static org.apache.kafka.server.log.remote.storage.RemoteLogMetadata kafka(RemoteLogMetadata metadata) {
        return switch (metadata) {
            case RemoteLogSegmentMetadata segment ->
                new org.apache.kafka.server.log.remote.storage.RemoteLogSegmentMetadata(
                        kafka(segment.remoteLogSegmentId()),
                        segment.startOffset(),
                        segment.endOffset(),
                        segment.maxTimestampMs(),
                        segment.brokerId(),
                        segment.eventTimestampMs(),
                        segment.segmentSizeInBytes(),
                        segment.customMetadata().map(KafkaTypes::kafka),
                        org.apache.kafka.server.log.remote.storage.RemoteLogSegmentState.forId(
                                segment.state().id()),
                        segment.segmentLeaderEpochs(),
                        segment.txnIdxEmpty());
            case RemoteLogSegmentMetadataUpdate update ->
                new org.apache.kafka.server.log.remote.storage.RemoteLogSegmentMetadataUpdate(
                        kafka(update.remoteLogSegmentId()),
                        update.eventTimestampMs(),
                        update.customMetadata().map(KafkaTypes::kafka),
                        org.apache.kafka.server.log.remote.storage.RemoteLogSegmentState.forId(
                                update.state().id()),
                        update.brokerId());
            case RemotePartitionDeleteMetadata delete ->
                new org.apache.kafka.server.log.remote.storage.RemotePartitionDeleteMetadata(
                        kafka(delete.topicIdPartition()),
                        org.apache.kafka.server.log.remote.storage.RemotePartitionDeleteState.forId(
                                delete.state().id()),
                        delete.eventTimestampMs(),
                        delete.brokerId());
        };
    }

    static RemoteLogMetadata krabka(org.apache.kafka.server.log.remote.storage.RemoteLogMetadata metadata) {
        return switch (metadata) {
            case org.apache.kafka.server.log.remote.storage.RemoteLogSegmentMetadata segment ->
                new RemoteLogSegmentMetadata(
                        krabka(segment.remoteLogSegmentId()),
                        segment.startOffset(),
                        segment.endOffset(),
                        segment.maxTimestampMs(),
                        segment.brokerId(),
                        segment.eventTimestampMs(),
                        segment.segmentSizeInBytes(),
                        segment.customMetadata().map(custom -> new CustomMetadata(custom.value())),
                        RemoteLogSegmentState.forId(segment.state().id()),
                        new TreeMap<>(segment.segmentLeaderEpochs()),
                        segment.isTxnIdxEmpty());
            case org.apache.kafka.server.log.remote.storage.RemoteLogSegmentMetadataUpdate update ->
                new RemoteLogSegmentMetadataUpdate(
                        krabka(update.remoteLogSegmentId()),
                        update.eventTimestampMs(),
                        update.customMetadata().map(custom -> new CustomMetadata(custom.value())),
                        RemoteLogSegmentState.forId(update.state().id()),
                        update.brokerId());
            case org.apache.kafka.server.log.remote.storage.RemotePartitionDeleteMetadata delete ->
                new RemotePartitionDeleteMetadata(
                        krabka(delete.topicIdPartition()),
                        RemotePartitionDeleteState.forId(delete.state().id()),
                        delete.eventTimestampMs(),
                        delete.brokerId());
            default -> throw new IllegalArgumentException("not a record Kafka writes to the topic: " + metadata);
        };
    }

    private static org.apache.kafka.server.log.remote.storage.RemoteLogSegmentId kafka(RemoteLogSegmentId id) {
        return new org.apache.kafka.server.log.remote.storage.RemoteLogSegmentId(
                kafka(id.topicIdPartition()), kafka(id.id()));
    }

    private static RemoteLogSegmentId krabka(org.apache.kafka.server.log.remote.storage.RemoteLogSegmentId id) {
        return new RemoteLogSegmentId(krabka(id.topicIdPartition()), krabka(id.id()));
    }

    private static org.apache.kafka.server.log.remote.storage.RemoteLogSegmentMetadata.CustomMetadata kafka(
            CustomMetadata custom) {
        return new org.apache.kafka.server.log.remote.storage.RemoteLogSegmentMetadata.CustomMetadata(custom.value());
    }
}
