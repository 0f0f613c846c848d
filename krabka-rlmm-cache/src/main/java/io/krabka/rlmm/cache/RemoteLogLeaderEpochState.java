package io.krabka.rlmm.cache;

import io.krabka.spi.storage.RemoteLogSegmentId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The segments of one leader epoch of one partition, as Kafka's {@code RemoteLogLeaderEpochState} keeps them:
 * the readable ({@code COPY_SEGMENT_FINISHED}) segments by the offset at which the epoch starts in each, and the
 * unreferenced ones — copies still running, deletions under way, and copies superseded by a later upload of the
 * same offsets — which are not readable but must stay listed so that they can be cleaned up.
 *
 * <p>Not thread-safe: {@link RemotePartitionMetadataStore} guards every instance.
 */
final class RemoteLogLeaderEpochState {

    private final NavigableMap<Long, RemoteLogSegmentId> offsetToId = new TreeMap<>();
    private final Set<RemoteLogSegmentId> unreferenced = new HashSet<>();
    // The end of this epoch in the highest segment that ever finished copying; deletions do not lower it (Kafka).
    private Long highestLogOffset;

    /** A copy has started: the segment is tracked but not readable. */
    void copyStarted(RemoteLogSegmentId id) {
        unreferenced.add(id);
    }

    /**
     * A copy has finished: the segment becomes readable from {@code startOffset}, where this epoch starts in it, to
     * {@code epochEndOffset}, where the epoch ends in it.
     */
    void copyFinished(long startOffset, RemoteLogSegmentId id, long epochEndOffset) {
        // A new leader may upload again what an earlier leader already uploaded. A segment that reaches at least as
        // far as everything readable supersedes the readable segments that start at or after its own start.
        while (!offsetToId.isEmpty() && offsetToId.lastKey() >= startOffset && highestLogOffset <= epochEndOffset) {
            unreferenced.add(offsetToId.pollLastEntry().getValue());
        }
        RemoteLogSegmentId replaced = offsetToId.put(startOffset, id);
        if (replaced != null && !replaced.equals(id)) {
            // Kafka drops a segment replaced at the same start offset from the epoch altogether; it still exists in
            // the remote tier, so it is kept as unreferenced for cleanup, as Kafka's own documentation intends.
            unreferenced.add(replaced);
        }
        unreferenced.remove(id);
        if (highestLogOffset == null || epochEndOffset > highestLogOffset) {
            highestLogOffset = epochEndOffset;
        }
    }

    /** A deletion has started: the segment is no longer readable but stays listed. */
    void deleteStarted(long startOffset, RemoteLogSegmentId id) {
        offsetToId.remove(startOffset, id);
        unreferenced.add(id);
    }

    /** The segment is gone (deletion finished) or is being replaced by a re-added copy. */
    void forget(RemoteLogSegmentId id) {
        unreferenced.remove(id);
    }

    /** The readable segment with the greatest epoch start at or below {@code offset}. */
    Optional<RemoteLogSegmentId> floor(long offset) {
        return Optional.ofNullable(offsetToId.floorEntry(offset)).map(Map.Entry::getValue);
    }

    /** The highest offset of this epoch in a segment that finished copying, if any did. */
    Optional<Long> highestLogOffset() {
        return Optional.ofNullable(highestLogOffset);
    }

    /** Every tracked segment, readable or not. */
    Collection<RemoteLogSegmentId> segmentIds() {
        List<RemoteLogSegmentId> ids = new ArrayList<>(offsetToId.values());
        ids.addAll(unreferenced);
        return ids;
    }

    /** This state as a value. */
    LeaderEpochSnapshot snapshot(int epoch) {
        return new LeaderEpochSnapshot(epoch, highestLogOffset(), offsetToId, unreferenced);
    }

    /** The state a snapshot describes; the snapshot has been checked for consistency when it was made. */
    static RemoteLogLeaderEpochState restore(LeaderEpochSnapshot snapshot) {
        RemoteLogLeaderEpochState state = new RemoteLogLeaderEpochState();
        state.offsetToId.putAll(snapshot.referenced());
        state.unreferenced.addAll(snapshot.unreferenced());
        state.highestLogOffset = snapshot.highestLogOffset().orElse(null);
        return state;
    }
}
