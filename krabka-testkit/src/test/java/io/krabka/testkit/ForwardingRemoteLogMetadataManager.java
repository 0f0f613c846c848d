package io.krabka.testkit;

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

/** Passes every call to another manager; a test overrides the one call it breaks. */
class ForwardingRemoteLogMetadataManager implements RemoteLogMetadataManager {

    final RemoteLogMetadataManager delegate;

    ForwardingRemoteLogMetadataManager(RemoteLogMetadataManager delegate) {
        this.delegate = delegate;
    }

    @Override
    public void configure(Map<String, ?> configs) {
        delegate.configure(configs);
    }

    @Override
    public CompletableFuture<Void> addRemoteLogSegmentMetadata(RemoteLogSegmentMetadata segment)
            throws RemoteStorageException {
        return delegate.addRemoteLogSegmentMetadata(segment);
    }

    @Override
    public CompletableFuture<Void> updateRemoteLogSegmentMetadata(RemoteLogSegmentMetadataUpdate update)
            throws RemoteStorageException {
        return delegate.updateRemoteLogSegmentMetadata(update);
    }

    @Override
    public Optional<RemoteLogSegmentMetadata> remoteLogSegmentMetadata(
            TopicIdPartition topicIdPartition, int epochForOffset, long offset) throws RemoteStorageException {
        return delegate.remoteLogSegmentMetadata(topicIdPartition, epochForOffset, offset);
    }

    @Override
    public Optional<Long> highestOffsetForEpoch(TopicIdPartition topicIdPartition, int leaderEpoch)
            throws RemoteStorageException {
        return delegate.highestOffsetForEpoch(topicIdPartition, leaderEpoch);
    }

    @Override
    public CompletableFuture<Void> putRemotePartitionDeleteMetadata(RemotePartitionDeleteMetadata deletion)
            throws RemoteStorageException {
        return delegate.putRemotePartitionDeleteMetadata(deletion);
    }

    @Override
    public Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition topicIdPartition)
            throws RemoteStorageException {
        return delegate.listRemoteLogSegments(topicIdPartition);
    }

    @Override
    public Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition topicIdPartition, int leaderEpoch)
            throws RemoteStorageException {
        return delegate.listRemoteLogSegments(topicIdPartition, leaderEpoch);
    }

    @Override
    public void onPartitionLeadershipChanges(
            Set<TopicIdPartition> leaderPartitions, Set<TopicIdPartition> followerPartitions) {
        delegate.onPartitionLeadershipChanges(leaderPartitions, followerPartitions);
    }

    @Override
    public void onStopPartitions(Set<TopicIdPartition> partitions) {
        delegate.onStopPartitions(partitions);
    }

    @Override
    public long remoteLogSize(TopicIdPartition topicIdPartition, int leaderEpoch) throws RemoteStorageException {
        return delegate.remoteLogSize(topicIdPartition, leaderEpoch);
    }

    @Override
    public Optional<RemoteLogSegmentMetadata> nextSegmentWithTxnIndex(
            TopicIdPartition topicIdPartition, int epoch, long offset) throws RemoteStorageException {
        return delegate.nextSegmentWithTxnIndex(topicIdPartition, epoch, offset);
    }

    @Override
    public boolean isReady(TopicIdPartition topicIdPartition) {
        return delegate.isReady(topicIdPartition);
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
