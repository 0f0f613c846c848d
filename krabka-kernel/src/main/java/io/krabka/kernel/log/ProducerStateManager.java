package io.krabka.kernel.log;

import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The producer state of one partition, Kafka's {@code ProducerStateManager}: each producer's epoch, last batches
 * and open transaction, the partition's transactions and first unstable offset, and the snapshot files
 * ({@code <offset>.snapshot}, Kafka's format) the state is saved to and rebuilt from.
 *
 * <p>A producer is forgotten {@code producer.id.expiration.ms} after its last write unless its transaction is
 * open; after that it may write any sequence again.
 *
 * <p>Threads: one writer, the partition's log, which holds its lock around every method that changes state and
 * around {@link #activeProducers()}, {@link #lastEntry}, {@link #findDuplicateBatch} and the other reads of the
 * producers. Safe from any thread without the lock: {@link #firstUnstableOffset()} (fetches bounding a
 * read_committed read), {@link #hasLateTransaction}, {@link #producerIdCount()} and the snapshot file lookups
 * ({@link #latestSnapshotOffset()}, {@link #oldestSnapshotOffset()}, {@link #snapshotFileForOffset},
 * {@link #fetchSnapshot}), which the remote log manager uses while the log appends.
 */
public final class ProducerStateManager {

    /** How much longer than the transaction timeout a transaction may stay open before it counts as late. */
    public static final long LATE_TRANSACTION_BUFFER_MS = 5 * 60 * 1000L;

    private static final System.Logger LOG = System.getLogger(ProducerStateManager.class.getName());

    private final TopicPartition topicPartition;
    private final int maxTransactionTimeoutMs;
    private final ProducerStateManagerConfig producerStateManagerConfig;
    private final Map<Long, ProducerStateEntry> producers = new HashMap<>();
    private final Map<Long, VerificationStateEntry> verificationStates = new HashMap<>();
    private final PartitionTransactions transactions = new PartitionTransactions();
    private final SnapshotFiles snapshots;
    private volatile int producerIdCount;
    private volatile long oldestTxnLastTimestamp = -1L;
    private long lastMapOffset;
    private long lastSnapOffset;

    /**
     * Producer state for a partition, knowing the snapshot files in {@code logDir} but not loading one yet
     * ({@link #truncateAndReload} does).
     *
     * @param topicPartition             the partition, for messages
     * @param logDir                     the partition's log directory
     * @param maxTransactionTimeoutMs    {@code transaction.max.timeout.ms}, for {@link #hasLateTransaction}
     * @param producerStateManagerConfig the broker's producer state settings
     */
    public ProducerStateManager(
            TopicPartition topicPartition,
            Path logDir,
            int maxTransactionTimeoutMs,
            ProducerStateManagerConfig producerStateManagerConfig)
            throws IOException {
        this.topicPartition = Objects.requireNonNull(topicPartition, "topicPartition");
        this.maxTransactionTimeoutMs = maxTransactionTimeoutMs;
        this.producerStateManagerConfig =
                Objects.requireNonNull(producerStateManagerConfig, "producerStateManagerConfig");
        this.snapshots = new SnapshotFiles(logDir);
    }

    /** {@code transaction.max.timeout.ms}. */
    public int maxTransactionTimeoutMs() {
        return maxTransactionTimeoutMs;
    }

    /** The broker's producer state settings. */
    public ProducerStateManagerConfig producerStateManagerConfig() {
        return producerStateManagerConfig;
    }

    /** Whether the oldest open transaction has been silent longer than the timeout allows a transaction to live. */
    public boolean hasLateTransaction(long currentTimeMs) {
        long lastTimestamp = oldestTxnLastTimestamp;
        return lastTimestamp > 0
                && currentTimeMs - lastTimestamp > maxTransactionTimeoutMs + LATE_TRANSACTION_BUFFER_MS;
    }

    /** The number of known producers. */
    public int producerIdCount() {
        return producerIdCount;
    }

    /** The known producers, by id; a read-only view. */
    public Map<Long, ProducerStateEntry> activeProducers() {
        return Collections.unmodifiableMap(producers);
    }

    /** The last batch and epoch of each known producer, which the cleaner keeps. */
    public Map<Long, LastRecord> lastRecordsOfActiveProducers() {
        Map<Long, LastRecord> lastRecords = new HashMap<>();
        producers.forEach((producerId, entry) -> lastRecords.put(
                producerId,
                new LastRecord(
                        entry.lastDataOffset() >= 0 ? OptionalLong.of(entry.lastDataOffset()) : OptionalLong.empty(),
                        entry.producerEpoch())));
        return lastRecords;
    }

    /** Whether no producer is known and no completed transaction awaits replication. */
    public boolean isEmpty() {
        return producers.isEmpty() && !transactions.hasUnreplicated();
    }

    /** The state of {@code producerId}, if known. */
    public Optional<ProducerStateEntry> lastEntry(long producerId) {
        return Optional.ofNullable(producers.get(producerId));
    }

    /**
     * The retained batch that {@code batch} retries, looked up before appending a client's batch: the log answers a
     * retry with that batch's offsets ({@link BatchMetadata#firstOffset()}, {@link BatchMetadata#lastOffset()})
     * instead of appending it again. Replicas and coordinators are not checked for retries, as in Kafka.
     */
    public Optional<BatchMetadata> findDuplicateBatch(ProducerBatch batch) {
        return lastEntry(batch.producerId()).flatMap(entry -> entry.findDuplicateBatch(batch));
    }

    /** Starts validating an append of {@code producerId}'s batches against its current state. */
    public ProducerAppendInfo prepareUpdate(long producerId, AppendOrigin origin) {
        ProducerStateEntry current = lastEntry(producerId).orElseGet(() -> ProducerStateEntry.empty(producerId));
        return new ProducerAppendInfo(topicPartition, producerId, current, origin);
    }

    /** Applies a validated append, once its batches are written. */
    public void update(ProducerAppendInfo appendInfo) {
        long producerId = appendInfo.producerId();
        if (producerId == ProducerBatch.NO_PRODUCER_ID) {
            throw new IllegalArgumentException(
                    "Invalid producer id " + producerId + " passed to update for partition " + topicPartition);
        }
        ProducerStateEntry updated = appendInfo.toEntry();
        ProducerStateEntry current = producers.get(producerId);
        if (current != null) {
            current.update(updated);
        } else {
            addProducer(updated);
        }
        appendInfo.startedTransactions().forEach(transactions::begin);
        updateOldestTxnTimestamp();
    }

    /** Adds a producer's state as read from a snapshot, with its open transaction. */
    public void loadProducerEntry(ProducerStateEntry entry) {
        addProducer(entry);
        entry.currentTxnFirstOffset()
                .ifPresent(offset -> transactions.begin(new TxnMetadata(entry.producerId(), offset)));
        updateOldestTxnTimestamp();
    }

    /** Records that the state covers the log up to {@code lastOffset}, exclusive. */
    public void updateMapEndOffset(long lastOffset) {
        lastMapOffset = lastOffset;
    }

    /** The offset up to which, exclusive, the state covers the log. */
    public long mapEndOffset() {
        return lastMapOffset;
    }

    /**
     * Forgets the producers without an open transaction that have been silent for the expiration time, and the
     * verifications begun that long ago.
     */
    public void removeExpiredProducers(long currentTimeMs) {
        producers.values().removeIf(entry -> isProducerExpired(currentTimeMs, entry));
        producerIdCount = producers.size();
        long expirationMs = producerStateManagerConfig.producerIdExpirationMs();
        verificationStates.values().removeIf(entry -> currentTimeMs - entry.timestamp() >= expirationMs);
    }

    // Verifications (KIP-890).

    /** Whether {@code producerId} has a transaction open in this partition at {@code epoch}. */
    public boolean hasOngoingTransaction(long producerId, short epoch) {
        ProducerStateEntry entry = producers.get(producerId);
        return entry != null && entry.currentTxnFirstOffset().isPresent() && entry.producerEpoch() == epoch;
    }

    /** The verification under way for {@code producerId}, begun now if none is. */
    public VerificationStateEntry maybeCreateVerificationStateEntry(
            long producerId, short epoch, boolean supportsEpochBump, long now) {
        return verificationStates.computeIfAbsent(
                producerId, id -> new VerificationStateEntry(now, epoch, supportsEpochBump));
    }

    /** The verification under way for {@code producerId}, if one is. */
    public Optional<VerificationStateEntry> verificationStateEntry(long producerId) {
        return Optional.ofNullable(verificationStates.get(producerId));
    }

    /** Ends the verification of {@code producerId}. */
    public void clearVerificationStateEntry(long producerId) {
        verificationStates.remove(producerId);
    }

    private boolean isProducerExpired(long currentTimeMs, ProducerStateEntry entry) {
        return entry.currentTxnFirstOffset().isEmpty()
                && currentTimeMs - entry.lastTimestamp() >= producerStateManagerConfig.producerIdExpirationMs();
    }

    private void addProducer(ProducerStateEntry entry) {
        producers.put(entry.producerId(), entry);
        producerIdCount = producers.size();
    }

    // Transactions.

    /**
     * The earliest offset that is not stable: in a transaction without a marker, or in one whose marker is above
     * the high watermark. The last stable offset is this, or the high watermark if there is none.
     */
    public Optional<LogOffsetMetadata> firstUnstableOffset() {
        return transactions.firstUnstableOffset();
    }

    /** The first offset of the earliest transaction without a marker, whatever the replication. */
    public OptionalLong firstUndecidedOffset() {
        return transactions.firstUndecidedOffset();
    }

    /** Lets the first unstable offset move past the transactions whose markers are below {@code highWatermark}. */
    public void onHighWatermarkUpdated(long highWatermark) {
        transactions.removeUnreplicatedBelow(highWatermark);
    }

    /**
     * The last stable offset once {@code completedTxn}'s marker is written, for its transaction index entry: the
     * first offset of the earliest other open transaction, or the offset after the marker.
     */
    public long lastStableOffset(CompletedTxn completedTxn) {
        return transactions
                .firstOngoingOfAnotherProducer(completedTxn.producerId())
                .map(txn -> txn.firstOffset().messageOffset())
                .orElse(completedTxn.lastOffset() + 1);
    }

    /**
     * Marks a transaction completed, after its transaction index entry is written; it stays unstable until the
     * high watermark passes its marker.
     *
     * @throws IllegalArgumentException if the transaction was not open
     */
    public void completeTxn(CompletedTxn completedTxn) {
        try {
            transactions.complete(completedTxn);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " on partition " + topicPartition, e);
        }
        updateOldestTxnTimestamp();
    }

    private void updateOldestTxnTimestamp() {
        oldestTxnLastTimestamp = transactions
                .oldestOngoing()
                .map(txn -> producers.get(txn.producerId()))
                .map(ProducerStateEntry::lastTimestamp)
                .orElse(-1L);
    }

    // Truncation and snapshots.

    /**
     * Truncates the state to the log's range: deletes the snapshots above {@code logEndOffset} or at or below
     * {@code logStartOffset}; if the state ends elsewhere than {@code logEndOffset}, forgets it and loads the
     * latest remaining snapshot (a corrupt one is deleted and the next older tried), dropping expired producers.
     * The log then rebuilds the rest from its batches, starting at {@link #mapEndOffset()}.
     */
    public void truncateAndReload(long logStartOffset, long logEndOffset, long currentTimeMs) throws IOException {
        for (SnapshotFile snapshot : snapshots.all()) {
            if (snapshot.offset() > logEndOffset || snapshot.offset() <= logStartOffset) {
                snapshots.removeAndDelete(snapshot.offset());
            }
        }
        if (logEndOffset != mapEndOffset()) {
            clearProducers();
            // The log end is at or below the high watermark here, so no completed transaction awaits replication.
            transactions.clear();
            updateOldestTxnTimestamp();
            loadFromSnapshot(logStartOffset, currentTimeMs);
        } else {
            onLogStartOffsetIncremented(logStartOffset);
        }
    }

    private void loadFromSnapshot(long logStartOffset, long currentTimeMs) throws IOException {
        while (true) {
            Optional<SnapshotFile> latest = snapshots.latest();
            if (latest.isEmpty()) {
                lastSnapOffset = logStartOffset;
                lastMapOffset = logStartOffset;
                return;
            }
            SnapshotFile snapshot = latest.get();
            try {
                List<ProducerStateEntry> entries = ProducerSnapshot.read(snapshot.file());
                entries.stream()
                        .filter(entry -> !isProducerExpired(currentTimeMs, entry))
                        .forEach(this::loadProducerEntry);
                lastSnapOffset = snapshot.offset();
                lastMapOffset = lastSnapOffset;
                updateOldestTxnTimestamp();
                return;
            } catch (CorruptSnapshotException e) {
                LOG.log(System.Logger.Level.WARNING, "Deleting it and trying an older one: " + e.getMessage());
                snapshots.removeAndDelete(snapshot.offset());
            }
        }
    }

    /** Forgets everything, deletes every snapshot, and starts again at {@code offset}. */
    public void truncateFullyAndStartAt(long offset) throws IOException {
        clearProducers();
        transactions.clear();
        snapshots.deleteAll();
        lastSnapOffset = 0L;
        lastMapOffset = offset;
        updateOldestTxnTimestamp();
    }

    /** Forgets everything and reads the directory's snapshot files again. */
    public void truncateFullyAndReloadSnapshots() throws IOException {
        truncateFullyAndStartAt(0L);
        snapshots.reload();
    }

    /**
     * Follows the log start moving up: forgets the completed transactions below it and moves the state's end up
     * to it if below. Keeps the producers, so in-memory and on-disk state may differ, as in Kafka.
     */
    public void onLogStartOffsetIncremented(long logStartOffset) {
        transactions.removeUnreplicatedBelow(logStartOffset);
        if (lastMapOffset < logStartOffset) {
            lastMapOffset = logStartOffset;
        }
        lastSnapOffset = latestSnapshotOffset().orElse(logStartOffset);
    }

    /**
     * Writes a snapshot at {@link #mapEndOffset()}, unless the latest snapshot taken or loaded is there already.
     * The file is written whole or not at all (temporary file, fsync, rename, directory fsync).
     *
     * @return the new snapshot file, if one was written
     */
    public Optional<Path> takeSnapshot() throws IOException {
        return takeSnapshot(true);
    }

    /**
     * {@link #takeSnapshot()}, with the fsyncs left to the caller when {@code sync} is false: a roll takes its
     * snapshot under the log's lock, where an fsync would hold produce requests back behind the disk (Kafka's
     * KAFKA-15046), and has the file flushed by {@link #flushSnapshot} in the background, before the recovery
     * point passes it.
     */
    public Optional<Path> takeSnapshot(boolean sync) throws IOException {
        if (lastMapOffset <= lastSnapOffset) {
            return Optional.empty();
        }
        Path file = LogFileUtils.producerSnapshotFile(snapshots.dir(), lastMapOffset);
        ProducerSnapshot.write(file, producers.values(), sync);
        snapshots.add(new SnapshotFile(file, lastMapOffset));
        lastSnapOffset = lastMapOffset;
        return Optional.of(file);
    }

    /** Forces a snapshot taken without sync, and its directory, to disk; nothing if it is gone meanwhile. */
    public static void flushSnapshot(Path file) throws IOException {
        ProducerSnapshot.flush(file);
    }

    /** The offset of the latest snapshot file. */
    public OptionalLong latestSnapshotOffset() {
        return snapshots.latest().map(s -> OptionalLong.of(s.offset())).orElseGet(OptionalLong::empty);
    }

    /** The offset of the oldest snapshot file. */
    public OptionalLong oldestSnapshotOffset() {
        return snapshots.oldest().map(s -> OptionalLong.of(s.offset())).orElseGet(OptionalLong::empty);
    }

    /** The snapshot file at exactly {@code offset}. */
    public Optional<SnapshotFile> snapshotFileForOffset(long offset) {
        return snapshots.get(offset);
    }

    /** The snapshot file at exactly {@code offset}, which tiered storage copies with the segment ending there. */
    public Optional<Path> fetchSnapshot(long offset) {
        return snapshots.get(offset).map(SnapshotFile::file);
    }

    /** Deletes the snapshot files below {@code offset}. */
    public void deleteSnapshotsBefore(long offset) throws IOException {
        snapshots.deleteBefore(offset);
    }

    /**
     * Forgets the snapshot at {@code snapshotOffset} and renames its file with {@link LogFileUtils#DELETED_FILE_SUFFIX}
     * for the log's delayed deletion.
     *
     * @return the renamed file, or empty if there was none or it was deleted already
     */
    public Optional<SnapshotFile> removeAndMarkSnapshotForDeletion(long snapshotOffset) throws IOException {
        return snapshots.removeAndMarkForDeletion(snapshotOffset);
    }

    /**
     * Deletes the snapshot files that belong to no segment, except the largest if it is above every segment's base
     * offset (written at a clean shutdown).
     */
    public void removeStraySnapshots(Collection<Long> segmentBaseOffsets) throws IOException {
        snapshots.removeStray(segmentBaseOffsets);
    }

    /** Follows the log directory's rename. */
    public void updateParentDir(Path parentDir) {
        snapshots.updateParentDir(parentDir);
    }

    /**
     * The entries of a snapshot file.
     *
     * @throws CorruptSnapshotException if the file is not a snapshot Kafka could have written
     */
    public static List<ProducerStateEntry> readSnapshot(Path file) throws IOException {
        return ProducerSnapshot.read(file);
    }

    /** Writes {@code entries} to a snapshot file, whole or not at all. */
    public static void writeSnapshot(Path file, Collection<ProducerStateEntry> entries) throws IOException {
        ProducerSnapshot.write(file, entries);
    }

    /** The snapshot files in {@code dir}, by ascending offset. */
    public static List<SnapshotFile> listSnapshotFiles(Path dir) throws IOException {
        return List.copyOf(SnapshotFiles.scan(dir).values());
    }

    private void clearProducers() {
        producers.clear();
        producerIdCount = 0;
    }
}
