package io.krabka.spi.storage;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The local files of a rolled segment that a copy sends to the remote tier.
 *
 * @param logSegment            the {@code .log} file
 * @param offsetIndex           the {@code .index} file
 * @param timeIndex             the {@code .timeindex} file
 * @param transactionIndex      the {@code .txnindex} file, absent when the segment has no aborted transaction
 * @param producerSnapshotIndex the producer-state {@code .snapshot} taken at the next segment's base offset
 * @param leaderEpochIndex      the leader-epoch checkpoint, in Kafka's text format, from the log start to the end
 *                              of this segment; each call of the accessor returns an independent read-only view
 */
public record LogSegmentData(
        Path logSegment,
        Path offsetIndex,
        Path timeIndex,
        Optional<Path> transactionIndex,
        Path producerSnapshotIndex,
        ByteBuffer leaderEpochIndex) {

    /** Validates the parts and keeps a read-only view of the epoch bytes. */
    public LogSegmentData {
        Objects.requireNonNull(logSegment, "logSegment");
        Objects.requireNonNull(offsetIndex, "offsetIndex");
        Objects.requireNonNull(timeIndex, "timeIndex");
        Objects.requireNonNull(transactionIndex, "transactionIndex");
        Objects.requireNonNull(producerSnapshotIndex, "producerSnapshotIndex");
        leaderEpochIndex =
                Objects.requireNonNull(leaderEpochIndex, "leaderEpochIndex").asReadOnlyBuffer();
    }

    /** {@return a read-only view of the epoch bytes whose position the caller may move freely} */
    @Override
    public ByteBuffer leaderEpochIndex() {
        return leaderEpochIndex.duplicate();
    }
}
