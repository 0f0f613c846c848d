package io.krabka.archive.manifest;

import io.krabka.archive.internal.KafkaTopics;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The segment a manifest attests, as its KIP-405 metadata describes it.
 *
 * @param topic             the topic name, a legal Kafka topic name
 * @param topicId           the topic id
 * @param partition         the partition number, at least 0
 * @param segmentId         the id of this copy of the segment ({@code RemoteLogSegmentId.id})
 * @param startOffset       the first offset, at least 0
 * @param endOffset         the last offset, inclusive, at least {@code startOffset}
 * @param maxTimestampMs    the largest record timestamp
 * @param brokerId          the broker that copied it
 * @param eventTimestampMs  when the copy's metadata was made
 * @param segmentSizeBytes  the size of the {@code .log}, at least 0
 * @param leaderEpochs      leader epoch to the first offset of that epoch in the segment, ascending by epoch
 * @param txnIndexEmpty     whether the transaction index is empty or absent
 */
public record SegmentIdentity(
        String topic,
        Uuid topicId,
        int partition,
        Uuid segmentId,
        long startOffset,
        long endOffset,
        long maxTimestampMs,
        int brokerId,
        long eventTimestampMs,
        long segmentSizeBytes,
        NavigableMap<Integer, Long> leaderEpochs,
        boolean txnIndexEmpty) {

    /** Validates the parts and freezes the epochs. */
    public SegmentIdentity {
        KafkaTopics.requireLegal(Objects.requireNonNull(topic, "topic"));
        Objects.requireNonNull(topicId, "topicId");
        Objects.requireNonNull(segmentId, "segmentId");
        Objects.requireNonNull(leaderEpochs, "leaderEpochs");
        if (partition < 0) {
            throw new IllegalArgumentException("a partition number is at least 0: " + partition);
        }
        if (startOffset < 0) {
            throw new IllegalArgumentException("a start offset is at least 0: " + startOffset);
        }
        if (endOffset < startOffset) {
            throw new IllegalArgumentException("end offset " + endOffset + " is below start offset " + startOffset);
        }
        if (segmentSizeBytes < 0) {
            throw new IllegalArgumentException("a segment size is at least 0: " + segmentSizeBytes);
        }
        TreeMap<Integer, Long> epochs = new TreeMap<>();
        for (Map.Entry<Integer, Long> entry : leaderEpochs.entrySet()) {
            epochs.put(
                    Objects.requireNonNull(entry.getKey(), "leader epoch"),
                    Objects.requireNonNull(entry.getValue(), "leader epoch start offset"));
        }
        leaderEpochs = Collections.unmodifiableNavigableMap(epochs);
    }

    /** The identity of the segment a KIP-405 metadata record describes. */
    public static SegmentIdentity of(RemoteLogSegmentMetadata segment) {
        return new SegmentIdentity(
                segment.topicIdPartition().topic(),
                segment.topicIdPartition().topicId(),
                segment.topicIdPartition().partition(),
                segment.remoteLogSegmentId().id(),
                segment.startOffset(),
                segment.endOffset(),
                segment.maxTimestampMs(),
                segment.brokerId(),
                segment.eventTimestampMs(),
                segment.segmentSizeInBytes(),
                segment.segmentLeaderEpochs(),
                segment.txnIdxEmpty());
    }
}
