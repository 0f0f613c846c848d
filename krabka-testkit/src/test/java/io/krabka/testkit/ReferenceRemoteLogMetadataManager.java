package io.krabka.testkit;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.InvalidStateTransitionException;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * The smallest correct metadata manager the kit's own tests could write, answering as Kafka's
 * {@code RemoteLogMetadataCache} does, behind one lock. It exists only to show that a correct implementation
 * passes every rule; the tests break it one rule at a time with decorators.
 */
final class ReferenceRemoteLogMetadataManager implements RemoteLogMetadataManager {

    /** One partition: its segments, and per leader epoch the readable ones by the offset the epoch starts at. */
    private static final class Partition {
        final Map<RemoteLogSegmentId, RemoteLogSegmentMetadata> segments = new HashMap<>();
        final Map<Integer, NavigableMap<Long, RemoteLogSegmentId>> readable = new HashMap<>();
        final Map<Integer, Long> highestOffsets = new HashMap<>();
    }

    private final Map<TopicIdPartition, Partition> partitions;
    private final Map<TopicIdPartition, RemotePartitionDeleteState> deletions;
    private volatile boolean closed;

    /** An empty manager. */
    ReferenceRemoteLogMetadataManager() {
        this.partitions = new HashMap<>();
        this.deletions = new HashMap<>();
    }

    /** A manager restarted over what an earlier, closed one stored, as a durable manager would be. */
    ReferenceRemoteLogMetadataManager(ReferenceRemoteLogMetadataManager earlier) {
        this.partitions = earlier.partitions;
        this.deletions = earlier.deletions;
    }

    @Override
    public void configure(Map<String, ?> configs) {}

