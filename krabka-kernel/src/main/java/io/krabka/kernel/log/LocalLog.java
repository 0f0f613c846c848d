package io.krabka.kernel.log;

import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.scheduler.Scheduler;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A partition's log on local disk, Kafka's {@code LocalLog}: its segments, the log end offset and where it lies,
 * the recovery point (the first offset not yet flushed), appends to the active segment, rolls, reads across
 * segments, truncation, and segment deletion (files renamed with {@code .deleted} at once and removed
 * {@code file.delete.delay.ms} later, so readers that found a segment may finish reading it).
 *
 * <p>Threads: {@link UnifiedLog} calls every method that changes the log under its lock; reads and the offset
 * accessors need none, as the end offset is published after the bytes it covers.
 */
public final class LocalLog {

    private static final System.Logger LOG = System.getLogger(LocalLog.class.getName());

    private final LogSegments segments;
    private final Scheduler scheduler;
    private final InstantSource time;
    private final TopicPartition topicPartition;
    private final AtomicLong lastFlushedTime;
    private volatile Path dir;
    private volatile LogConfig config;
    private volatile long recoveryPoint;
    private volatile LogOffsetMetadata nextOffsetMetadata;
    private volatile boolean isMemoryMappedBufferClosed;

    /**
     * A log over loaded segments.
     *
     * @param dir                the partition directory
     * @param segments           the segments, at least one
     * @param recoveryPoint      the first offset not known to be flushed
     * @param nextOffsetMetadata where the next append goes
     * @param scheduler          runs the delayed file deletions
     * @param time               the clock of flushes and segment ages
     */
    public LocalLog(
            Path dir,
            LogConfig config,
            LogSegments segments,
            long recoveryPoint,
            LogOffsetMetadata nextOffsetMetadata,
            Scheduler scheduler,
            InstantSource time,
            TopicPartition topicPartition) {
        this.dir = Objects.requireNonNull(dir, "dir");
        this.config = Objects.requireNonNull(config, "config");
        this.segments = Objects.requireNonNull(segments, "segments");
        this.recoveryPoint = recoveryPoint;
        this.nextOffsetMetadata = Objects.requireNonNull(nextOffsetMetadata, "nextOffsetMetadata");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.time = Objects.requireNonNull(time, "time");
        this.topicPartition = Objects.requireNonNull(topicPartition, "topicPartition");
        this.lastFlushedTime = new AtomicLong(time.millis());
    }

    /** The partition directory. */
    public Path dir() {
        return dir;
    }

    /** The topic's settings. */
    public LogConfig config() {
        return config;
    }

    /** The segments. */
    public LogSegments segments() {
        return segments;
    }

    /** The scheduler of delayed deletions. */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** The clock. */
    public InstantSource time() {
        return time;
    }

    /** The partition. */
    public TopicPartition topicPartition() {
        return topicPartition;
    }

    /** The first offset not known to be flushed: where recovery starts after an unclean shutdown. */
    public long recoveryPoint() {
        return recoveryPoint;
    }

    /** Takes the topic's new settings; they apply from the next append, roll or deletion. */
    public void updateConfig(LogConfig newConfig) {
        config = Objects.requireNonNull(newConfig, "newConfig");
    }

    /**
     * Renames the partition directory to {@code name} in the same log directory, atomically and durably.
     *
     * @return whether the name changed
     */
    public boolean renameDir(String name) throws IOException {
        Path renamed = dir.resolveSibling(name);
        if (renamed.equals(dir)) {
            return false;
        }
        Files.move(dir, renamed, StandardCopyOption.ATOMIC_MOVE);
        Fsync.forceDirectory(renamed.toAbsolutePath().getParent());
        dir = renamed;
        segments.updateParentDir(renamed);
        return true;
    }

    /**
     * Fails if the log's files were closed.
     *
     * @throws KafkaStorageException if they were
     */
    public void checkIfMemoryMappedBufferClosed() {
        if (isMemoryMappedBufferClosed) {
            throw new KafkaStorageException(
                    "The memory mapped buffer for log of " + topicPartition + " is already closed");
        }
    }

    /** Sets the recovery point. */
    public void updateRecoveryPoint(long newRecoveryPoint) {
        recoveryPoint = newRecoveryPoint;
    }

