package io.krabka.kernel.plugin;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** A plugin's {@link RemoteLogMetadataManager} whose every call runs with the plugin's class loader as context. */
final class ClassLoaderAwareRemoteLogMetadataManager implements RemoteLogMetadataManager {
    private final RemoteLogMetadataManager delegate;
    private final ClassLoader loader;
    private final Owned owned;

    /** {@code delegate} wrapped; {@code owned} (its metrics) is closed after it. */
    ClassLoaderAwareRemoteLogMetadataManager(RemoteLogMetadataManager delegate, ClassLoader loader, Owned owned) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.loader = Objects.requireNonNull(loader, "loader");
        this.owned = Objects.requireNonNull(owned, "owned");
    }

    @Override
    public void configure(Map<String, ?> configs) {
        ContextClassLoader.run(loader, () -> delegate.configure(configs));
    }

    @Override
    public CompletableFuture<Void> addRemoteLogSegmentMetadata(RemoteLogSegmentMetadata remoteLogSegmentMetadata)
            throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.addRemoteLogSegmentMetadata(remoteLogSegmentMetadata));
    }

    @Override
    public CompletableFuture<Void> updateRemoteLogSegmentMetadata(
            RemoteLogSegmentMetadataUpdate remoteLogSegmentMetadataUpdate) throws RemoteStorageException {
        return ContextClassLoader.call(
                loader, () -> delegate.updateRemoteLogSegmentMetadata(remoteLogSegmentMetadataUpdate));
    }

    @Override
    public Optional<RemoteLogSegmentMetadata> remoteLogSegmentMetadata(
            TopicIdPartition topicIdPartition, int epochForOffset, long offset) throws RemoteStorageException {
        return ContextClassLoader.call(
                loader, () -> delegate.remoteLogSegmentMetadata(topicIdPartition, epochForOffset, offset));
    }

    @Override
    public Optional<Long> highestOffsetForEpoch(TopicIdPartition topicIdPartition, int leaderEpoch)
            throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.highestOffsetForEpoch(topicIdPartition, leaderEpoch));
    }

    @Override
    public CompletableFuture<Void> putRemotePartitionDeleteMetadata(
            RemotePartitionDeleteMetadata remotePartitionDeleteMetadata) throws RemoteStorageException {
        return ContextClassLoader.call(
                loader, () -> delegate.putRemotePartitionDeleteMetadata(remotePartitionDeleteMetadata));
    }

    @Override
    public Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition topicIdPartition)
            throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.listRemoteLogSegments(topicIdPartition));
    }

    @Override
    public Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition topicIdPartition, int leaderEpoch)
            throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.listRemoteLogSegments(topicIdPartition, leaderEpoch));
    }

    @Override
    public void onPartitionLeadershipChanges(
            Set<TopicIdPartition> leaderPartitions, Set<TopicIdPartition> followerPartitions) {
        ContextClassLoader.run(
                loader, () -> delegate.onPartitionLeadershipChanges(leaderPartitions, followerPartitions));
    }

    @Override
    public void onStopPartitions(Set<TopicIdPartition> partitions) {
        ContextClassLoader.run(loader, () -> delegate.onStopPartitions(partitions));
    }

    @Override
    public long remoteLogSize(TopicIdPartition topicIdPartition, int leaderEpoch) throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.remoteLogSize(topicIdPartition, leaderEpoch));
    }

    @Override
    public Optional<RemoteLogSegmentMetadata> nextSegmentWithTxnIndex(
            TopicIdPartition topicIdPartition, int epoch, long offset) throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.nextSegmentWithTxnIndex(topicIdPartition, epoch, offset));
    }

    @Override
    public boolean isReady(TopicIdPartition topicIdPartition) {
        return ContextClassLoader.call(loader, () -> delegate.isReady(topicIdPartition));
    }

    @Override
    public void close() throws IOException {
        try {
            ContextClassLoader.run(loader, delegate::close);
        } finally {
            owned.close();
        }
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