    @Override
    public synchronized CompletableFuture<Void> addRemoteLogSegmentMetadata(RemoteLogSegmentMetadata segment)
            throws RemoteResourceNotFoundException {
        checkOpen();
        if (segment.state() != RemoteLogSegmentState.COPY_SEGMENT_STARTED) {
            throw new IllegalArgumentException("a segment is added in COPY_SEGMENT_STARTED, not " + segment.state());
        }
        Partition partition = partition(segment.topicIdPartition());
        RemoteLogSegmentMetadata existing = partition.segments.get(segment.remoteLogSegmentId());
        if (existing != null) {
            existing.state().checkTransitionTo(segment.state());
        }
        partition.segments.put(segment.remoteLogSegmentId(), segment);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public synchronized CompletableFuture<Void> updateRemoteLogSegmentMetadata(RemoteLogSegmentMetadataUpdate update)
            throws RemoteResourceNotFoundException {
        checkOpen();
        Partition partition = partition(update.topicIdPartition());
        RemoteLogSegmentMetadata existing = partition.segments.get(update.remoteLogSegmentId());
        if (existing == null) {
            throw new RemoteResourceNotFoundException("no segment " + update.remoteLogSegmentId());
        }
        RemoteLogSegmentMetadata updated = existing.createWithUpdates(update);
        for (Map.Entry<Integer, Long> epoch : updated.segmentLeaderEpochs().entrySet()) {
            NavigableMap<Long, RemoteLogSegmentId> byStart =
                    partition.readable.computeIfAbsent(epoch.getKey(), e -> new TreeMap<>());
            if (update.state() == RemoteLogSegmentState.COPY_SEGMENT_FINISHED) {
                long end = epochEnd(updated, epoch.getKey());
                Long highest = partition.highestOffsets.get(epoch.getKey());
                // A later copy covering what earlier ones did replaces them for lookups, as in Kafka.
                while (!byStart.isEmpty()
                        && byStart.lastKey() >= epoch.getValue()
                        && highest != null
                        && highest <= end) {
                    byStart.pollLastEntry();
                }
                byStart.put(epoch.getValue(), updated.remoteLogSegmentId());
                partition.highestOffsets.merge(epoch.getKey(), end, Math::max);
            } else {
                byStart.remove(epoch.getValue(), updated.remoteLogSegmentId());
            }
        }
        if (update.state() == RemoteLogSegmentState.DELETE_SEGMENT_FINISHED) {
            partition.segments.remove(update.remoteLogSegmentId());
        } else {
            partition.segments.put(update.remoteLogSegmentId(), updated);
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public synchronized Optional<RemoteLogSegmentMetadata> remoteLogSegmentMetadata(
            TopicIdPartition topicIdPartition, int epochForOffset, long offset) throws RemoteResourceNotFoundException {
        checkOpen();
        Partition partition = partition(topicIdPartition);
        NavigableMap<Long, RemoteLogSegmentId> byStart =
                partition.readable.getOrDefault(epochForOffset, new TreeMap<>());
        Map.Entry<Long, RemoteLogSegmentId> floor = byStart.floorEntry(offset);
        return Optional.ofNullable(floor)
                .map(entry -> partition.segments.get(entry.getValue()))
                .filter(segment -> offset <= epochEnd(segment, epochForOffset));
    }

    @Override
    public synchronized Optional<Long> highestOffsetForEpoch(TopicIdPartition topicIdPartition, int leaderEpoch)
            throws RemoteResourceNotFoundException {
        checkOpen();
        return Optional.ofNullable(partition(topicIdPartition).highestOffsets.get(leaderEpoch));
    }

    @Override
    public synchronized CompletableFuture<Void> putRemotePartitionDeleteMetadata(
            RemotePartitionDeleteMetadata deletion) {
        checkOpen();
        RemotePartitionDeleteState current = deletions.get(deletion.topicIdPartition());
        if (!RemotePartitionDeleteState.isValidTransition(current, deletion.state())) {
            throw new InvalidStateTransitionException(
                    "partition deletion cannot go from " + current + " to " + deletion.state());
        }
        if (deletion.state() == RemotePartitionDeleteState.DELETE_PARTITION_FINISHED) {
            partitions.remove(deletion.topicIdPartition());
            deletions.remove(deletion.topicIdPartition());
        } else {
            deletions.put(deletion.topicIdPartition(), deletion.state());
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public synchronized Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition topicIdPartition)
            throws RemoteResourceNotFoundException {
        checkOpen();
        return new ArrayList<>(partition(topicIdPartition).segments.values()).iterator();
    }

    @Override
    public synchronized Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(
            TopicIdPartition topicIdPartition, int leaderEpoch) throws RemoteResourceNotFoundException {
        checkOpen();
        return listed(topicIdPartition, leaderEpoch).iterator();
    }

    @Override
    public synchronized void onPartitionLeadershipChanges(
            Set<TopicIdPartition> leaderPartitions, Set<TopicIdPartition> followerPartitions) {
        checkOpen();
        leaderPartitions.forEach(tp -> partitions.computeIfAbsent(tp, p -> new Partition()));
        followerPartitions.forEach(tp -> partitions.computeIfAbsent(tp, p -> new Partition()));
    }

    @Override
    public void onStopPartitions(Set<TopicIdPartition> stopped) {
        checkOpen();
        // This manager is the only copy of the metadata, so it keeps it.
    }

    @Override
    public synchronized long remoteLogSize(TopicIdPartition topicIdPartition, int leaderEpoch)
            throws RemoteResourceNotFoundException {
        checkOpen();
        return listed(topicIdPartition, leaderEpoch).stream()
                .mapToLong(RemoteLogSegmentMetadata::segmentSizeInBytes)
                .sum();
    }

    @Override
    public synchronized Optional<RemoteLogSegmentMetadata> nextSegmentWithTxnIndex(
            TopicIdPartition topicIdPartition, int epoch, long offset) throws RemoteResourceNotFoundException {
        checkOpen();
        Optional<RemoteLogSegmentMetadata> segment = remoteLogSegmentMetadata(topicIdPartition, epoch, offset);
        while (segment.isPresent() && segment.get().txnIdxEmpty()) {
            segment = remoteLogSegmentMetadata(
                    topicIdPartition, epoch, segment.get().endOffset() + 1);
        }
        return segment;
    }

    @Override
    public void close() {
        closed = true;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the reference metadata manager is closed");
        }
    }

    private List<RemoteLogSegmentMetadata> listed(TopicIdPartition topicIdPartition, int leaderEpoch)
            throws RemoteResourceNotFoundException {
        return partition(topicIdPartition).segments.values().stream()
                .filter(segment -> segment.segmentLeaderEpochs().containsKey(leaderEpoch))
                .sorted(Comparator.comparingLong(RemoteLogSegmentMetadata::startOffset))
                .toList();
    }

    private Partition partition(TopicIdPartition topicIdPartition) throws RemoteResourceNotFoundException {
        Partition partition = partitions.get(topicIdPartition);
        if (partition == null) {
            throw new RemoteResourceNotFoundException("unknown partition " + topicIdPartition);
        }
        return partition;
    }

    /** The last offset of {@code epoch} in the segment: before the next epoch starts, or the segment's end. */
    private static long epochEnd(RemoteLogSegmentMetadata segment, int epoch) {
        Map.Entry<Integer, Long> next = segment.segmentLeaderEpochs().higherEntry(epoch);
        return next != null ? next.getValue() - 1 : segment.endOffset();
    }
}