    /** Moves the recovery point up to {@code offset} after a flush, and notes the time. */
    public void markFlushed(long offset) {
        checkIfMemoryMappedBufferClosed();
        if (offset > recoveryPoint) {
            updateRecoveryPoint(offset);
            lastFlushedTime.set(time.millis());
        }
    }

    /** The number of offsets appended since the last flush. */
    public long unflushedMessages() {
        return logEndOffset() - recoveryPoint;
    }

    /**
     * Flushes the segments holding offsets from the recovery point up to {@code offset} (exclusive), and the
     * directory if a segment among them is new; the recovery point is the caller's to move.
     */
    public void flush(long offset) throws IOException {
        long currentRecoveryPoint = recoveryPoint;
        if (currentRecoveryPoint > offset) {
            return;
        }
        Collection<LogSegment> toFlush = List.copyOf(segments.values(currentRecoveryPoint, offset));
        for (LogSegment segment : toFlush) {
            segment.flush();
        }
        if (toFlush.stream().anyMatch(segment -> segment.baseOffset() >= currentRecoveryPoint) && Files.exists(dir)) {
            Fsync.forceDirectory(dir);
        }
    }

    /** When the log was last flushed up to its end, in milliseconds. */
    public long lastFlushTime() {
        return lastFlushedTime.get();
    }

    /** The offset the next append gets, with its segment and position. */
    public LogOffsetMetadata logEndOffsetMetadata() {
        return nextOffsetMetadata;
    }

    /** The offset the next append gets. */
    public long logEndOffset() {
        return nextOffsetMetadata.messageOffset();
    }

    /** Sets the end offset, at the end of the active segment; the recovery point stays at or below it. */
    public void updateLogEndOffset(long endOffset) {
        LogSegment active = segments.activeSegment();
        nextOffsetMetadata = new LogOffsetMetadata(endOffset, active.baseOffset(), active.size());
        if (recoveryPoint > endOffset) {
            updateRecoveryPoint(endOffset);
        }
    }

    /** Closes the files without writing to them: for a disk that failed. */
    public void closeHandlers() throws IOException {
        isMemoryMappedBufferClosed = true;
        segments.closeHandlers();
    }

    /** Closes the segments, trimming the active one's files; later use fails with {@link KafkaStorageException}. */
    public void close() throws IOException {
        checkIfMemoryMappedBufferClosed();
        isMemoryMappedBufferClosed = true;
        segments.close();
    }

    /**
     * Deletes the partition directory and whatever is left in it, at once.
     *
     * @throws IllegalStateException if segments remain or the files are still open
     */
    public void deleteEmptyDir() throws IOException {
        if (!segments.isEmpty()) {
            throw new IllegalStateException(
                    "Can not delete directory when " + segments.numberOfSegments() + " segments are still present");
        }
        if (!isMemoryMappedBufferClosed) {
            throw new IllegalStateException("Can not delete directory when memory mapped buffer for log of "
                    + topicPartition + " is still open.");
        }
        deleteRecursively(dir);
    }

    /** Deletes every segment at once; the log's files are closed after. */
    public List<LogSegment> deleteAllSegments() throws IOException {
        List<LogSegment> deleted = List.copyOf(segments.values());
        removeAndDeleteSegments(deleted, false);
        isMemoryMappedBufferClosed = true;
        return deleted;
    }

    /**
     * Removes the segments from the log and deletes their files: renamed with {@code .deleted} now, removed now or,
     * with {@code asyncDelete}, after {@code file.delete.delay.ms}.
     */
    public void removeAndDeleteSegments(Collection<LogSegment> segmentsToDelete, boolean asyncDelete)
            throws IOException {
        if (segmentsToDelete.isEmpty()) {
            return;
        }
        List<LogSegment> toDelete = List.copyOf(segmentsToDelete);
        toDelete.forEach(segment -> segments.remove(segment.baseOffset()));
        deleteSegmentFiles(toDelete, asyncDelete, topicPartition, config, scheduler);
    }

    /**
     * Replaces {@code segmentToDelete} by a new empty segment at {@code newOffset}, so that the log always has an
     * active segment, and deletes the old one's files.
     */
    public LogSegment createAndDeleteSegment(long newOffset, LogSegment segmentToDelete, boolean asyncDelete)
            throws IOException {
        if (newOffset == segmentToDelete.baseOffset()) {
            segmentToDelete.changeFileSuffixes("", LogFileUtils.DELETED_FILE_SUFFIX);
        }
        LogSegment newSegment = newSegment(dir, newOffset, config, time);
        segments.add(newSegment);
        if (newOffset != segmentToDelete.baseOffset()) {
            segments.remove(segmentToDelete.baseOffset());
        }
        deleteSegmentFiles(List.of(segmentToDelete), asyncDelete, topicPartition, config, scheduler);
        return newSegment;
    }

