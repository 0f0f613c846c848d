package io.krabka.plugin.rlmm.inmemory;

import io.krabka.rlmm.cache.MetadataSnapshot;
import io.krabka.rlmm.cache.RemoteLogMetadataCache;
import io.krabka.rlmm.cache.RemotePartitionMetadataStore;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.storage.InvalidStateTransitionException;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A {@link RemoteLogMetadataManager} that keeps the metadata in memory and answers every lookup as Apache Kafka's
 * {@code RemoteLogMetadataCache} does. With {@code snapshot.path} set, the whole cache is loaded from a JSON
 * snapshot and the journal of the changes made after it when the manager is configured; every change is made
 * durable before its call returns (appended to the journal, which is compacted into the snapshot from time to time,
 * see {@link DurableMetadata}), and the whole cache is written to the snapshot when the manager is closed, so a
 * broker killed between two changes finds the first on its next start; {@link #writeSnapshot} and
 * {@link #loadSnapshot} write and read a snapshot in any file, for tools such as restore.
 *
 * <p>Thread-safe. Every future returned is already complete: a change is applied (and written) before the call
 * returns; a change applied but not written fails its future with a {@link RemoteStorageException}.
 *
 * <p>The instance is used in three phases: {@link #configure} once, then any calls, then {@link #close}. A call out
 * of that order throws {@link IllegalStateException}.
 */
public final class InMemoryRemoteLogMetadataManager implements RemoteLogMetadataManager {

    private final RemotePartitionMetadataStore store = new RemotePartitionMetadataStore();
    private volatile InMemoryRemoteLogMetadataManagerConfig config;
    // Null without a snapshot file; guarded by this.
    private DurableMetadata durable;
    private boolean snapshotWritten;

    /** A manager to be configured. */
    public InMemoryRemoteLogMetadataManager() {}

    /**
     * Applies the settings; loads the snapshot file if one is set and exists.
     *
     * @throws ConfigException       if a setting is invalid, or the snapshot file cannot be loaded (the cause says
     *                               why: an {@link InvalidSnapshotException} for a bad file)
     * @throws IllegalStateException if the manager is already configured
     */
    @Override
    public synchronized void configure(Map<String, ?> configs) {
        Objects.requireNonNull(configs, "configs");
        if (config != null) {
            throw new IllegalStateException("the remote log metadata manager is already configured");
        }
        InMemoryRemoteLogMetadataManagerConfig parsed = InMemoryRemoteLogMetadataManagerConfig.parse(configs);
        Optional<Path> snapshot = parsed.snapshotPath();
        if (snapshot.isPresent()) {
            DurableMetadata loaded = new DurableMetadata(snapshot.get());
            try {
                loaded.load(store);
                durable = loaded;
            } catch (IOException e) {
                ConfigException error = new ConfigException(
                        InMemoryRemoteLogMetadataManagerConfig.SNAPSHOT_PATH,
                        snapshot.get(),
                        "the snapshot cannot be loaded: " + e.getMessage());
                error.initCause(e);
                throw error;
            }
        }
        config = parsed;
    }

    /**
     * {@inheritDoc}
     *
     * @throws InvalidStateTransitionException if the segment is already known and past {@code COPY_SEGMENT_STARTED}
     */
    @Override
    public synchronized CompletableFuture<Void> addRemoteLogSegmentMetadata(
            RemoteLogSegmentMetadata remoteLogSegmentMetadata) {
        Objects.requireNonNull(remoteLogSegmentMetadata, "remoteLogSegmentMetadata");
        open().addCopyInProgressSegment(remoteLogSegmentMetadata);
        return persisted(new MetadataChange.AddSegment(remoteLogSegmentMetadata));
    }

    @Override
    public synchronized CompletableFuture<Void> updateRemoteLogSegmentMetadata(RemoteLogSegmentMetadataUpdate update)
            throws RemoteResourceNotFoundException {
        Objects.requireNonNull(update, "remoteLogSegmentMetadataUpdate");
        open().updateRemoteLogSegmentMetadata(update);
        return persisted(new MetadataChange.UpdateSegment(update));
    }

    /**
     * {@inheritDoc}
     *
     * @throws RemoteResourceNotFoundException if the partition is not known
     */
    @Override
    public Optional<RemoteLogSegmentMetadata> remoteLogSegmentMetadata(
            TopicIdPartition topicIdPartition, int epochForOffset, long offset) throws RemoteStorageException {
        return lookup(topicIdPartition, cache -> cache.remoteLogSegmentMetadata(epochForOffset, offset));
    }

    /**
     * {@inheritDoc} The highest offset an epoch reached stays when the segments holding it are deleted, as in Kafka.
     *
     * @throws RemoteResourceNotFoundException if the partition is not known
     */
    @Override
    public Optional<Long> highestOffsetForEpoch(TopicIdPartition topicIdPartition, int leaderEpoch)
            throws RemoteStorageException {
        return lookup(topicIdPartition, cache -> cache.highestOffsetForEpoch(leaderEpoch));
    }

    /** {@inheritDoc} {@code DELETE_PARTITION_FINISHED} forgets the partition: its segments and deletion state. */
    @Override
    public synchronized CompletableFuture<Void> putRemotePartitionDeleteMetadata(RemotePartitionDeleteMetadata step) {
        Objects.requireNonNull(step, "remotePartitionDeleteMetadata");
        open().putRemotePartitionDeleteMetadata(step);
        return persisted(new MetadataChange.PutPartitionDelete(step));
    }

    /**
     * Every tracked segment of the partition — copying, readable or being deleted — by start offset.
     *
     * @throws RemoteResourceNotFoundException if the partition is not known
     */
    @Override
    public Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition topicIdPartition)
            throws RemoteStorageException {
        return lookup(topicIdPartition, RemoteLogMetadataCache::listAllRemoteLogSegments)
                .iterator();
    }

    /**
     * The tracked segments of the partition that hold records of {@code leaderEpoch}, by start offset. As in Kafka,
     * these include segments still copying and segments being deleted, so that they can be cleaned up; only
     * deleted ones are left out.
     *
     * @throws RemoteResourceNotFoundException if the partition is not known
     */
    @Override
    public Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition topicIdPartition, int leaderEpoch)
            throws RemoteStorageException {
        return lookup(topicIdPartition, cache -> cache.listRemoteLogSegments(leaderEpoch))
                .iterator();
    }

    /** Makes the partitions known, as Kafka's topic-based manager loads them, so that lookups answer for them. */
    @Override
    public void onPartitionLeadershipChanges(
            Set<TopicIdPartition> leaderPartitions, Set<TopicIdPartition> followerPartitions) {
        Set<TopicIdPartition> partitions = new HashSet<>(leaderPartitions);
        partitions.addAll(followerPartitions);
        open().loadPartitions(partitions);
    }

    /**
     * Keeps the partitions' metadata. Kafka's topic-based manager drops its copy because the metadata topic still
     * holds it; here memory is the only copy, so dropping it would lose track of segments in the remote tier.
     */
    @Override
    public void onStopPartitions(Set<TopicIdPartition> partitions) {
        Objects.requireNonNull(partitions, "partitions");
        open().checkOpen();
    }

    /**
     * The total size of the segments {@link #listRemoteLogSegments(TopicIdPartition, int)} lists, as in Kafka: the
     * bytes the epoch occupies in the remote tier, copies under way and deletions under way included.
     *
     * @throws RemoteResourceNotFoundException if the partition is not known
     */
    @Override
    public long remoteLogSize(TopicIdPartition topicIdPartition, int leaderEpoch) throws RemoteStorageException {
        return lookup(
                topicIdPartition,
                cache -> cache.listRemoteLogSegments(leaderEpoch).stream()
                        .mapToLong(RemoteLogSegmentMetadata::segmentSizeInBytes)
                        .sum());
    }

    /**
     * The first segment with aborted transactions (KIP-1058) among the readable segments of {@code epoch} that
     * follow one another from the one holding {@code offset}; empty when the walk reaches a gap or the epoch's end
     * first, as Kafka's {@code RemoteLogMetadataCache} answers.
     *
     * @throws RemoteResourceNotFoundException if the partition is not known
     */
    @Override
    public Optional<RemoteLogSegmentMetadata> nextSegmentWithTxnIndex(
            TopicIdPartition topicIdPartition, int epoch, long offset) throws RemoteStorageException {
        return lookup(topicIdPartition, cache -> cache.nextSegmentWithTxnIndex(epoch, offset));
    }

    /**
     * Makes a change just applied durable, when there is a snapshot file. Called under this object's monitor, as
     * the change was applied, so that the journal holds the changes in the order they were made.
     */
    private CompletableFuture<Void> persisted(MetadataChange change) {
        if (durable != null) {
            try {
                durable.record(change, store::snapshot);
            } catch (IOException e) {
                return CompletableFuture.failedFuture(new RemoteStorageException(
                        "the change is in memory but the "
                                + "snapshot " + config.snapshotPath().orElseThrow()
                                + " or its journal could not be written: "
                                + e.getMessage(),
                        e));
            }
        }
        return CompletableFuture.completedFuture(null);
    }

    /** The partitions this manager knows, for instance those a loaded snapshot holds. */
    public Set<TopicIdPartition> partitions() {
        return open().partitions();
    }

    /**
     * Writes the whole cache, as it is at one instant, to {@code file} as a JSON snapshot, replacing the file all
     * at once.
     *
     * @throws IOException if the file cannot be written; a file already there is then left as it was
     */
    public void writeSnapshot(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        SnapshotFile.write(file, open().snapshot());
    }

    /**
     * Replaces the whole cache with the snapshot in {@code file}. A file that is not a valid snapshot changes nothing.
     *
     * @throws UnsupportedSnapshotVersionException if the file was written by a newer Krabka
     * @throws InvalidSnapshotException            if the file is not a valid snapshot
     * @throws IOException                         if the file cannot be read
     */
    public synchronized void loadSnapshot(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        MetadataSnapshot snapshot = SnapshotFile.read(file);
        open().restore(snapshot);
        if (durable != null) {
            // The journal follows the content replaced: the next change writes the new content whole.
            durable.restartAtNextChange();
        }
    }

    /**
     * Refuses every later call and, if {@code snapshot.path} is set, writes the final cache there. If the write
     * fails, calling {@code close} again retries it.
     *
     * @throws IOException if the snapshot cannot be written
     */
    @Override
    public synchronized void close() throws IOException {
        MetadataSnapshot last = store.close();
        if (durable != null && !snapshotWritten) {
            durable.close(last);
            snapshotWritten = true;
        }
    }

    private RemotePartitionMetadataStore open() {
        if (config == null) {
            throw new IllegalStateException("the remote log metadata manager is not configured yet");
        }
        return store;
    }

    private <T> T lookup(TopicIdPartition topicIdPartition, Function<RemoteLogMetadataCache, T> lookup)
            throws RemoteResourceNotFoundException {
        Objects.requireNonNull(topicIdPartition, "topicIdPartition");
        return open().read(topicIdPartition, lookup);
    }
}
