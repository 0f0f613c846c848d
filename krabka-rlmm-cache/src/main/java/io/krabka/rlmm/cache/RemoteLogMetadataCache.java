package io.krabka.rlmm.cache;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.InvalidStateTransitionException;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The remote segments of one partition and their leader-epoch lineage, answering as Kafka's
 * {@code RemoteLogMetadataCache} does. Which segments each lookup sees, by state:
 * <pre>
 *                                      COPY_STARTED  COPY_FINISHED  DELETE_STARTED  DELETE_FINISHED
 *   remoteLogSegmentMetadata(epoch, o)      no            yes            no              no
 *   highestOffsetForEpoch(epoch)            no            yes            yes (*)         yes (*)
 *   listRemoteLogSegments(epoch), all       yes           yes            yes             no
 * </pre>
 * (*) the highest offset an epoch ever reached in a finished copy stays, even once that copy is deleted.
 *
 * <p>Not thread-safe: {@link RemotePartitionMetadataStore} guards every instance.
 */
public final class RemoteLogMetadataCache {

    private static final Comparator<RemoteLogSegmentMetadata> BY_START_OFFSET = Comparator.comparingLong(
                    RemoteLogSegmentMetadata::startOffset)
            .thenComparing(segment -> segment.remoteLogSegmentId().id());

    private final Map<RemoteLogSegmentId, RemoteLogSegmentMetadata> idToSegment = new HashMap<>();
    private final NavigableMap<Integer, RemoteLogLeaderEpochState> epochs = new TreeMap<>();

    /**
     * Tracks a segment whose copy is starting. Adding the same copy again while it is still starting replaces it.
     *
     * @throws IllegalArgumentException        if the metadata is not in state {@code COPY_SEGMENT_STARTED}
     * @throws InvalidStateTransitionException if the segment is known and past {@code COPY_SEGMENT_STARTED}
     */
    void addCopyInProgressSegment(RemoteLogSegmentMetadata segment) {
        if (segment.state() != RemoteLogSegmentState.COPY_SEGMENT_STARTED) {
            throw new IllegalArgumentException("segment " + segment.remoteLogSegmentId() + " must be added in state "
                    + RemoteLogSegmentState.COPY_SEGMENT_STARTED + ", not " + segment.state());
        }
        RemoteLogSegmentId id = segment.remoteLogSegmentId();
        RemoteLogSegmentMetadata existing = idToSegment.get(id);
        checkTransition(id, existing == null ? null : existing.state(), segment.state());
        if (existing != null) {
            existing.segmentLeaderEpochs()
                    .keySet()
                    .forEach(epoch -> epochs.get(epoch).forget(id));
        }
        segment.segmentLeaderEpochs().keySet().forEach(epoch -> epoch(epoch).copyStarted(id));
        idToSegment.put(id, segment);
    }

    /**
     * Moves a known segment to the update's state.
     *
     * @throws RemoteResourceNotFoundException if the segment is not tracked (never added, or already deleted)
     * @throws InvalidStateTransitionException if Kafka's lifecycle does not allow the new state
     */
    void updateRemoteLogSegmentMetadata(RemoteLogSegmentMetadataUpdate update) throws RemoteResourceNotFoundException {
        RemoteLogSegmentId id = update.remoteLogSegmentId();
        RemoteLogSegmentMetadata existing = idToSegment.get(id);
        if (existing == null) {
            throw new RemoteResourceNotFoundException("no remote log segment metadata for " + id);
        }
        checkTransition(id, existing.state(), update.state());
        RemoteLogSegmentMetadata updated = existing.createWithUpdates(update);
        switch (update.state()) {
            case COPY_SEGMENT_STARTED -> throw new IllegalArgumentException("an update cannot carry " + update.state());
            case COPY_SEGMENT_FINISHED -> {
                updated.segmentLeaderEpochs()
                        .forEach((epoch, startOffset) ->
                                epoch(epoch).copyFinished(startOffset, id, epochEndOffset(updated, epoch)));
                idToSegment.put(id, updated);
            }
            case DELETE_SEGMENT_STARTED -> {
                updated.segmentLeaderEpochs()
                        .forEach((epoch, startOffset) -> epoch(epoch).deleteStarted(startOffset, id));
                idToSegment.put(id, updated);
            }
            case DELETE_SEGMENT_FINISHED -> {
                updated.segmentLeaderEpochs()
                        .keySet()
                        .forEach(epoch -> epoch(epoch).forget(id));
                idToSegment.remove(id);
            }
        }
    }

