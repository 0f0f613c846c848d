package io.krabka.rlmm.cache;

import io.krabka.spi.storage.RemoteLogSegmentId;
import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The state of one leader epoch of a partition, as a value.
 *
 * @param epoch            the leader epoch
 * @param highestLogOffset the highest offset of the epoch in a segment that finished copying, if any did
 * @param referenced       the epoch's start offset in each readable segment, to that segment
 * @param unreferenced     the segments of the epoch that are tracked but not readable
 */
public record LeaderEpochSnapshot(
        int epoch,
        Optional<Long> highestLogOffset,
        NavigableMap<Long, RemoteLogSegmentId> referenced,
        Set<RemoteLogSegmentId> unreferenced) {

    /** Checks the epoch's own invariants and freezes the collections. */
    public LeaderEpochSnapshot {
        Objects.requireNonNull(highestLogOffset, "highestLogOffset");
        if (epoch < 0) {
            throw new IllegalArgumentException("leader epoch must be at least 0: " + epoch);
        }
        referenced = Collections.unmodifiableNavigableMap(new TreeMap<>(referenced));
        unreferenced = Set.copyOf(unreferenced);
        if (!referenced.isEmpty() && highestLogOffset.isEmpty()) {
            throw new IllegalArgumentException("epoch " + epoch + " has readable segments but no highest offset");
        }
        Set<RemoteLogSegmentId> seen = new HashSet<>();
        for (Map.Entry<Long, RemoteLogSegmentId> entry : referenced.entrySet()) {
            if (!seen.add(entry.getValue())) {
                throw new IllegalArgumentException("epoch " + epoch + " references segment "
                        + entry.getValue().id() + " twice");
            }
            if (unreferenced.contains(entry.getValue())) {
                throw new IllegalArgumentException("epoch " + epoch + " lists segment "
                        + entry.getValue().id() + " as both referenced and unreferenced");
            }
        }
    }
}
