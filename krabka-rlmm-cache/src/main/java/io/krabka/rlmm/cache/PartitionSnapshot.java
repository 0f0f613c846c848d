package io.krabka.rlmm.cache;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The remote log metadata of one partition, as a value: its segments, the state of each leader epoch, and how far
 * the deletion of the partition has come. The constructor checks that these agree with each other, so that a
 * snapshot read from disk cannot put the cache in a state its own operations could never reach.
 *
 * @param topicIdPartition the partition
 * @param deleteMetadata   the latest step of the partition's deletion, if it is being deleted
 * @param segments         every tracked segment; none is {@code DELETE_SEGMENT_FINISHED}, which is dropped
 * @param leaderEpochs     the state of every leader epoch the partition has tracked
 */
public record PartitionSnapshot(
        TopicIdPartition topicIdPartition,
        Optional<RemotePartitionDeleteMetadata> deleteMetadata,
        List<RemoteLogSegmentMetadata> segments,
        List<LeaderEpochSnapshot> leaderEpochs) {

    /** Checks that segments, epochs and deletion state agree, and freezes the lists. */
    public PartitionSnapshot {
        Objects.requireNonNull(topicIdPartition, "topicIdPartition");
        Objects.requireNonNull(deleteMetadata, "deleteMetadata");
        segments = List.copyOf(segments);
        leaderEpochs = List.copyOf(leaderEpochs);
        deleteMetadata.ifPresent(delete -> {
            if (!delete.topicIdPartition().equals(topicIdPartition)) {
                throw new IllegalArgumentException(
                        "deletion state of " + delete.topicIdPartition() + " filed under " + topicIdPartition);
            }
        });
        Map<RemoteLogSegmentId, RemoteLogSegmentMetadata> byId = segmentsById(topicIdPartition, segments);
        Map<Integer, LeaderEpochSnapshot> byEpoch = new HashMap<>();
        for (LeaderEpochSnapshot epoch : leaderEpochs) {
            if (byEpoch.put(epoch.epoch(), epoch) != null) {
                throw new IllegalArgumentException("leader epoch " + epoch.epoch() + " appears twice");
            }
            checkEpochAgainstSegments(epoch, byId);
        }
        for (RemoteLogSegmentMetadata segment : segments) {
            for (int epoch : segment.segmentLeaderEpochs().keySet()) {
                LeaderEpochSnapshot state = byEpoch.get(epoch);
                RemoteLogSegmentId id = segment.remoteLogSegmentId();
                if (state == null
                        || !(state.referenced().containsValue(id)
                                || state.unreferenced().contains(id))) {
                    throw new IllegalArgumentException("segment " + id.id() + " holds leader epoch " + epoch
                            + " but that epoch does not track it");
                }
            }
        }
    }

    private static Map<RemoteLogSegmentId, RemoteLogSegmentMetadata> segmentsById(
            TopicIdPartition topicIdPartition, List<RemoteLogSegmentMetadata> segments) {
        Map<RemoteLogSegmentId, RemoteLogSegmentMetadata> byId = new HashMap<>();
        for (RemoteLogSegmentMetadata segment : segments) {
            RemoteLogSegmentId id = segment.remoteLogSegmentId();
            if (!id.topicIdPartition().equals(topicIdPartition)) {
                throw new IllegalArgumentException(
                        "segment " + id.id() + " of " + id.topicIdPartition() + " filed under " + topicIdPartition);
            }
            if (segment.state() == RemoteLogSegmentState.DELETE_SEGMENT_FINISHED) {
                throw new IllegalArgumentException(
                        "segment " + id.id() + " is " + segment.state() + "; deleted segments are not kept");
            }
            if (byId.put(id, segment) != null) {
                throw new IllegalArgumentException("segment " + id.id() + " appears twice");
            }
        }
        return byId;
    }

    private static void checkEpochAgainstSegments(
            LeaderEpochSnapshot epoch, Map<RemoteLogSegmentId, RemoteLogSegmentMetadata> byId) {
        epoch.referenced().forEach((startOffset, id) -> {
            RemoteLogSegmentMetadata segment = segmentOfEpoch(epoch.epoch(), id, byId);
            if (segment.state() != RemoteLogSegmentState.COPY_SEGMENT_FINISHED) {
                throw new IllegalArgumentException("epoch " + epoch.epoch() + " references segment " + id.id()
                        + " which is " + segment.state() + ", not readable");
            }
            if (!startOffset.equals(segment.segmentLeaderEpochs().get(epoch.epoch()))) {
                throw new IllegalArgumentException("epoch " + epoch.epoch() + " references segment " + id.id()
                        + " at offset " + startOffset + " but the epoch starts at "
                        + segment.segmentLeaderEpochs().get(epoch.epoch()) + " in it");
            }
        });
        epoch.unreferenced().forEach(id -> segmentOfEpoch(epoch.epoch(), id, byId));
    }

    private static RemoteLogSegmentMetadata segmentOfEpoch(
            int epoch, RemoteLogSegmentId id, Map<RemoteLogSegmentId, RemoteLogSegmentMetadata> byId) {
        RemoteLogSegmentMetadata segment = byId.get(id);
        if (segment == null) {
            throw new IllegalArgumentException("epoch " + epoch + " tracks unknown segment " + id.id());
        }
        if (!segment.segmentLeaderEpochs().containsKey(epoch)) {
            throw new IllegalArgumentException(
                    "epoch " + epoch + " tracks segment " + id.id() + " which holds no records of that epoch");
        }
        return segment;
    }
}
