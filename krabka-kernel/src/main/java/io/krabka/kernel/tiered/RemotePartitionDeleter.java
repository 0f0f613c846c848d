package io.krabka.kernel.tiered;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import io.krabka.spi.storage.RemoteStorageException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;

/**
 * Deletes everything a partition has in the remote tier, through Kafka's partition-delete lifecycle:
 * {@code DELETE_PARTITION_MARKED → DELETE_PARTITION_STARTED →} every segment deleted ({@link RemoteLogSegmentDeleter})
 * {@code → DELETE_PARTITION_FINISHED}. Used when a tiered topic is deleted, and when {@code remote.storage.enable}
 * is turned off with {@code remote.log.delete.on.disable} (KIP-950). A failed attempt is retried: each call goes on
 * from the last state it stored (a state may be stored again, but never moved back).
 */
final class RemotePartitionDeleter {

    private static final System.Logger LOG = System.getLogger(RemotePartitionDeleter.class.getName());

    private final TopicIdPartition topicIdPartition;
    private final RemoteLogMetadataManager rlmm;
    private final RemoteLogSegmentDeleter deleter;
    private final int brokerId;
    private final InstantSource time;
    private RemotePartitionDeleteState stored;

    RemotePartitionDeleter(
            TopicIdPartition topicIdPartition,
            RemoteLogMetadataManager rlmm,
            RemoteLogSegmentDeleter deleter,
            int brokerId,
            InstantSource time) {
        this.topicIdPartition = topicIdPartition;
        this.rlmm = rlmm;
        this.deleter = deleter;
        this.brokerId = brokerId;
        this.time = time;
    }

    /** The partition. */
    TopicIdPartition topicIdPartition() {
        return topicIdPartition;
    }

    /**
     * Runs (or goes on with) the deletion.
     *
     * @throws RemoteStorageException if a manager fails; calling again goes on
     */
    synchronized void delete() throws RemoteStorageException {
        if (stored == null) {
            put(RemotePartitionDeleteState.DELETE_PARTITION_MARKED);
        }
        if (stored == RemotePartitionDeleteState.DELETE_PARTITION_MARKED) {
            put(RemotePartitionDeleteState.DELETE_PARTITION_STARTED);
        }
        if (stored == RemotePartitionDeleteState.DELETE_PARTITION_STARTED) {
            List<RemoteLogSegmentMetadata> segments = new ArrayList<>();
            rlmm.listRemoteLogSegments(topicIdPartition).forEachRemaining(segments::add);
            for (RemoteLogSegmentMetadata segment : segments) {
                deleter.delete(segment);
            }
            put(RemotePartitionDeleteState.DELETE_PARTITION_FINISHED);
            LOG.log(
                    System.Logger.Level.INFO,
                    (deleter.writeOnce() ? "Left the write-once archive's " : "Deleted the ") + segments.size()
                            + " remote segments of " + topicIdPartition);
        }
    }

    /** Whether the deletion finished. */
    synchronized boolean isFinished() {
        return stored == RemotePartitionDeleteState.DELETE_PARTITION_FINISHED;
    }

    private void put(RemotePartitionDeleteState state) throws RemoteStorageException {
        RemoteLogSegmentDeleter.await(
                rlmm.putRemotePartitionDeleteMetadata(
                        new RemotePartitionDeleteMetadata(topicIdPartition, state, time.millis(), brokerId)),
                state + " of " + topicIdPartition);
        stored = state;
    }
}