    /**
     * Puts {@code newSegments}, written with the {@code .cleaned} suffix, in the place of {@code oldSegments}, as
     * Kafka's {@code replaceSegments}, in steps a crash may interrupt anywhere: the new segments' files are renamed
     * {@code .swap} (the last segment first) and the directory flushed; they enter the log; the old ones leave it
     * and are renamed {@code .deleted}, to be deleted after {@code file.delete.delay.ms} (a reader that found one may
     * finish with it); the new files lose {@code .swap}; the directory is flushed. Loading after a crash deletes
     * {@code .cleaned} files (the old segments stand as they were), completes the swap of {@code .swap} files
     * (deleting the segments they cover) and deletes {@code .deleted} ones ({@link LeftoverFiles}). Old segments no
     * longer in the log (a truncation took them) are left alone. Krabka flushes the directory after the
     * {@code .swap} renames too, which Kafka does not, so that no crash shows the old segments renamed without the
     * new ones in place.
     *
     * @return the old segments whose base offset no new segment took: their producer snapshots may go
     */
    public List<LogSegment> replaceSegments(List<LogSegment> newSegments, List<LogSegment> oldSegments)
            throws IOException {
        List<LogSegment> sortedNew = newSegments.stream()
                .sorted(Comparator.comparingLong(LogSegment::baseOffset))
                .toList();
        List<LogSegment> sortedOld = oldSegments.stream()
                .filter(segment -> segments.get(segment.baseOffset())
                        .filter(segment::equals)
                        .isPresent())
                .sorted(Comparator.comparingLong(LogSegment::baseOffset))
                .toList();
        for (LogSegment segment : sortedNew.reversed()) {
            segment.changeFileSuffixes(LogFileUtils.CLEANED_FILE_SUFFIX, LogFileUtils.SWAP_FILE_SUFFIX);
        }
        Fsync.forceDirectory(dir);
        sortedNew.reversed().forEach(segments::add);
        Set<Long> newBaseOffsets =
                sortedNew.stream().map(LogSegment::baseOffset).collect(Collectors.toSet());
        List<LogSegment> notReplaced = new ArrayList<>();
        for (LogSegment segment : sortedOld) {
            if (segment.baseOffset() != sortedNew.getFirst().baseOffset()) {
                segments.remove(segment.baseOffset());
            }
            deleteSegmentFiles(List.of(segment), true, topicPartition, config, scheduler);
            if (!newBaseOffsets.contains(segment.baseOffset())) {
                notReplaced.add(segment);
            }
        }
        for (LogSegment segment : sortedNew) {
            segment.changeFileSuffixes(LogFileUtils.SWAP_FILE_SUFFIX, "");
        }
        Fsync.forceDirectory(dir);
        return notReplaced;
    }

    /**
     * Where {@code offset} lies: the batch holding it, or the log end.
     *
     * @throws OffsetOutOfRangeException if the offset is past the log end or before the first segment
     */
    public LogOffsetMetadata convertToOffsetMetadataOrThrow(long offset) throws IOException {
        return read(offset, 1, false, nextOffsetMetadata, false).fetchOffsetMetadata();
    }

