package io.krabka.kernel.log;

import io.krabka.kernel.log.checkpoint.EpochEntry;
import io.krabka.kernel.log.checkpoint.LeaderEpochCheckpointFile;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Kafka's leader-epoch cache of a partition: the first offset of each leader epoch, kept in epoch order with start
 * offsets that increase with the epochs, and persisted to the partition's {@code leader-epoch-checkpoint}.
 *
 * <p>Every change is written to the checkpoint before the method returns. Kafka 4.x writes truncations
 * asynchronously (to keep an fsync off the replica fetcher and the DeleteRecords path) and relies on the log loader
 * truncating again after a crash; but a stale file that still holds a truncated epoch is not always repaired by
 * that (the log may grow past the stale start offset before the crash), and the checkpoint is what a restarted
 * broker answers OffsetsForLeaderEpoch from. Truncations are rare (retention, DeleteRecords, log truncation), so
 * Krabka pays the fsync and the file always matches the cache. The write happens under the read lock, after the
 * change: readers go on, the next change waits, and the file gets exactly the state the change left.
 *
 * <p>Thread-safe: reads share a read lock, changes take the write lock.
 */
public final class LeaderEpochFileCache implements EpochAssigner {

    private static final System.Logger LOG = System.getLogger(LeaderEpochFileCache.class.getName());

    private final TopicPartition topicPartition;
    private final LeaderEpochCheckpointFile checkpoint;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final TreeMap<Integer, EpochEntry> epochs = new TreeMap<>();

    /**
     * The cache of the entries in {@code checkpoint}; entries that break the order are dropped as {@link #assign}
     * would drop them.
     *
     * @throws IOException if the checkpoint cannot be read, or is malformed
     */
    public LeaderEpochFileCache(TopicPartition topicPartition, LeaderEpochCheckpointFile checkpoint)
            throws IOException {
        this.topicPartition = Objects.requireNonNull(topicPartition, "topicPartition");
        this.checkpoint = Objects.requireNonNull(checkpoint, "checkpoint");
        for (EpochEntry entry : checkpoint.read()) {
            if (isUpdateNeeded(entry)) {
                add(entry);
            }
        }
    }

    /**
     * Records that {@code epoch} starts at {@code startOffset}, as Kafka does: nothing changes for the latest epoch
     * at the same or a later offset; otherwise the entries of this or a later epoch, and those starting at or after
     * {@code startOffset}, are removed (they conflict with the new one) and the entry is added.
     */
    @Override
    public void assign(int epoch, long startOffset) throws IOException {
        EpochEntry entry = new EpochEntry(epoch, startOffset);
        if (!isUpdateNeeded(entry)) { // the common case, without contending with readers for the write lock
            return;
        }
        changeAndWrite(() -> {
            if (!isUpdateNeeded(entry)) {
                return false;
            }
            add(entry);
            return true;
        });
    }

    /** Whether there is any entry. */
    public boolean nonEmpty() {
        return read(() -> !epochs.isEmpty());
    }

    /** The entry of the latest epoch. */
    public Optional<EpochEntry> latestEntry() {
        return read(() -> Optional.ofNullable(epochs.lastEntry()).map(Map.Entry::getValue));
    }

    @Override
    public OptionalInt latestEpoch() {
        return latestEntry().map(entry -> OptionalInt.of(entry.epoch())).orElse(OptionalInt.empty());
    }

    /** The epoch before the latest. */
    public OptionalInt previousEpoch() {
        return read(() -> epochs.isEmpty() ? OptionalInt.empty() : optionalInt(epochs.lowerKey(epochs.lastKey())));
    }

    /** The largest epoch below {@code epoch}. */
    public OptionalInt previousEpoch(int epoch) {
        return read(() -> optionalInt(epochs.lowerKey(epoch)));
    }

    /** The entry of the largest epoch below {@code epoch}. */
    public Optional<EpochEntry> previousEntry(int epoch) {
        return read(() -> Optional.ofNullable(epochs.lowerEntry(epoch)).map(Map.Entry::getValue));
    }

