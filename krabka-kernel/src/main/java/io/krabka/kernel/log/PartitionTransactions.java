package io.krabka.kernel.log;

import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The transactions that hold a partition's last stable offset down, by first offset: the ongoing ones, whose
 * marker is not written yet, and the unreplicated ones, whose marker is above the high watermark. Changed by the
 * log under its lock; {@link #firstUnstableOffset()} is safe from any thread.
 */
final class PartitionTransactions {

    private final TreeMap<Long, TxnMetadata> ongoing = new TreeMap<>();
    private final TreeMap<Long, TxnMetadata> unreplicated = new TreeMap<>();
    // Recomputed on every change, so that fetches may read it without the log lock.
    private volatile Optional<LogOffsetMetadata> firstUnstableOffset = Optional.empty();

    void begin(TxnMetadata txn) {
        ongoing.put(txn.firstOffset().messageOffset(), txn);
        changed();
    }

    /**
     * Moves an ongoing transaction to the unreplicated ones.
     *
     * @throws IllegalArgumentException if no ongoing transaction starts at its first offset
     */
    void complete(CompletedTxn completedTxn) {
        TxnMetadata txn = ongoing.remove(completedTxn.firstOffset());
        if (txn == null) {
            throw new IllegalArgumentException(
                    "Attempted to complete transaction " + completedTxn + " which was not started");
        }
        unreplicated.put(completedTxn.firstOffset(), txn.completedAt(completedTxn.lastOffset()));
        changed();
    }

    /** Forgets the completed transactions whose marker is below {@code offset}. */
    void removeUnreplicatedBelow(long offset) {
        Iterator<TxnMetadata> it = unreplicated.values().iterator();
        boolean removed = false;
        while (it.hasNext()) {
            OptionalLong lastOffset = it.next().lastOffset();
            if (lastOffset.isPresent() && lastOffset.getAsLong() < offset) {
                it.remove();
                removed = true;
            }
        }
        if (removed) {
            changed();
        }
    }

    void clear() {
        ongoing.clear();
        unreplicated.clear();
        changed();
    }

    /** The earliest offset that is undecided, or decided by a marker not yet replicated. */
    Optional<LogOffsetMetadata> firstUnstableOffset() {
        return firstUnstableOffset;
    }

    /** The first offset of the earliest transaction without a marker. */
    OptionalLong firstUndecidedOffset() {
        Map.Entry<Long, TxnMetadata> first = ongoing.firstEntry();
        return first == null ? OptionalLong.empty() : OptionalLong.of(first.getKey());
    }

    /** The earliest transaction without a marker. */
    Optional<TxnMetadata> oldestOngoing() {
        return Optional.ofNullable(ongoing.firstEntry()).map(Map.Entry::getValue);
    }

    /** The earliest transaction without a marker of a producer other than {@code producerId}. */
    Optional<TxnMetadata> firstOngoingOfAnotherProducer(long producerId) {
        return ongoing.values().stream()
                .filter(txn -> txn.producerId() != producerId)
                .findFirst();
    }

    boolean hasUnreplicated() {
        return !unreplicated.isEmpty();
    }

    private void changed() {
        Map.Entry<Long, TxnMetadata> undecided = ongoing.firstEntry();
        Map.Entry<Long, TxnMetadata> unreplicatedFirst = unreplicated.firstEntry();
        Map.Entry<Long, TxnMetadata> first;
        if (undecided == null) {
            first = unreplicatedFirst;
        } else if (unreplicatedFirst == null || undecided.getKey() < unreplicatedFirst.getKey()) {
            first = undecided;
        } else {
            first = unreplicatedFirst;
        }
        firstUnstableOffset =
                Optional.ofNullable(first).map(entry -> entry.getValue().firstOffset());
    }
}