    /**
     * Reads from the batch holding {@code startOffset} on, as Kafka's {@code LocalLog.read}: at most
     * {@code maxLength} bytes (the first batch whole when {@code minOneMessage}), nothing at or past
     * {@code maxOffsetMetadata} (the high watermark or last stable offset), moving on to the next segment when a
     * segment holds nothing at or above the offset.
     *
     * @param includeAbortedTxns whether to list the aborted transactions overlapping the records (read_committed)
     * @throws OffsetOutOfRangeException if {@code startOffset} is past the log end or before the first segment
     */
    public FetchDataInfo read(
            long startOffset,
            int maxLength,
            boolean minOneMessage,
            LogOffsetMetadata maxOffsetMetadata,
            boolean includeAbortedTxns)
            throws IOException {
        LogOffsetMetadata endOffsetMetadata = nextOffsetMetadata;
        long endOffset = endOffsetMetadata.messageOffset();
        Optional<LogSegment> segment = segments.floorSegment(startOffset);
        if (startOffset > endOffset || segment.isEmpty()) {
            throw new OffsetOutOfRangeException("Received request for offset " + startOffset + " for partition "
                    + topicPartition + ", but we only have log segments upto " + endOffset + ".");
        }
        if (startOffset == maxOffsetMetadata.messageOffset()) {
            return emptyFetchDataInfo(maxOffsetMetadata, includeAbortedTxns);
        }
        if (startOffset > maxOffsetMetadata.messageOffset()) {
            return emptyFetchDataInfo(convertToOffsetMetadataOrThrow(startOffset), includeAbortedTxns);
        }
        while (segment.isPresent()) {
            LogSegment current = segment.get();
            Optional<FetchDataInfo> info =
                    current.read(startOffset, maxLength, maxPosition(current, maxOffsetMetadata), minOneMessage);
            if (info.isPresent()) {
                return includeAbortedTxns
                        ? AbortedTransactions.add(segments, startOffset, current, info.get(), logEndOffset())
                        : info.get();
            }
            segment = segments.higherSegment(current.baseOffset());
        }
        // Every offset from startOffset on is gone (a segment deleted under the read): nothing up to the end.
        return new FetchDataInfo(nextOffsetMetadata, BufferRecords.EMPTY);
    }

    // Kafka's rule: a segment before the bound's is read to its end, the bound's up to the bound's position, and a
    // bound without a position (or in an earlier segment) allows no bytes.
    private static OptionalLong maxPosition(LogSegment segment, LogOffsetMetadata maxOffsetMetadata) {
        if (segment.baseOffset() < maxOffsetMetadata.segmentBaseOffset()) {
            return OptionalLong.of(segment.size());
        }
        if (segment.baseOffset() == maxOffsetMetadata.segmentBaseOffset() && !maxOffsetMetadata.messageOffsetOnly()) {
            return OptionalLong.of(maxOffsetMetadata.relativePositionInSegment());
        }
        return OptionalLong.empty();
    }

    private static FetchDataInfo emptyFetchDataInfo(LogOffsetMetadata fetchOffsetMetadata, boolean includeAbortedTxns) {
        return new FetchDataInfo(
                fetchOffsetMetadata,
                BufferRecords.EMPTY,
                false,
                includeAbortedTxns ? Optional.of(List.of()) : Optional.empty());
    }

    /** Appends batches whose offsets are assigned, the last being {@code lastOffset}, to the active segment. */
    public void append(long lastOffset, MemoryRecords records) throws IOException {
        segments.activeSegment().append(lastOffset, records);
        updateLogEndOffset(lastOffset + 1);
    }

    /**
     * The aborted transactions overlapping [{@code startOffset}, {@code upperBoundOffset}), from the segment holding
     * {@code baseOffset} on.
     */
    public List<AbortedTxn> collectAbortedTransactions(long startOffset, long baseOffset, long upperBoundOffset) {
        return segments.floorSegment(baseOffset)
                .map(segment -> AbortedTransactions.collect(segments, startOffset, upperBoundOffset, segment))
                .orElse(List.of());
    }

