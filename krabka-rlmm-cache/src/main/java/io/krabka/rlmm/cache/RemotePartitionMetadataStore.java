package io.krabka.rlmm.cache;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.InvalidStateTransitionException;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * The remote log metadata of every partition, and the deletion state of the partitions being deleted.
 *
 * <p>Changes take one write lock and lookups share a read lock. Kafka's topic-based manager likewise applies every
 * change on one consumer thread; a change is a few map operations, and one lock makes every change to a partition
 * (one per epoch of a segment, plus its deletion state) atomic to lookups and to snapshots, which see the whole
 * store at one instant.
 *
 * <p>A partition is known once a segment of it is added, once the broker names it in a leadership change (as
 * Kafka's topic-based manager loads it then), or once its deletion is marked. Lookups on an unknown partition throw
 * {@link RemoteResourceNotFoundException}, as Kafka's managers do; deleting a partition to the end forgets it.
 */
public final class RemotePartitionMetadataStore {

    private static final Comparator<TopicIdPartition> PARTITION_ORDER = Comparator.comparing(TopicIdPartition::topic)
            .thenComparingInt(TopicIdPartition::partition)
            .thenComparing(TopicIdPartition::topicId);

    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<TopicIdPartition, RemoteLogMetadataCache> caches = new HashMap<>();
    // Only partitions that are in caches, and only while their deletion is under way.
    private final Map<TopicIdPartition, RemotePartitionDeleteMetadata> deletions = new HashMap<>();
    private boolean closed;

    /** An empty, open store. */
    public RemotePartitionMetadataStore() {}

    /** See {@link RemoteLogMetadataCache#addCopyInProgressSegment}; a refused segment leaves no partition behind. */
    public void addCopyInProgressSegment(RemoteLogSegmentMetadata segment) {
        write(() -> {
            RemoteLogMetadataCache cache = caches.get(segment.topicIdPartition());
            if (cache == null) {
                RemoteLogMetadataCache created = new RemoteLogMetadataCache();
                created.addCopyInProgressSegment(segment);
                caches.put(segment.topicIdPartition(), created);
            } else {
                cache.addCopyInProgressSegment(segment);
            }
        });
    }

    /** See {@link RemoteLogMetadataCache#updateRemoteLogSegmentMetadata}; an unknown partition is not found either. */
    public void updateRemoteLogSegmentMetadata(RemoteLogSegmentMetadataUpdate update)
            throws RemoteResourceNotFoundException {
        Lock writeLock = writeLock();
        try {
            RemoteLogMetadataCache cache = caches.get(update.topicIdPartition());
            if (cache == null) {
                throw new RemoteResourceNotFoundException("no remote log metadata for partition "
                        + update.topicIdPartition() + ", so none for segment " + update.remoteLogSegmentId());
            }
            cache.updateRemoteLogSegmentMetadata(update);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Records a step of a partition's deletion. {@code DELETE_PARTITION_FINISHED} forgets the partition: its
     * segments and its deletion state.
     *
     * @throws InvalidStateTransitionException if Kafka's lifecycle does not allow the step
     */
    public void putRemotePartitionDeleteMetadata(RemotePartitionDeleteMetadata step) {
        write(() -> {
            TopicIdPartition partition = step.topicIdPartition();
            RemotePartitionDeleteMetadata current = deletions.get(partition);
            RemotePartitionDeleteState from = current == null ? null : current.state();
            if (!RemotePartitionDeleteState.isValidTransition(from, step.state())) {
                throw new InvalidStateTransitionException("deletion of remote partition " + partition
                        + " cannot go from " + (from == null ? "not deleting" : from) + " to " + step.state());
            }
            if (step.state() == RemotePartitionDeleteState.DELETE_PARTITION_FINISHED) {
                caches.remove(partition);
                deletions.remove(partition);
            } else {
                cache(partition);
                deletions.put(partition, step);
            }
        });
    }

    /** Makes the partitions known, so that lookups on them answer rather than throw. */
    public void loadPartitions(Set<TopicIdPartition> partitions) {
        write(() -> partitions.forEach(this::cache));
    }

    /**
     * Answers a lookup from the partition's cache.
     *
     * @throws RemoteResourceNotFoundException if the partition is not known
     */
    public <T> T read(TopicIdPartition partition, Function<RemoteLogMetadataCache, T> lookup)
            throws RemoteResourceNotFoundException {
        Lock readLock = readLock();
        try {
            RemoteLogMetadataCache cache = caches.get(partition);
            if (cache == null) {
                throw new RemoteResourceNotFoundException("no remote log metadata for partition " + partition);
            }
            return lookup.apply(cache);
        } finally {
            readLock.unlock();
        }
    }

    /** @throws IllegalStateException if the store is closed */
    public void checkOpen() {
        readLock().unlock();
    }

    /** The known partitions. */
    public Set<TopicIdPartition> partitions() {
        Lock readLock = readLock();
        try {
            return Set.copyOf(caches.keySet());
        } finally {
            readLock.unlock();
        }
    }

    /** Everything in the store at one instant, partitions in name order. */
    public MetadataSnapshot snapshot() {
        Lock readLock = readLock();
        try {
            return content();
        } finally {
            readLock.unlock();
        }
    }

    /** Replaces everything in the store with what the snapshot holds. */
    public void restore(MetadataSnapshot snapshot) {
        write(() -> {
            caches.clear();
            deletions.clear();
            for (PartitionSnapshot partition : snapshot.partitions()) {
                caches.put(partition.topicIdPartition(), RemoteLogMetadataCache.restore(partition));
                partition.deleteMetadata().ifPresent(step -> deletions.put(partition.topicIdPartition(), step));
            }
        });
    }

    /** Refuses every later call and returns the final content; calling it again returns the same content. */
    public MetadataSnapshot close() {
        Lock writeLock = lock.writeLock();
        writeLock.lock();
        try {
            closed = true;
            return content();
        } finally {
            writeLock.unlock();
        }
    }

    private MetadataSnapshot content() {
        return new MetadataSnapshot(caches.keySet().stream()
                .sorted(PARTITION_ORDER)
                .map(partition ->
                        caches.get(partition).snapshot(partition, Optional.ofNullable(deletions.get(partition))))
                .toList());
    }

    private RemoteLogMetadataCache cache(TopicIdPartition partition) {
        return caches.computeIfAbsent(partition, key -> new RemoteLogMetadataCache());
    }

    private void write(Runnable change) {
        Lock writeLock = writeLock();
        try {
            change.run();
        } finally {
            writeLock.unlock();
        }
    }

    private Lock writeLock() {
        return acquireOpen(lock.writeLock());
    }

    private Lock readLock() {
        return acquireOpen(lock.readLock());
    }

    private Lock acquireOpen(Lock acquired) {
        acquired.lock();
        if (closed) {
            acquired.unlock();
            throw new IllegalStateException("the remote log metadata manager is closed");
        }
        return acquired;
    }
}
