package io.krabka.kernel.log;

import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * A log's high watermark and first unstable offset, as Kafka's {@code UnifiedLog} keeps them: offsets whose segment
 * and position are looked up once, when a read first needs them, and the last stable offset they give. Changes
 * run under the log's lock; reads of the offsets take none.
 */
final class LogWatermarks {

    private static final System.Logger LOG = System.getLogger(LogWatermarks.class.getName());

    private final Object lock;
    private final LocalLog localLog;
    private final ProducerStateManager producerStateManager;
    private final LongSupplier logStartOffset;
    private volatile LogOffsetMetadata highWatermarkMetadata;
    private volatile Optional<LogOffsetMetadata> firstUnstableOffsetMetadata = Optional.empty();

    /** Watermarks of {@code localLog} guarded by {@code lock}, the high watermark at the log start offset. */
    LogWatermarks(
            Object lock, LocalLog localLog, ProducerStateManager producerStateManager, LongSupplier logStartOffset) {
        this.lock = lock;
        this.localLog = localLog;
        this.producerStateManager = producerStateManager;
        this.logStartOffset = logStartOffset;
        this.highWatermarkMetadata = new LogOffsetMetadata(logStartOffset.getAsLong());
    }

    long highWatermark() {
        return highWatermarkMetadata.messageOffset();
    }

    /** Sets the high watermark, kept within [log start offset, log end offset]; returns the value set. */
    long updateHighWatermark(LogOffsetMetadata highWatermark) throws IOException {
        LogOffsetMetadata end = localLog.logEndOffsetMetadata();
        long start = logStartOffset.getAsLong();
        LogOffsetMetadata newHighWatermark = highWatermark.messageOffset() < start
                ? new LogOffsetMetadata(start)
                : highWatermark.messageOffset() >= end.messageOffset() ? end : highWatermark;
        updateHighWatermarkMetadata(newHighWatermark);
        return newHighWatermark.messageOffset();
    }

    /** Moves the high watermark up, or to the same offset in a newer segment; returns the old one if it moved. */
    Optional<LogOffsetMetadata> maybeIncrementHighWatermark(LogOffsetMetadata newHighWatermark) throws IOException {
        if (newHighWatermark.messageOffset() > localLog.logEndOffset()) {
            throw new IllegalArgumentException("High watermark " + newHighWatermark + " update exceeds current log "
                    + "end offset " + localLog.logEndOffsetMetadata());
        }
        synchronized (lock) {
            LogOffsetMetadata old = fetchHighWatermarkMetadata();
            boolean newerSegment = old.messageOffset() == newHighWatermark.messageOffset()
                    && !newHighWatermark.messageOffsetOnly()
                    && old.segmentBaseOffset() < newHighWatermark.segmentBaseOffset();
            if (old.messageOffset() < newHighWatermark.messageOffset() || newerSegment) {
                updateHighWatermarkMetadata(newHighWatermark);
                return Optional.of(old);
            }
            return Optional.empty();
        }
    }

    /** The high watermark with its position, looked up if not known yet. */
    LogOffsetMetadata fetchHighWatermarkMetadata() throws IOException {
        localLog.checkIfMemoryMappedBufferClosed();
        LogOffsetMetadata offsetMetadata = highWatermarkMetadata;
        if (!offsetMetadata.messageOffsetOnly()) {
            return offsetMetadata;
        }
        synchronized (lock) {
            LogOffsetMetadata full = maybeConvertToOffsetMetadata(highWatermark());
            updateHighWatermarkMetadata(full);
            return full;
        }
    }

    private void updateHighWatermarkMetadata(LogOffsetMetadata newHighWatermark) throws IOException {
        synchronized (lock) {
            if (newHighWatermark.messageOffset() < highWatermarkMetadata.messageOffset()) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "Non-monotonic update of high watermark of " + localLog.topicPartition() + " from "
                                + highWatermarkMetadata + " to " + newHighWatermark);
            }
            highWatermarkMetadata = newHighWatermark;
            producerStateManager.onHighWatermarkUpdated(newHighWatermark.messageOffset());
            maybeIncrementFirstUnstableOffset();
        }
    }

    /** After a truncation or a roll the high watermark may be past the end, or at the end in the old segment. */
    void updateHighWatermarkWithLogEndOffset() throws IOException {
        if (highWatermark() >= localLog.logEndOffset()) {
            updateHighWatermarkMetadata(localLog.logEndOffsetMetadata());
        }
    }

    OptionalLong firstUnstableOffset() {
        return firstUnstableOffsetMetadata
                .map(m -> OptionalLong.of(m.messageOffset()))
                .orElse(OptionalLong.empty());
    }

    long lastStableOffset() {
        Optional<LogOffsetMetadata> firstUnstable = firstUnstableOffsetMetadata;
        long highWatermark = highWatermark();
        return firstUnstable.isPresent() && firstUnstable.get().messageOffset() < highWatermark
                ? firstUnstable.get().messageOffset()
                : highWatermark;
    }

    /** The last stable offset with its position, looked up if not known yet. */
    LogOffsetMetadata fetchLastStableOffsetMetadata() throws IOException {
        localLog.checkIfMemoryMappedBufferClosed();
        LogOffsetMetadata highWatermark = fetchHighWatermarkMetadata();
        Optional<LogOffsetMetadata> firstUnstable = firstUnstableOffsetMetadata;
        if (firstUnstable.isEmpty() || firstUnstable.get().messageOffset() >= highWatermark.messageOffset()) {
            return highWatermark;
        }
        if (!firstUnstable.get().messageOffsetOnly()) {
            return firstUnstable.get();
        }
        synchronized (lock) {
            LogOffsetMetadata full =
                    maybeConvertToOffsetMetadata(firstUnstable.get().messageOffset());
            firstUnstableOffsetMetadata = Optional.of(full);
            return full;
        }
    }

    /**
     * Takes the producer state's first unstable offset, moved up to the log start offset (its transaction may
     * have been deleted) and given its position.
     */
    void maybeIncrementFirstUnstableOffset() throws IOException {
        synchronized (lock) {
            localLog.checkIfMemoryMappedBufferClosed();
            long start = logStartOffset.getAsLong();
            Optional<LogOffsetMetadata> updated = producerStateManager.firstUnstableOffset();
            if (updated.isPresent()
                    && (updated.get().messageOffsetOnly() || updated.get().messageOffset() < start)) {
                updated = Optional.of(
                        maybeConvertToOffsetMetadata(Math.max(updated.get().messageOffset(), start)));
            }
            firstUnstableOffsetMetadata = updated;
        }
    }

    /**
     * Where {@code offset} lies: the segment and position of the batch holding it (or of the first batch after it),
     * or only the offset if it is outside the local log. Unlike Kafka 4.4, which gives the batch's base offset
     * here, an offset inside a batch is kept, so that a high watermark inside a batch does not move back when its
     * position is looked up.
     */
    LogOffsetMetadata maybeConvertToOffsetMetadata(long offset) throws IOException {
        try {
            LogOffsetMetadata found = localLog.convertToOffsetMetadataOrThrow(offset);
            return found.messageOffset() < offset
                    ? new LogOffsetMetadata(offset, found.segmentBaseOffset(), found.relativePositionInSegment())
                    : found;
        } catch (OffsetOutOfRangeException e) {
            return new LogOffsetMetadata(offset);
        }
    }
}