    /**
     * Makes a new active segment at the larger of {@code expectedNextOffset} and the log end offset, as Kafka's
     * {@code roll}: the old one's indexes are trimmed; an empty active segment already at that offset (rolled
     * because an index with no room was "full") is replaced.
     *
     * @throws IllegalStateException if a segment at that offset exists and is not an empty active one, or the
     *                               offset is below the active segment's
     */
    public LogSegment roll(long expectedNextOffset) throws IOException {
        checkIfMemoryMappedBufferClosed();
        long newOffset = Math.max(expectedNextOffset, logEndOffset());
        LogSegment activeSegment = segments.activeSegment();
        LogSegment newSegment;
        if (segments.contains(newOffset)) {
            if (activeSegment.baseOffset() != newOffset || activeSegment.size() != 0) {
                throw new IllegalStateException("Trying to roll a new log segment for topic partition "
                        + topicPartition + " with start offset " + newOffset + " =max(provided offset = "
                        + expectedNextOffset + ", LEO = " + logEndOffset() + ") while it already exists. Existing "
                        + "segment is " + segments.get(newOffset).orElseThrow() + ".");
            }
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Trying to roll a new log segment with start offset " + newOffset
                            + " while it already exists and is active with size 0 in " + topicPartition
                            + "; replacing it");
            newSegment = createAndDeleteSegment(newOffset, activeSegment, true);
        } else {
            if (newOffset < activeSegment.baseOffset()) {
                throw new IllegalStateException("Trying to roll a new log segment for topic partition "
                        + topicPartition + " with start offset " + newOffset + " =max(provided offset = "
                        + expectedNextOffset + ", LEO = " + logEndOffset() + ") lower than start offset of the "
                        + "active segment " + activeSegment);
            }
            // Leftovers of a segment deleted at this offset before (a truncation) would be appended to.
            LogSegment.deleteIfExists(dir, newOffset, "");
            activeSegment.onBecomeInactiveSegment();
            newSegment = newSegment(dir, newOffset, config, time);
            segments.add(newSegment);
        }
        updateLogEndOffset(nextOffsetMetadata.messageOffset());
        LOG.log(System.Logger.Level.INFO, "Rolled new log segment at offset " + newOffset + " in " + topicPartition);
        return newSegment;
    }

    /**
     * Deletes every segment and starts the log empty at {@code newOffset}.
     *
     * @return the segments deleted
     */
    public List<LogSegment> truncateFullyAndStartAt(long newOffset) throws IOException {
        checkIfMemoryMappedBufferClosed();
        List<LogSegment> toDelete = List.copyOf(segments.values());
        removeAndDeleteSegments(toDelete.subList(0, toDelete.size() - 1), true);
        createAndDeleteSegment(newOffset, toDelete.getLast(), true);
        updateLogEndOffset(newOffset);
        return toDelete;
    }

    /**
     * Removes every batch at or above {@code targetOffset}: later segments are deleted and the one holding it cut.
     *
     * @return the segments deleted
     */
    public Collection<LogSegment> truncateTo(long targetOffset) throws IOException {
        List<LogSegment> deletable = segments.filter(segment -> segment.baseOffset() > targetOffset);
        removeAndDeleteSegments(deletable, true);
        segments.activeSegment().truncateTo(targetOffset);
        updateLogEndOffset(targetOffset);
        return deletable;
    }

    /** A new segment at {@code baseOffset} with the topic's settings: Kafka's {@code LogSegment.open(dir, ..., config)}. */
    static LogSegment newSegment(Path dir, long baseOffset, LogConfig config, InstantSource time) throws IOException {
        return LogSegment.open(
                dir, baseOffset, SegmentConfig.from(config), time, config.initFileSize(), config.preallocate());
    }

    /**
     * Deletes segments' files as Kafka's {@code deleteSegmentFiles}: renamed with {@code .deleted} at once (unless
     * they are), then deleted, at once or after {@code file.delete.delay.ms}. Readers that found a segment before
     * may go on reading it until then.
     */
    static void deleteSegmentFiles(
            Collection<LogSegment> segmentsToDelete,
            boolean asyncDelete,
            TopicPartition topicPartition,
            LogConfig config,
            Scheduler scheduler)
            throws IOException {
        for (LogSegment segment : segmentsToDelete) {
            if (!segment.hasSuffix(LogFileUtils.DELETED_FILE_SUFFIX)) {
                segment.changeFileSuffixes("", LogFileUtils.DELETED_FILE_SUFFIX);
            }
        }
        List<LogSegment> toDelete = new ArrayList<>(segmentsToDelete);
        if (!asyncDelete) {
            deleteFiles(toDelete);
            return;
        }
        scheduler.scheduleOnce(
                "delete-file",
                () -> {
                    try {
                        deleteFiles(toDelete);
                    } catch (IOException e) {
                        LOG.log(System.Logger.Level.ERROR, "Error while deleting segments for " + topicPartition, e);
                    }
                },
                config.fileDeleteDelayMs());
    }

    private static void deleteFiles(List<LogSegment> segments) throws IOException {
        LOG.log(System.Logger.Level.INFO, "Deleting segment files " + segments);
        for (LogSegment segment : segments) {
            segment.deleteIfExists();
        }
    }

    /** Deletes {@code dir} (a directory or a file) and everything in it, deepest first. */
    public static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    @Override
    public String toString() {
        return "LocalLog(" + topicPartition + ", dir=" + dir + ", logEndOffset=" + logEndOffset() + ")";
    }
}
