package io.krabka.testkit;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import java.util.TreeMap;

/**
 * Segment metadata written the way a rule reads:
 * {@code segment(tp).offsets(0, 100).epoch(0, 0).epoch(1, 20).build()} is a copy starting of offsets 0 to 100 led
 * by epoch 0 from offset 0 and by epoch 1 from offset 20. Without an {@link #epoch} the whole segment is epoch 0.
 */
final class SegmentBuilder {

    /** The broker that starts copies in the kits' scripts. */
    static final int COPYING_BROKER = 0;
    /** The broker that sends updates, distinct so that an update visibly replaces the broker id. */
    static final int UPDATING_BROKER = 1;

    private static final long EVENT_TIME_MS = 1_700_000_000_000L;

    private final TopicIdPartition partition;
    private final TreeMap<Integer, Long> epochs = new TreeMap<>();
    private RemoteLogSegmentId id;
    private long startOffset;
    private long endOffset = 99;
    private int sizeInBytes = 1024;
    private boolean txnIdxEmpty = true;

    private SegmentBuilder(TopicIdPartition partition) {
        this.partition = partition;
    }

    /** A segment of the partition, offsets 0 to 99, 1024 bytes, without aborted transactions. */
    static SegmentBuilder segment(TopicIdPartition partition) {
        return new SegmentBuilder(partition);
    }

    /** The first and last offsets, both inclusive. */
    SegmentBuilder offsets(long start, long end) {
        this.startOffset = start;
        this.endOffset = end;
        return this;
    }

    /** Leader epoch {@code epoch} wrote from {@code startOffset} on (until the next epoch or the segment's end). */
    SegmentBuilder epoch(int epoch, long startOffset) {
        epochs.put(epoch, startOffset);
        return this;
    }

    /** The size of the {@code .log} file. */
    SegmentBuilder size(int bytes) {
        this.sizeInBytes = bytes;
        return this;
    }

    /** The segment's transaction index is not empty (KIP-1058). */
    SegmentBuilder withAbortedTransactions() {
        this.txnIdxEmpty = false;
        return this;
    }

    /** Reuses an id, as a retried copy does. */
    SegmentBuilder id(RemoteLogSegmentId id) {
        this.id = id;
        return this;
    }

    /** The metadata of the copy about to start, in state {@code COPY_SEGMENT_STARTED}. */
    RemoteLogSegmentMetadata build() {
        TreeMap<Integer, Long> leaderEpochs = new TreeMap<>(epochs);
        if (leaderEpochs.isEmpty()) {
            leaderEpochs.put(0, startOffset);
        }
        RemoteLogSegmentId segmentId = id != null ? id : RemoteLogSegmentId.generateNew(partition);
        return new RemoteLogSegmentMetadata(
                segmentId,
                startOffset,
                endOffset,
                EVENT_TIME_MS - 1,
                COPYING_BROKER,
                EVENT_TIME_MS,
                sizeInBytes,
                leaderEpochs,
                txnIdxEmpty);
    }

    /**
     * The update moving a segment to {@code state}, from the other broker, a millisecond later, carrying the
     * segment's custom metadata forward as Kafka's broker does.
     */
    static RemoteLogSegmentMetadataUpdate update(RemoteLogSegmentMetadata segment, RemoteLogSegmentState state) {
        return new RemoteLogSegmentMetadataUpdate(
                segment.remoteLogSegmentId(),
                segment.eventTimestampMs() + 1,
                segment.customMetadata(),
                state,
                UPDATING_BROKER);
    }
}
