package io.krabka.kernel.tiered;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The real metadata manager, not ready for any partition until the test says so: as Kafka's topic-based manager
 * while it still reads its topic (KIP-1105's {@code isReady}), which the in-memory one never is.
 */
final class SlowStartRemoteLogMetadataManager implements RemoteLogMetadataManager {

    private final RemoteLogMetadataManager delegate;
    private volatile boolean ready;

    SlowStartRemoteLogMetadataManager(RemoteLogMetadataManager delegate) {
        this.delegate = delegate;
    }

    void becomeReady() {
        ready = true;
    }

    @Override
    public boolean isReady(TopicIdPartition topicIdPartition) {
        return ready && delegate.isReady(topicIdPartition);
    }

    @Override
    public CompletableFuture<Void> addRemoteLogSegmentMetadata(RemoteLogSegmentMetadata metadata)
            throws RemoteStorageException {
        return delegate.addRemoteLogSegmentMetadata(metadata);
    }

    @Override
    public CompletableFuture<Void> updateRemoteLogSegmentMetadata(RemoteLogSegmentMetadataUpdate update)
            throws RemoteStorageException {
        return delegate.updateRemoteLogSegmentMetadata(update);
    }

    @Override
    public Optional<RemoteLogSegmentMetadata> remoteLogSegmentMetadata(
            TopicIdPartition tp, int epochForOffset, long offset) throws RemoteStorageException {
        return delegate.remoteLogSegmentMetadata(tp, epochForOffset, offset);
    }

    @Override
    public Optional<Long> highestOffsetForEpoch(TopicIdPartition tp, int leaderEpoch) throws RemoteStorageException {
        return delegate.highestOffsetForEpoch(tp, leaderEpoch);
    }

    @Override
    public CompletableFuture<Void> putRemotePartitionDeleteMetadata(RemotePartitionDeleteMetadata metadata)
            throws RemoteStorageException {
        return delegate.putRemotePartitionDeleteMetadata(metadata);
    }

    @Override
    public Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition tp) throws RemoteStorageException {
        return delegate.listRemoteLogSegments(tp);
    }

    @Override
    public Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition tp, int leaderEpoch)
            throws RemoteStorageException {
        return delegate.listRemoteLogSegments(tp, leaderEpoch);
    }

    @Override
    public void onPartitionLeadershipChanges(Set<TopicIdPartition> leaders, Set<TopicIdPartition> followers) {
        delegate.onPartitionLeadershipChanges(leaders, followers);
    }

    @Override
    public void onStopPartitions(Set<TopicIdPartition> partitions) {
        delegate.onStopPartitions(partitions);
    }

    @Override
    public long remoteLogSize(TopicIdPartition tp, int leaderEpoch) throws RemoteStorageException {
        return delegate.remoteLogSize(tp, leaderEpoch);
    }

    @Override
    public void configure(Map<String, ?> configs) {
        delegate.configure(configs);
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