    /**
     * The readable segment holding {@code offset} in {@code leaderEpoch}: the one in which the epoch starts at the
     * greatest offset at or below {@code offset}, provided the epoch has not ended in that segment before
     * {@code offset}.
     */
    public Optional<RemoteLogSegmentMetadata> remoteLogSegmentMetadata(int leaderEpoch, long offset) {
        RemoteLogLeaderEpochState state = epochs.get(leaderEpoch);
        if (state == null) {
            return Optional.empty();
        }
        return state.floor(offset)
                .map(idToSegment::get)
                .filter(segment -> offset <= epochEndOffset(segment, leaderEpoch));
    }

    /**
     * The segment with aborted transactions that a read-committed fetch from {@code offset} in {@code leaderEpoch}
     * reaches next (KIP-1058), as Kafka's cache answers it: starting at the readable segment holding the offset,
     * the walk goes on to the readable segment holding the offset right after each segment's end while the
     * transaction indexes are empty. It stops, answering nothing, where no readable segment holds the offset: past
     * the epoch's end, or at a gap (a segment being deleted or still being copied).
     */
    public Optional<RemoteLogSegmentMetadata> nextSegmentWithTxnIndex(int leaderEpoch, long offset) {
        Optional<RemoteLogSegmentMetadata> segment = remoteLogSegmentMetadata(leaderEpoch, offset);
        while (segment.isPresent() && segment.get().txnIdxEmpty()) {
            long end = segment.get().endOffset();
            segment = end == Long.MAX_VALUE ? Optional.empty() : remoteLogSegmentMetadata(leaderEpoch, end + 1);
        }
        return segment;
    }

    /** The highest offset of {@code leaderEpoch} ever held by a segment that finished copying. */
    public Optional<Long> highestOffsetForEpoch(int leaderEpoch) {
        RemoteLogLeaderEpochState state = epochs.get(leaderEpoch);
        return state == null ? Optional.empty() : state.highestLogOffset();
    }

    /** Every tracked segment, by start offset. */
    public List<RemoteLogSegmentMetadata> listAllRemoteLogSegments() {
        return sorted(idToSegment.values());
    }

    /** Every tracked segment holding records of {@code leaderEpoch}, readable or not, by start offset. */
    public List<RemoteLogSegmentMetadata> listRemoteLogSegments(int leaderEpoch) {
        RemoteLogLeaderEpochState state = epochs.get(leaderEpoch);
        return state == null
                ? List.of()
                : sorted(state.segmentIds().stream().map(idToSegment::get).toList());
    }

    /** This partition's metadata as a value. */
    PartitionSnapshot snapshot(TopicIdPartition topicIdPartition, Optional<RemotePartitionDeleteMetadata> delete) {
        List<LeaderEpochSnapshot> epochSnapshots = new ArrayList<>();
        epochs.forEach((epoch, state) -> epochSnapshots.add(state.snapshot(epoch)));
        return new PartitionSnapshot(topicIdPartition, delete, listAllRemoteLogSegments(), epochSnapshots);
    }

    /** The cache a snapshot describes; the snapshot has been checked for consistency when it was made. */
    static RemoteLogMetadataCache restore(PartitionSnapshot snapshot) {
        RemoteLogMetadataCache cache = new RemoteLogMetadataCache();
        snapshot.segments().forEach(segment -> cache.idToSegment.put(segment.remoteLogSegmentId(), segment));
        snapshot.leaderEpochs()
                .forEach(epoch -> cache.epochs.put(epoch.epoch(), RemoteLogLeaderEpochState.restore(epoch)));
        return cache;
    }

    // Epoch states are never dropped, even when empty, so that an epoch's highest offset outlives its segments.
    private RemoteLogLeaderEpochState epoch(int leaderEpoch) {
        return epochs.computeIfAbsent(leaderEpoch, epoch -> new RemoteLogLeaderEpochState());
    }

    /** The last offset of {@code leaderEpoch} in the segment: the next epoch's start minus one, else the segment's end. */
    private static long epochEndOffset(RemoteLogSegmentMetadata segment, int leaderEpoch) {
        Map.Entry<Integer, Long> nextEpoch = segment.segmentLeaderEpochs().higherEntry(leaderEpoch);
        return nextEpoch == null ? segment.endOffset() : nextEpoch.getValue() - 1;
    }

    private static void checkTransition(RemoteLogSegmentId id, RemoteLogSegmentState from, RemoteLogSegmentState to) {
        if (!RemoteLogSegmentState.isValidTransition(from, to)) {
            throw new InvalidStateTransitionException(
                    "remote log segment " + id + " cannot go from " + (from == null ? "unknown" : from) + " to " + to);
        }
    }

    private static List<RemoteLogSegmentMetadata> sorted(Collection<RemoteLogSegmentMetadata> segments) {
        return segments.stream().sorted(BY_START_OFFSET).toList();
    }
}
