package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import io.krabka.spi.storage.RemoteStorageException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.function.Executable;

/**
 * The broker's side of a metadata manager, as short steps a rule reads like a script: announce partitions, walk
 * segments through their states, ask what the manager answers. Every write waits for its future; every answer is
 * collected into a value that compares by content.
 */
final class MetadataScript {

    private static final AtomicInteger PARTITIONS = new AtomicInteger();

    private final RemoteLogMetadataManager rlmm;
    private final Duration timeout;
    private final Uuid topicId = Uuid.randomUuid();

    MetadataScript(RemoteLogMetadataManager rlmm, Duration timeout) {
        this.rlmm = rlmm;
        this.timeout = timeout;
    }

    /** The manager under test, for calls the script does not cover. */
    RemoteLogMetadataManager rlmm() {
        return rlmm;
    }

    /** How long a write may take. */
    Duration timeout() {
        return timeout;
    }

    /** A partition no rule has used, not yet announced to the manager. */
    TopicIdPartition unknownPartition() {
        return new TopicIdPartition(topicId, "kit.remote_log_metadata-1", PARTITIONS.getAndIncrement());
    }

    /** A partition no rule has used, announced as led by this broker and ready. */
    TopicIdPartition newPartition() {
        TopicIdPartition partition = unknownPartition();
        lead(partition);
        return partition;
    }

    /** Tells the manager this broker leads the partitions and waits until it is ready for each. */
    void lead(TopicIdPartition... partitions) {
        rlmm.onPartitionLeadershipChanges(Set.of(partitions), Set.of());
        awaitReady(partitions);
    }

    /** Tells the manager this broker follows the partitions and waits until it is ready for each. */
    void follow(TopicIdPartition... partitions) {
        rlmm.onPartitionLeadershipChanges(Set.of(), Set.of(partitions));
        awaitReady(partitions);
    }