    /** The smallest epoch above {@code epoch}. */
    public OptionalInt nextEpoch(int epoch) {
        return read(() -> optionalInt(epochs.higherKey(epoch)));
    }

    /** The entry of the earliest epoch. */
    public Optional<EpochEntry> earliestEntry() {
        return read(() -> Optional.ofNullable(epochs.firstEntry()).map(Map.Entry::getValue));
    }

    /** The entry of {@code epoch}. */
    public Optional<EpochEntry> epochEntry(int epoch) {
        return read(() -> Optional.ofNullable(epochs.get(epoch)));
    }

    /**
     * Kafka's OffsetsForLeaderEpoch answer: the largest epoch at most {@code requestedEpoch} and the start offset of
     * the next epoch; the log end offset for the latest epoch; {@code requestedEpoch} and the first start offset for
     * an epoch below every known one (its data is gone); {@link EpochEndOffset#UNDEFINED} for an undefined epoch,
     * an epoch above every known one, or an empty cache.
     */
    public EpochEndOffset endOffsetFor(int requestedEpoch, long logEndOffset) {
        return read(() -> {
            if (requestedEpoch == EpochEndOffset.UNDEFINED_EPOCH || epochs.isEmpty()) {
                return EpochEndOffset.UNDEFINED;
            }
            if (epochs.lastKey() == requestedEpoch) {
                // A leader's latest epoch is still being written to; a consumer checking its position after a
                // rebalance asks for it and must get the log end offset.
                return new EpochEndOffset(requestedEpoch, logEndOffset);
            }
            Map.Entry<Integer, EpochEntry> higher = epochs.higherEntry(requestedEpoch);
            if (higher == null) {
                return EpochEndOffset.UNDEFINED;
            }
            Map.Entry<Integer, EpochEntry> floor = epochs.floorEntry(requestedEpoch);
            int epoch = floor == null ? requestedEpoch : floor.getKey();
            return new EpochEndOffset(epoch, higher.getValue().startOffset());
        });
    }

    /** Removes the entries that start at or after {@code endOffset}; a negative offset removes nothing. */
    public void truncateFromEnd(long endOffset) throws IOException {
        changeAndWrite(() -> !truncateFromEnd(epochs, endOffset).isEmpty());
    }

    /**
     * Removes the entries that start at or before {@code startOffset}, keeping the last of them moved to start at
     * {@code startOffset} (its epoch still holds the new first offset); a negative offset removes nothing.
     */
    public void truncateFromStart(long startOffset) throws IOException {
        changeAndWrite(() -> {
            List<EpochEntry> removed = truncateFromStart(epochs, startOffset);
            return !removed.isEmpty()
                    && !(removed.size() == 1 && removed.getFirst().startOffset() == startOffset);
        });
    }

    /** The epoch of the record at {@code offset}: that of the last entry starting at or before it. */
    public OptionalInt epochForOffset(long offset) {
        return read(() -> {
            OptionalInt epoch = OptionalInt.empty();
            for (EpochEntry entry : epochs.values()) {
                if (entry.startOffset() > offset) {
                    break;
                }
                epoch = OptionalInt.of(entry.epoch());
            }
            return epoch;
        });
    }

    /**
     * The entries of the offsets from {@code startOffset} (inclusive; a negative one means from the first entry)
     * to {@code endOffset} (exclusive), the first moved to start at {@code startOffset} as
     * {@link #truncateFromStart} would: a tiered segment's leader-epoch index, written with
     * {@link LeaderEpochCheckpointFile#toByteBuffer}. The cache does not change.
     */
    public List<EpochEntry> epochEntriesInRange(long startOffset, long endOffset) {
        return read(() -> {
            TreeMap<Integer, EpochEntry> copy = new TreeMap<>(epochs);
            if (startOffset >= 0) {
                truncateFromStart(copy, startOffset);
            }
            truncateFromEnd(copy, endOffset);
            return List.copyOf(copy.values());
        });
    }

