package io.krabka.archive.abandon;

import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.internal.KafkaTopics;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.util.Objects;

/**
 * The copy of a segment that a writer gave up on: enough of its identity to name every object it may have left,
 * {@code <partition directory>/<base offset>-<segment id>.*}.
 *
 * @param topic       the topic name, a legal Kafka topic name
 * @param topicId     the topic id
 * @param partition   the partition number, at least 0
 * @param segmentId   the id of the abandoned copy
 * @param startOffset the segment's first offset, at least 0
 * @param endOffset   its last offset, inclusive, at least {@code startOffset}
 */
public record AbandonedSegment(
        String topic, Uuid topicId, int partition, Uuid segmentId, long startOffset, long endOffset) {

    /** Validates the parts. */
    public AbandonedSegment {
        KafkaTopics.requireLegal(Objects.requireNonNull(topic, "topic"));
        Objects.requireNonNull(topicId, "topicId");
        Objects.requireNonNull(segmentId, "segmentId");
        if (partition < 0) {
            throw new IllegalArgumentException("a partition number is at least 0: " + partition);
        }
        if (startOffset < 0) {
            throw new IllegalArgumentException("a start offset is at least 0: " + startOffset);
        }
        if (endOffset < startOffset) {
            throw new IllegalArgumentException("end offset " + endOffset + " is below start offset " + startOffset);
        }
    }

    /** The copy a KIP-405 metadata record describes. */
    public static AbandonedSegment of(RemoteLogSegmentMetadata segment) {
        return new AbandonedSegment(
                segment.topicIdPartition().topic(),
                segment.topicIdPartition().topicId(),
                segment.topicIdPartition().partition(),
                segment.remoteLogSegmentId().id(),
                segment.startOffset(),
                segment.endOffset());
    }

    /** The key of the copy's abandonment record under a layout: {@code <base>-<segment id>.abandoned}. */
    public String recordKey(ArchiveLayout layout) {
        return layout.segmentKey(topic, partition, topicId, startOffset, segmentId, ArchiveLayout.ABANDONED_SUFFIX);
    }

    /** The key prefix every object of the copy has under a layout: {@code <dir>/<base>-<segment id>.}. */
    public String objectKeyPrefix(ArchiveLayout layout) {
        return layout.partitionDirectory(topic, partition, topicId) + "/"
                + ArchiveLayout.segmentStem(startOffset, segmentId) + ".";
    }
}
