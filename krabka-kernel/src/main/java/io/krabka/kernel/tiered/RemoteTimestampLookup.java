package io.krabka.kernel.tiered;

import io.krabka.kernel.log.LeaderEpochFileCache;
import io.krabka.kernel.log.OffsetPosition;
import io.krabka.kernel.log.TimestampAndOffset;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The first record at or after a timestamp in the remote tier, as Kafka's
 * {@code RemoteLogManager.findOffsetByTimestamp}: the segments of each leader epoch from the starting offset's on,
 * the first copied one whose largest timestamp reaches the target and whose epochs are the log's; there, the time
 * index gives where to scan from and the batches are scanned record by record.
 */
final class RemoteTimestampLookup {

    // Bytes a ranged fetch asks for while scanning: a few index intervals.
    private static final int SCAN_CHUNK_BYTES = 64 * 1024;

    private final RemoteStorageManager rsm;
    private final RemoteLogMetadataManager rlmm;
    private final RemoteIndexCache indexCache;

    RemoteTimestampLookup(RemoteStorageManager rsm, RemoteLogMetadataManager rlmm, RemoteIndexCache indexCache) {
        this.rsm = rsm;
        this.rlmm = rlmm;
        this.indexCache = indexCache;
    }

    Optional<TimestampAndOffset> find(TopicIdPartition partition, long timestamp, long startingOffset, UnifiedLog log)
            throws RemoteStorageException, IOException {
        LeaderEpochFileCache epochs = log.leaderEpochCache();
        NavigableMap<Integer, Long> lineage = epochs.epochWithOffsets();
        OptionalInt epoch = epochs.epochForOffset(startingOffset);
        while (epoch.isPresent()) {
            Iterator<RemoteLogSegmentMetadata> segments = rlmm.listRemoteLogSegments(partition, epoch.getAsInt());
            while (segments.hasNext()) {
                RemoteLogSegmentMetadata segment = segments.next();
                if (segment.state() == RemoteLogSegmentState.COPY_SEGMENT_FINISHED
                        && segment.maxTimestampMs() >= timestamp
                        && segment.endOffset() >= startingOffset
                        && withinLineage(segment, log.logEndOffset(), lineage)) {
                    return scan(segment, timestamp, startingOffset, log.config().maxDecompressedMessageBytes());
                }
            }
            epoch = epochs.nextEpoch(epoch.getAsInt());
        }
        return Optional.empty();
    }

    private Optional<TimestampAndOffset> scan(
            RemoteLogSegmentMetadata segment, long timestamp, long startingOffset, long maxDecompressedBytes)
            throws RemoteStorageException, IOException {
        OffsetPosition start = indexCache.lookupTimestamp(segment, timestamp, startingOffset);
        RemoteSegmentCursor cursor = new RemoteSegmentCursor(rsm, segment, start.position(), SCAN_CHUNK_BYTES);
        Optional<LogBatch> next;
        while ((next = cursor.next(Integer.MAX_VALUE)).isPresent()) {
            LogBatch batch = next.get();
            if (batch.maxTimestamp() < timestamp || batch.lastOffset() < startingOffset) {
                continue;
            }
            for (Record record : batch.records(maxDecompressedBytes)) {
                if (record.timestamp() >= timestamp && record.offset() >= startingOffset) {
                    OptionalInt leaderEpoch = batch instanceof RecordBatch v2
                                    && v2.partitionLeaderEpoch() != RecordBatch.NO_PARTITION_LEADER_EPOCH
                            ? OptionalInt.of(v2.partitionLeaderEpoch())
                            : OptionalInt.empty();
                    return Optional.of(new TimestampAndOffset(record.timestamp(), record.offset(), leaderEpoch));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Kafka's {@code isRemoteSegmentWithinLeaderEpochs}: a segment left by a leader whose records were truncated
     * away is not the log's. Each of the segment's epochs must be in the log's lineage starting no later than in
     * the segment, and the segment must end before the epoch after its last one begins, and within the log.
     */
    static boolean withinLineage(
            RemoteLogSegmentMetadata segment, long logEndOffset, NavigableMap<Integer, Long> lineage) {
        if (lineage.isEmpty() || segment.endOffset() >= logEndOffset) {
            return false;
        }
        NavigableMap<Integer, Long> segmentEpochs = segment.segmentLeaderEpochs();
        int lastEpoch = segmentEpochs.lastKey();
        if (lastEpoch < lineage.firstKey() || lastEpoch > lineage.lastKey()) {
            return false;
        }
        for (Map.Entry<Integer, Long> entry : segmentEpochs.entrySet()) {
            int epoch = entry.getKey();
            if (epoch < lineage.firstKey()) {
                // The log's epochs were truncated from the start past this one.
                continue;
            }
            Long lineageStart = lineage.get(epoch);
            if (lineageStart == null || entry.getValue() < lineageStart) {
                return false;
            }
            if (epoch == lastEpoch) {
                Map.Entry<Integer, Long> nextEpoch = lineage.higherEntry(epoch);
                if (nextEpoch != null && segment.endOffset() >= nextEpoch.getValue()) {
                    return false;
                }
            }
        }
        return true;
    }
}
