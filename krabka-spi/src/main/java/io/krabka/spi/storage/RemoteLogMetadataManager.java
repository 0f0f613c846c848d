package io.krabka.spi.storage;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.plugin.Configurable;
import java.io.Closeable;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Keeps the metadata of the segments in the remote tier, in the shape of Kafka's
 * {@code RemoteLogMetadataManager} (KIP-405): which segment copies exist, in what state, covering which
 * offsets and leader epochs. Implementations are thread-safe.
 *
 * <p><b>Closing.</b> {@link #close()} is idempotent and may be called on an instance that was never configured.
 * After it, every other method but {@link #isReady} fails with {@link IllegalStateException}, as in Kafka's
 * {@code TopicBasedRemoteLogMetadataManager}: a lookup or a listing throws it, and a write throws it or returns a
 * future failed with it. A call after {@code close()} neither stores nor returns metadata. ({@code isReady} declares
 * no failure and its default cannot know the instance's state; after {@code close()} its answer means nothing.)
 *
 * <p><b>Interruption.</b> The broker may interrupt a thread inside a call, at shutdown or when a request times
 * out. An interrupted call either completes or fails with {@link RemoteStorageException}, and leaves the thread's
 * interrupt status set (keeping it, or restoring it where it caught an {@link InterruptedException}); it never
 * stores part of a write, and never breaks the instance for calls on other threads.
 *
 * <p><b>Custom metadata.</b> The manager stores a segment's custom metadata as opaque bytes and hands them back
 * unchanged; it never parses them.
 */
public interface RemoteLogMetadataManager extends Configurable, Closeable {

    /**
     * Records a segment whose copy is starting.
     *
     * @param remoteLogSegmentMetadata metadata in state {@link RemoteLogSegmentState#COPY_SEGMENT_STARTED}
     * @return completes when the metadata is stored
     * @throws IllegalArgumentException if the state is another one
     * @throws RemoteStorageException   if the metadata could not be stored
     * @throws IllegalStateException    if the instance is closed
     */
    CompletableFuture<Void> addRemoteLogSegmentMetadata(RemoteLogSegmentMetadata remoteLogSegmentMetadata)
            throws RemoteStorageException;

    /**
     * Records a change of state of a known segment.
     *
     * @param remoteLogSegmentMetadataUpdate the segment's new state, broker, event time and custom metadata
     * @return completes when the update is stored
     * @throws RemoteResourceNotFoundException if the segment is not known
     * @throws InvalidStateTransitionException if Kafka's lifecycle does not allow the new state
     * @throws RemoteStorageException          if the update could not be stored
     * @throws IllegalStateException           if the instance is closed
     */
    CompletableFuture<Void> updateRemoteLogSegmentMetadata(
            RemoteLogSegmentMetadataUpdate remoteLogSegmentMetadataUpdate) throws RemoteStorageException;

    /**
     * The readable segment ({@code COPY_SEGMENT_FINISHED}) that holds {@code offset} within leader epoch
     * {@code epochForOffset}, if any.
     *
     * @param topicIdPartition the partition
     * @param epochForOffset   the leader epoch the offset was written in
     * @param offset           the offset
     * @return the segment, or empty if no readable segment holds the offset
     * @throws RemoteStorageException if the lookup failed
     * @throws IllegalStateException  if the instance is closed
     */
    Optional<RemoteLogSegmentMetadata> remoteLogSegmentMetadata(
            TopicIdPartition topicIdPartition, int epochForOffset, long offset) throws RemoteStorageException;

    /**
     * The highest offset of {@code leaderEpoch} ever copied: the end of the last segment whose copy finished
     * within the epoch, kept after that segment is deleted, because the broker resumes copying after it.
     *
     * @param topicIdPartition the partition
     * @param leaderEpoch      the leader epoch
     * @return the offset, or empty if no copy of the epoch ever finished
     * @throws RemoteStorageException if the lookup failed
     * @throws IllegalStateException  if the instance is closed
     */
    Optional<Long> highestOffsetForEpoch(TopicIdPartition topicIdPartition, int leaderEpoch)
            throws RemoteStorageException;

    /**
     * Records a step in deleting a partition's remote data.
     *
     * @param remotePartitionDeleteMetadata the partition and the step
     * @return completes when the step is stored
     * @throws InvalidStateTransitionException if Kafka's lifecycle does not allow the step
     * @throws RemoteStorageException          if the step could not be stored
     * @throws IllegalStateException           if the instance is closed
     */
    CompletableFuture<Void> putRemotePartitionDeleteMetadata(
            RemotePartitionDeleteMetadata remotePartitionDeleteMetadata) throws RemoteStorageException;

    /**
     * Every segment of the partition in any state, in no particular order.
     *
     * @param topicIdPartition the partition
     * @return the segments
     * @throws RemoteResourceNotFoundException if the partition is not known, or its deletion has finished
     * @throws RemoteStorageException          if the listing failed
     * @throws IllegalStateException           if the instance is closed
     */
    Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition topicIdPartition)
            throws RemoteStorageException;

    /**
     * The segments of the partition that hold records of {@code leaderEpoch}, by ascending start offset: copies
     * started, finished and being deleted (every state but {@code DELETE_SEGMENT_FINISHED}), as Kafka lists them.
     * The caller filters on state.
     *
     * @param topicIdPartition the partition
     * @param leaderEpoch      the leader epoch
     * @return the segments, by ascending start offset
     * @throws RemoteResourceNotFoundException if the partition is not known
     * @throws RemoteStorageException          if the listing failed
     * @throws IllegalStateException           if the instance is closed
     */
    Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition topicIdPartition, int leaderEpoch)
            throws RemoteStorageException;

    /**
     * Tells the manager which partitions this broker now leads and which it follows, so it can load their
     * metadata.
     *
     * @param leaderPartitions   the partitions this broker now leads
     * @param followerPartitions the partitions this broker now follows
     * @throws IllegalStateException if the instance is closed
     */
    void onPartitionLeadershipChanges(Set<TopicIdPartition> leaderPartitions, Set<TopicIdPartition> followerPartitions);

    /**
     * Tells the manager that this broker no longer hosts these partitions, so it can drop their metadata.
     *
     * @param partitions the partitions this broker stopped hosting
     * @throws IllegalStateException if the instance is closed
     */
    void onStopPartitions(Set<TopicIdPartition> partitions);

    /**
     * The total size in bytes of the segments {@link #listRemoteLogSegments(TopicIdPartition, int)} lists.
     *
     * @param topicIdPartition the partition
     * @param leaderEpoch      the leader epoch
     * @return the sum of the segments' sizes, in bytes
     * @throws RemoteStorageException if the computation failed
     * @throws IllegalStateException  if the instance is closed
     */
    long remoteLogSize(TopicIdPartition topicIdPartition, int leaderEpoch) throws RemoteStorageException;

    /**
     * The first readable segment at or after {@code offset} within {@code epoch} whose transaction index is not
     * empty (KIP-1058). The default answers with the segment holding the offset, which is correct but lets a
     * transactional consumer read segments it could have skipped.
     *
     * @param topicIdPartition the partition
     * @param epoch            the leader epoch
     * @param offset           the offset to start looking at
     * @return the segment, or empty if there is none
     * @throws RemoteStorageException if the lookup failed
     * @throws IllegalStateException  if the instance is closed
     */
    default Optional<RemoteLogSegmentMetadata> nextSegmentWithTxnIndex(
            TopicIdPartition topicIdPartition, int epoch, long offset) throws RemoteStorageException {
        return remoteLogSegmentMetadata(topicIdPartition, epoch, offset);
    }

    /**
     * Whether the manager has loaded the partition's metadata and can answer for it.
     *
     * @param topicIdPartition the partition
     * @return true when it can answer; always true by default
     */
    default boolean isReady(TopicIdPartition topicIdPartition) {
        return true;
    }
}