    private void awaitReady(TopicIdPartition... partitions) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (TopicIdPartition partition : partitions) {
            while (!rlmm.isReady(partition)) {
                if (System.nanoTime() > deadline) {
                    fail("the manager was not ready for " + partition + " within " + timeout
                            + " of the leadership change");
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    fail("interrupted waiting for " + partition, e);
                }
            }
        }
    }

    /** Adds a segment whose copy starts; returns its metadata. */
    RemoteLogSegmentMetadata add(SegmentBuilder segment) {
        return add(segment.build());
    }

    /** Adds a segment whose copy starts; returns its metadata. */
    RemoteLogSegmentMetadata add(RemoteLogSegmentMetadata segment) {
        Calls.succeeds("adding " + describe(segment), timeout, () -> rlmm.addRemoteLogSegmentMetadata(segment));
        return segment;
    }

    /** Moves a segment to {@code state}; returns the metadata the manager must now hold. */
    RemoteLogSegmentMetadata advance(RemoteLogSegmentMetadata segment, RemoteLogSegmentState state) {
        return advance(segment, SegmentBuilder.update(segment, state));
    }

    /** Applies an update; returns the metadata the manager must now hold. */
    RemoteLogSegmentMetadata advance(RemoteLogSegmentMetadata segment, RemoteLogSegmentMetadataUpdate update) {
        Calls.succeeds(
                "moving " + describe(segment) + " to " + update.state(),
                timeout,
                () -> rlmm.updateRemoteLogSegmentMetadata(update));
        return segment.createWithUpdates(update);
    }

    /** Adds a segment and walks it along Kafka's usual path to {@code state}; returns what the manager holds. */
    RemoteLogSegmentMetadata inState(RemoteLogSegmentState state, SegmentBuilder segment) {
        return inState(state, segment.build());
    }

    /** Adds a segment and walks it along Kafka's usual path to {@code state}; returns what the manager holds. */
    RemoteLogSegmentMetadata inState(RemoteLogSegmentState state, RemoteLogSegmentMetadata segment) {
        RemoteLogSegmentMetadata current = add(segment);
        for (RemoteLogSegmentState next : RemoteLogSegmentState.values()) {
            if (next.id() > current.state().id() && next.id() <= state.id()) {
                current = advance(current, next);
            }
        }
        return current;
    }

    /** Adds a segment and finishes its copy; returns what the manager holds. */
    RemoteLogSegmentMetadata copied(SegmentBuilder segment) {
        return inState(RemoteLogSegmentState.COPY_SEGMENT_FINISHED, segment);
    }

    /** Records a step in deleting a partition. */
    void deletePartition(TopicIdPartition partition, RemotePartitionDeleteState state) {
        Calls.succeeds(
                "marking " + partition + " " + state,
                timeout,
                () -> rlmm.putRemotePartitionDeleteMetadata(deletion(partition, state)));
    }

    /** The metadata of a step in deleting a partition. */
    static RemotePartitionDeleteMetadata deletion(TopicIdPartition partition, RemotePartitionDeleteState state) {
        return new RemotePartitionDeleteMetadata(
                partition, state, System.currentTimeMillis(), SegmentBuilder.UPDATING_BROKER);
    }

    /** The readable segment holding {@code offset} of {@code epoch}. */
    Optional<RemoteLogSegmentMetadata> lookup(TopicIdPartition partition, int epoch, long offset)
            throws RemoteStorageException {
        Optional<RemoteLogSegmentMetadata> found = rlmm.remoteLogSegmentMetadata(partition, epoch, offset);
        assertNotNull(found, "remoteLogSegmentMetadata returned null instead of an Optional");
        return found;
    }

    /** Every segment of the partition, in the order the manager gave. */
    List<RemoteLogSegmentMetadata> list(TopicIdPartition partition) throws RemoteStorageException {
        return drain(rlmm.listRemoteLogSegments(partition));
    }

    /** The segments of the partition holding records of {@code epoch}, in the order the manager gave. */
    List<RemoteLogSegmentMetadata> list(TopicIdPartition partition, int epoch) throws RemoteStorageException {
        return drain(rlmm.listRemoteLogSegments(partition, epoch));
    }

    /** Checks that the lookup answers {@code expected}, or nothing if it is {@code null}. */
    Executable lookupIs(TopicIdPartition partition, int epoch, long offset, RemoteLogSegmentMetadata expected) {
        return () -> assertEquals(
                Optional.ofNullable(expected),
                lookup(partition, epoch, offset),
                "remoteLogSegmentMetadata(epoch " + epoch + ", offset " + offset + ")"
                        + (expected == null ? " must find nothing" : " must find " + describe(expected)));
    }

    /** Checks that {@code listRemoteLogSegments(partition)} holds exactly these segments, in any order. */
    Executable listIs(TopicIdPartition partition, RemoteLogSegmentMetadata... expected) {
        return () -> {
            List<RemoteLogSegmentMetadata> listed = list(partition);
            assertEquals(Set.of(expected), new HashSet<>(listed), "listRemoteLogSegments(partition)");
            assertEquals(expected.length, listed.size(), "listRemoteLogSegments(partition) lists a segment twice");
        };
    }

    /** Checks that {@code listRemoteLogSegments(partition, epoch)} is exactly these segments, in this order. */
    Executable listForEpochIs(TopicIdPartition partition, int epoch, RemoteLogSegmentMetadata... expected) {
        return () -> assertEquals(
                List.of(expected),
                list(partition, epoch),
                "listRemoteLogSegments(partition, epoch " + epoch + ") by ascending start offset");
    }

    /** Checks that {@code highestOffsetForEpoch} answers {@code expected}, or nothing if it is {@code null}. */
    Executable highestOffsetIs(TopicIdPartition partition, int epoch, Long expected) {
        return () -> assertEquals(
                Optional.ofNullable(expected),
                rlmm.highestOffsetForEpoch(partition, epoch),
                "highestOffsetForEpoch(epoch " + epoch + ")");
    }

    /** Checks that {@code nextSegmentWithTxnIndex} answers {@code expected}, or nothing if it is {@code null}. */
    Executable nextWithTxnIndexIs(
            TopicIdPartition partition, int epoch, long offset, RemoteLogSegmentMetadata expected) {
        return () -> assertEquals(
                Optional.ofNullable(expected),
                rlmm.nextSegmentWithTxnIndex(partition, epoch, offset),
                "nextSegmentWithTxnIndex(epoch " + epoch + ", offset " + offset + ")"
                        + (expected == null ? " must find nothing" : " must find " + describe(expected)));
    }

    /** A segment as a message names it: offsets, epochs and state. */
    static String describe(RemoteLogSegmentMetadata segment) {
        return "segment [" + segment.startOffset() + ", " + segment.endOffset() + "] of epochs "
                + segment.segmentLeaderEpochs() + " in " + segment.state();
    }

    /** The segments sorted by start offset, as a listing by epoch must give them. */
    static List<RemoteLogSegmentMetadata> byStartOffset(List<RemoteLogSegmentMetadata> segments) {
        List<RemoteLogSegmentMetadata> sorted = new ArrayList<>(segments);
        sorted.sort(Comparator.comparingLong(RemoteLogSegmentMetadata::startOffset));
        return sorted;
    }

    private static List<RemoteLogSegmentMetadata> drain(Iterator<RemoteLogSegmentMetadata> segments) {
        assertNotNull(segments, "listRemoteLogSegments returned null instead of an iterator");
        List<RemoteLogSegmentMetadata> drained = new ArrayList<>();
        segments.forEachRemaining(drained::add);
        return drained;
    }
}
