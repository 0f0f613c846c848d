package io.krabka.kernel.restore.report;

import io.krabka.spi.common.Uuid;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One restored partition.
 *
 * @param topic     the topic
 * @param partition the partition
 * @param topicId   the topic's id, as in the archive
 * @param segments  what became of each of its segments, by offset
 */
public record PartitionReport(String topic, int partition, Uuid topicId, List<SegmentOutcome> segments) {

    /** Freezes the parts. */
    public PartitionReport {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(topicId, "topicId");
        segments = List.copyOf(segments);
    }

    /** The first restored offset: the base offset of the first segment; empty when nothing was restored. */
    public OptionalLong firstOffset() {
        return segments.isEmpty()
                ? OptionalLong.empty()
                : OptionalLong.of(segments.getFirst().baseOffset());
    }

    /** The last restored offset; empty when nothing was restored. */
    public OptionalLong lastOffset() {
        return segments.isEmpty()
                ? OptionalLong.empty()
                : OptionalLong.of(segments.getLast().endOffset());
    }

    /** The records kept. */
    public long recordsKept() {
        return segments.stream().mapToLong(SegmentOutcome::recordsKept).sum();
    }

    /** The records dropped by the bound or excluded. */
    public long recordsDropped() {
        return segments.stream().mapToLong(SegmentOutcome::recordsDropped).sum();
    }

    /** The batches re-encoded without their excluded records. */
    public long batchesRewritten() {
        return segments.stream().mapToLong(SegmentOutcome::batchesRewritten).sum();
    }

    /** The batches written as a bare header, every record excluded. */
    public long batchesEmptied() {
        return segments.stream().mapToLong(SegmentOutcome::batchesEmptied).sum();
    }

    /** The bytes of the partition's segments as written. */
    public long bytesWritten() {
        return segments.stream().mapToLong(SegmentOutcome::bytesWritten).sum();
    }
}