    /** Removes every entry. */
    public void clearAndFlush() throws IOException {
        changeAndWrite(() -> {
            epochs.clear();
            return true;
        });
    }

    /** The entries, in epoch order. */
    public List<EpochEntry> epochEntries() {
        return read(() -> List.copyOf(epochs.values()));
    }

    /** Each epoch with its start offset, in epoch order. */
    public NavigableMap<Integer, Long> epochWithOffsets() {
        return read(() -> {
            NavigableMap<Integer, Long> offsets = new TreeMap<>();
            epochs.values().forEach(entry -> offsets.put(entry.epoch(), entry.startOffset()));
            return offsets;
        });
    }

    /** The checkpoint file. */
    public LeaderEpochCheckpointFile checkpoint() {
        return checkpoint;
    }

    @Override
    public String toString() {
        return "LeaderEpochFileCache[" + topicPartition + ", " + epochEntries() + "]";
    }

    private boolean isUpdateNeeded(EpochEntry entry) {
        return latestEntry()
                .map(latest -> entry.epoch() != latest.epoch() || entry.startOffset() < latest.startOffset())
                .orElse(true);
    }

    /** Adds an entry after removing those it conflicts with; under the write lock. */
    private void add(EpochEntry entry) {
        List<EpochEntry> removed = removeWhile(
                epochs.descendingMap().values().iterator(),
                existing -> existing.epoch() >= entry.epoch() || existing.startOffset() >= entry.startOffset());
        epochs.put(entry.epoch(), entry);
        // Replacing an epoch that has no records yet (same start offset) is expected; anything else lost history.
        if (removed.size() > 1 || (!removed.isEmpty() && removed.getFirst().startOffset() != entry.startOffset())) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "[LeaderEpochCache " + topicPartition + "] New epoch entry " + entry
                            + " removed the conflicting entries " + removed + "; the cache now holds " + epochs.size());
        }
    }

    private static List<EpochEntry> truncateFromEnd(TreeMap<Integer, EpochEntry> epochs, long endOffset) {
        if (endOffset < 0 || epochs.isEmpty() || epochs.lastEntry().getValue().startOffset() < endOffset) {
            return List.of();
        }
        return removeWhile(epochs.descendingMap().values().iterator(), entry -> entry.startOffset() >= endOffset);
    }

    private static List<EpochEntry> truncateFromStart(TreeMap<Integer, EpochEntry> epochs, long startOffset) {
        List<EpochEntry> removed = removeWhile(epochs.values().iterator(), entry -> entry.startOffset() <= startOffset);
        if (!removed.isEmpty()) {
            int epoch = removed.getLast().epoch();
            epochs.put(epoch, new EpochEntry(epoch, startOffset));
        }
        return removed;
    }

    private static List<EpochEntry> removeWhile(Iterator<EpochEntry> entries, Predicate<EpochEntry> condition) {
        List<EpochEntry> removed = new ArrayList<>();
        while (entries.hasNext()) {
            EpochEntry entry = entries.next();
            if (!condition.test(entry)) {
                break;
            }
            removed.add(entry);
            entries.remove();
        }
        return removed;
    }

    /**
     * Makes a change under the write lock and, if it changed anything, writes the entries while holding the read
     * lock taken before the write lock is released: the file gets this state, and no later change overtakes it.
     */
    private void changeAndWrite(BooleanSupplier change) throws IOException {
        boolean changed;
        lock.writeLock().lock();
        try {
            changed = change.getAsBoolean();
            if (changed) {
                lock.readLock().lock();
            }
        } finally {
            lock.writeLock().unlock();
        }
        if (changed) {
            try {
                checkpoint.write(epochs.values());
            } finally {
                lock.readLock().unlock();
            }
        }
    }

    private <T> T read(Supplier<T> reader) {
        lock.readLock().lock();
        try {
            return reader.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    private static OptionalInt optionalInt(Integer value) {
        return value == null ? OptionalInt.empty() : OptionalInt.of(value);
    }
}
