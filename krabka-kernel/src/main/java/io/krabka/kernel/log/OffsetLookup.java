package io.krabka.kernel.log;

import io.krabka.kernel.log.checkpoint.EpochEntry;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Kafka's ListOffsets answers for a log: {@code UnifiedLog.fetchOffsetByTimestamp}, local part. The special
 * timestamps are Kafka's {@code ListOffsetsRequest} values.
 */
public final class OffsetLookup {

    /** The latest offset: the log end offset. */
    public static final long LATEST_TIMESTAMP = -1L;

    /** The earliest offset: the log start offset. */
    public static final long EARLIEST_TIMESTAMP = -2L;

    /** The record with the largest timestamp (KIP-734). */
    public static final long MAX_TIMESTAMP = -3L;

    /** The earliest offset on local disk; the log start offset while nothing is tiered (KIP-405, v8). */
    public static final long EARLIEST_LOCAL_TIMESTAMP = -4L;

    /** The highest offset in the remote tier (KIP-1005, v9); offset and epoch -1 while nothing is tiered. */
    public static final long LATEST_TIERED_TIMESTAMP = -5L;

    /** The earliest offset not yet in the remote tier (KIP-1023); none while nothing is tiered. */
    public static final long EARLIEST_PENDING_UPLOAD_TIMESTAMP = -6L;

    private static final TimestampAndOffset NOT_TIERED =
            new TimestampAndOffset(RecordBatch.NO_TIMESTAMP, -1L, OptionalInt.of(-1));

    private OffsetLookup() {}

    /**
     * The answer for {@code targetTimestamp}: a special timestamp's offset, or the first record at or after the
     * timestamp (searched from the first segment whose largest timestamp reaches it).
     */
    static Optional<TimestampAndOffset> fetchOffsetByTimestamp(UnifiedLog log, long targetTimestamp)
            throws IOException {
        long logStartOffset = log.logStartOffset();
        LeaderEpochFileCache epochs = log.leaderEpochCache();
        if (targetTimestamp == EARLIEST_TIMESTAMP) {
            // The first epoch usually starts at the log start offset, but not in a log that began before epochs.
            Optional<EpochEntry> earliest = epochs.earliestEntry();
            OptionalInt epoch = earliest.isPresent() && earliest.get().startOffset() <= logStartOffset
                    ? OptionalInt.of(earliest.get().epoch())
                    : OptionalInt.empty();
            return Optional.of(new TimestampAndOffset(RecordBatch.NO_TIMESTAMP, logStartOffset, epoch));
        }
        if (targetTimestamp == EARLIEST_LOCAL_TIMESTAMP) {
            long localLogStartOffset = log.localLogStartOffset();
            return Optional.of(new TimestampAndOffset(
                    RecordBatch.NO_TIMESTAMP, localLogStartOffset, epochs.epochForOffset(localLogStartOffset)));
        }
        if (targetTimestamp == LATEST_TIMESTAMP) {
            return Optional.of(
                    new TimestampAndOffset(RecordBatch.NO_TIMESTAMP, log.logEndOffset(), epochs.latestEpoch()));
        }
        if (targetTimestamp == LATEST_TIERED_TIMESTAMP) {
            // Only a tiered log's copies move the highest remote offset off -1.
            long highestRemoteOffset = log.highestOffsetInRemoteStorage();
            return Optional.of(
                    highestRemoteOffset < 0
                            ? NOT_TIERED
                            : new TimestampAndOffset(
                                    RecordBatch.NO_TIMESTAMP,
                                    highestRemoteOffset,
                                    epochs.epochForOffset(highestRemoteOffset)));
        }
        if (targetTimestamp == EARLIEST_PENDING_UPLOAD_TIMESTAMP) {
            return Optional.of(NOT_TIERED);
        }
        List<LogSegment> segments = log.logSegments();
        if (targetTimestamp == MAX_TIMESTAMP) {
            return maxTimestamp(segments, log.config().maxDecompressedMessageBytes());
        }
        for (LogSegment segment : segments) {
            if (segment.largestTimestamp() >= targetTimestamp) {
                return segment.findOffsetByTimestamp(
                        targetTimestamp, logStartOffset, log.config().maxDecompressedMessageBytes());
            }
        }
        return Optional.empty();
    }

    // The segment with the largest timestamp (the first such), then the first batch there with that max timestamp.
    private static Optional<TimestampAndOffset> maxTimestamp(List<LogSegment> segments, long maxDecompressedBytes)
            throws IOException {
        LogSegment latest = null;
        for (LogSegment segment : segments) {
            if (latest == null || segment.maxTimestampSoFar() > latest.maxTimestampSoFar()) {
                latest = segment;
            }
        }
        if (latest == null) {
            return Optional.empty();
        }
        TimestampOffset max = latest.readMaxTimestampAndOffsetSoFar();
        int position = latest.offsetIndex().lookup(max.offset()).position();
        for (FileChannelBatch batch : latest.log().batchesFrom(position)) {
            if (batch.maxTimestamp() == max.timestamp()) {
                OptionalInt epoch = batch.partitionLeaderEpoch() >= 0
                        ? OptionalInt.of(batch.partitionLeaderEpoch())
                        : OptionalInt.empty();
                return offsetOfMaxTimestamp(batch.loadFullBatch(), maxDecompressedBytes)
                        .map(offset -> new TimestampAndOffset(batch.maxTimestamp(), offset, epoch));
            }
        }
        return Optional.empty();
    }

    // Kafka's RecordBatch.offsetOfMaxTimestamp: the first record carrying the batch's max timestamp; none in v0.
    private static Optional<Long> offsetOfMaxTimestamp(LogBatch batch, long maxDecompressedBytes) {
        if (batch.magic() == 0) {
            return Optional.empty();
        }
        for (Record record : batch.records(maxDecompressedBytes)) {
            if (record.timestamp() == batch.maxTimestamp()) {
                return Optional.of(record.offset());
            }
        }
        return Optional.empty();
    }
}
