package io.krabka.kernel.log;

import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.scheduler.Scheduler;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Opens a partition directory, Kafka's {@code LogLoader}: removes what interrupted operations left
 * ({@link LeftoverFiles}), loads every segment, rebuilds a segment whose offset or time index is missing or fails
 * its sanity check, and, after an unclean shutdown (no {@code .kafka_cleanshutdown}), recovers every segment from
 * the recovery point on: each batch read and checked, the first torn or invalid one cut with everything after it
 * (later segments deleted), indexes rebuilt. Then the leader epochs are cut to the log's range and the producer
 * state rebuilt from the latest snapshot. After a clean shutdown the files are trusted as they are.
 *
 * <p>Used once, before the log is shared; fills the segments, epoch cache and producer state it is given.
 */
public final class LogLoader {

    private static final System.Logger LOG = System.getLogger(LogLoader.class.getName());

    private final Path dir;
    private final TopicPartition topicPartition;
    private final LogConfig config;
    private final Scheduler scheduler;
    private final InstantSource time;
    private final boolean hadCleanShutdown;
    private final LogSegments segments;
    private final long logStartOffsetCheckpoint;
    private final long recoveryPointCheckpoint;
    private final LeaderEpochFileCache leaderEpochCache;
    private final ProducerStateManager producerStateManager;
    private final boolean remoteLogEnabled;
    private final List<Long> recoveredSegments = new ArrayList<>();

    /**
     * A loader of the log in {@code dir}.
     *
     * @param hadCleanShutdown         whether the log directory held the clean shutdown marker
     * @param segments                 where the segments go; empty
     * @param logStartOffsetCheckpoint the log start offset last checkpointed, or 0
     * @param recoveryPointCheckpoint  the recovery point last checkpointed, or 0
     * @param leaderEpochCache         the partition's epochs, fixed up to the loaded log
     * @param producerStateManager     the partition's producer state, empty, rebuilt to the log end
     * @param remoteLogEnabled         whether the log is tiered: its start then stays as checkpointed, below the
     *                                 first local segment when the remote tier holds the offsets between
     */
    public LogLoader(
            Path dir,
            TopicPartition topicPartition,
            LogConfig config,
            Scheduler scheduler,
            InstantSource time,
            boolean hadCleanShutdown,
            LogSegments segments,
            long logStartOffsetCheckpoint,
            long recoveryPointCheckpoint,
            LeaderEpochFileCache leaderEpochCache,
            ProducerStateManager producerStateManager,
            boolean remoteLogEnabled) {
        this.dir = Objects.requireNonNull(dir, "dir");
        this.topicPartition = Objects.requireNonNull(topicPartition, "topicPartition");
        this.config = Objects.requireNonNull(config, "config");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.time = Objects.requireNonNull(time, "time");
        this.hadCleanShutdown = hadCleanShutdown;
        this.segments = Objects.requireNonNull(segments, "segments");
        this.logStartOffsetCheckpoint = logStartOffsetCheckpoint;
        this.recoveryPointCheckpoint = recoveryPointCheckpoint;
        this.leaderEpochCache = Objects.requireNonNull(leaderEpochCache, "leaderEpochCache");
        this.producerStateManager = Objects.requireNonNull(producerStateManager, "producerStateManager");
        this.remoteLogEnabled = remoteLogEnabled;
    }

    /**
     * Loads the log.
     *
     * @throws LogSegmentOffsetOverflowException if a segment holds offsets its indexes cannot (a log of a Kafka
     *                                           before 0.11 with such a segment is not split)
     */
    public LoadedLogOffsets load() throws IOException {
        LeftoverFiles.clean(dir);
        loadSegmentFiles();
        long recoveryPoint;
        long nextOffset;
        if (LogDirNames.isDeleteDir(dir)) {
            // A log being deleted is only opened to be deleted: no recovery.
            if (segments.isEmpty()) {
                segments.add(LogSegment.open(dir, 0, SegmentConfig.from(config), time, config.initFileSize(), false));
            }
            nextOffset = segments.activeSegment().readNextOffset();
            recoveryPoint = nextOffset;
        } else {
            long[] recovered = recoverLog();
            recoveryPoint = recovered[0];
            nextOffset = recovered[1];
            segments.activeSegment().resizeIndexes(config.segmentIndexBytes());
        }
        long logStartOffset = remoteLogEnabled
                ? logStartOffsetCheckpoint
                : Math.max(
                        logStartOffsetCheckpoint,
                        segments.firstSegmentBaseOffset().orElseThrow());
        leaderEpochCache.truncateFromEnd(nextOffset);
        // The earliest epoch may not have been moved up before a crash.
        leaderEpochCache.truncateFromStart(logStartOffset);
        if (!producerStateManager.isEmpty()) {
            throw new IllegalStateException("Producer state must be empty during log initialization");
        }
        // Rescans the directory: recovery's own producer states wrote and deleted snapshots behind this one's back.
        producerStateManager.removeStraySnapshots(segments.baseOffsets());
        ProducerStateLoading.rebuildProducerState(
                producerStateManager, segments, logStartOffset, nextOffset, time, hadCleanShutdown);
        LogSegment active = segments.activeSegment();
        return new LoadedLogOffsets(
                logStartOffset,
                recoveryPoint,
                new LogOffsetMetadata(nextOffset, active.baseOffset(), active.size()),
                recoveredSegments);
    }

    // Kafka's loadSegmentFiles: in offset order, as a segment's transactions may depend on earlier ones.
    private void loadSegmentFiles() throws IOException {
        List<LogSegment> indexesToRebuild = new ArrayList<>();
        for (Path file : LeftoverFiles.sortedFiles(dir)) {
            String name = file.getFileName().toString();
            if (LeftoverFiles.isIndexFile(name)) {
                long offset = LogFileUtils.offsetFromFileName(name);
                if (!Files.exists(LogFileUtils.logFile(dir, offset, ""))) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "Found an orphaned index file " + file + ", with no corresponding log file.");
                    Files.deleteIfExists(file);
                }
            } else if (name.endsWith(LogFileUtils.LOG_FILE_SUFFIX)) {
                long baseOffset = LogFileUtils.offsetFromFileName(name);
                boolean indexMissing = !Files.exists(LogFileUtils.offsetIndexFile(dir, baseOffset, ""))
                        || !Files.exists(LogFileUtils.timeIndexFile(dir, baseOffset, ""));
                LogSegment segment =
                        LogSegment.open(dir, baseOffset, SegmentConfig.from(config), time, true, 0, false, "");
                segments.add(segment);
                if (!indexesUsable(segment, indexMissing)) {
                    indexesToRebuild.add(segment);
                }
            }
        }
        // Segments that recoverLog will recover are left to it: recovered here first, a torn tail would be cut
        // before recoverLog could see it and delete the segments after it.
        long recoverFrom = hadCleanShutdown
                ? Long.MAX_VALUE
                : segments.floorSegment(recoveryPointCheckpoint)
                        .map(LogSegment::baseOffset)
                        .orElse(Long.MIN_VALUE);
        for (LogSegment segment : indexesToRebuild) {
            if (segment.baseOffset() < recoverFrom) {
                recoverSegment(segment);
            }
        }
    }

    // Whether the segment's indexes may be trusted; a missing or corrupt one is rebuilt by a recovery.
    private static boolean indexesUsable(LogSegment segment, boolean indexMissing) {
        if (indexMissing) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Could not find an index file of log file " + segment.log().file()
                            + ", recovering segment and rebuilding index files...");
            return false;
        }
        try {
            sanityCheck(segment);
            return true;
        } catch (CorruptIndexException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Found a corrupted index file corresponding to log file "
                            + segment.log().file() + " due to " + e.getMessage()
                            + ", recovering segment and rebuilding index files...");
            return false;
        }
    }

    /**
     * Kafka's index checks on open, and one more that costs as little: the last offset index entry must point into
     * the records (an index written ahead of records that a crash lost does not).
     */
    private static void sanityCheck(LogSegment segment) {
        segment.offsetIndex().sanityCheck();
        segment.timeIndex().sanityCheck();
        segment.txnIndex().sanityCheck();
        OffsetIndex index = segment.offsetIndex();
        if (index.entries() > 0) {
            OffsetPosition last = index.entry(index.entries() - 1);
            if (last.position() >= segment.size()) {
                throw new CorruptIndexException(
                        index.source(),
                        (long) (index.entries() - 1) * OffsetIndex.ENTRY_SIZE,
                        "the last entry's position " + last.position() + " is not inside the " + segment.size()
                                + " bytes of " + segment.log().file());
            }
        }
    }

    // Recovers one segment with a producer state of its own, rebuilt up to the segment's base offset.
    private int recoverSegment(LogSegment segment) throws IOException {
        ProducerStateManager segmentProducerState = new ProducerStateManager(
                topicPartition,
                dir,
                producerStateManager.maxTransactionTimeoutMs(),
                producerStateManager.producerStateManagerConfig());
        ProducerStateLoading.rebuildProducerState(
                segmentProducerState, segments, logStartOffsetCheckpoint, segment.baseOffset(), time, false);
        int bytesTruncated = segment.recover(segmentProducerState, leaderEpochCache);
        // The snapshot at the segment's end spares the next segment's recovery a scan of this one.
        segmentProducerState.takeSnapshot();
        recoveredSegments.add(segment.baseOffset());
        return bytesTruncated;
    }

    // Kafka's recoverLog; returns the recovery point and the log end offset.
    private long[] recoverLog() throws IOException {
        if (!hadCleanShutdown) {
            List<LogSegment> unflushed = List.copyOf(segments.values(recoveryPointCheckpoint, Long.MAX_VALUE));
            for (int i = 0; i < unflushed.size(); i++) {
                LogSegment segment = unflushed.get(i);
                LOG.log(
                        System.Logger.Level.INFO,
                        "Recovering unflushed segment " + segment.baseOffset() + " of " + topicPartition + ": " + i
                                + "/" + unflushed.size() + " recovered");
                int truncatedBytes;
                try {
                    truncatedBytes = recoverSegment(segment);
                } catch (InvalidOffsetException e) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "Found invalid offset during recovery of " + topicPartition
                                    + ". Deleting the corrupt segment and creating an empty one with starting offset "
                                    + segment.baseOffset(),
                            e);
                    truncatedBytes = segment.truncateTo(segment.baseOffset());
                }
                if (truncatedBytes > 0) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "Corruption found in segment " + segment.baseOffset() + " of " + topicPartition
                                    + ", truncating to offset " + segment.readNextOffset());
                    removeAndDeleteSegmentsAsync(unflushed.subList(i + 1, unflushed.size()));
                    break;
                }
            }
        }
        OptionalLong logEndOffset = deleteSegmentsIfLogStartGreaterThanLogEnd();
        if (segments.isEmpty()) {
            segments.add(LogSegment.open(
                    dir,
                    logStartOffsetCheckpoint,
                    SegmentConfig.from(config),
                    time,
                    config.initFileSize(),
                    config.preallocate()));
        }
        // The recovery point moves only when the log is flushed, never here: a crash before that flush must find
        // the same segments to recover.
        if (hadCleanShutdown && logEndOffset.isPresent()) {
            return new long[] {logEndOffset.getAsLong(), logEndOffset.getAsLong()};
        }
        long end = logEndOffset.isPresent()
                ? logEndOffset.getAsLong()
                : segments.activeSegment().readNextOffset();
        return new long[] {Math.min(recoveryPointCheckpoint, end), end};
    }

    // Segments deleted behind Kafka's back can leave the log end below the checkpointed start: start over there.
    private OptionalLong deleteSegmentsIfLogStartGreaterThanLogEnd() throws IOException {
        Optional<LogSegment> last = segments.lastSegment();
        if (last.isEmpty()) {
            return OptionalLong.empty();
        }
        long logEndOffset = last.get().readNextOffset();
        if (logEndOffset >= logStartOffsetCheckpoint) {
            return OptionalLong.of(logEndOffset);
        }
        LOG.log(
                System.Logger.Level.WARNING,
                "Deleting all segments of " + topicPartition + " because logEndOffset ("
                        + logEndOffset + ") is smaller than logStartOffset " + logStartOffsetCheckpoint
                        + ". This could happen if segment files were deleted from the file system.");
        removeAndDeleteSegmentsAsync(List.copyOf(segments.values()));
        leaderEpochCache.clearAndFlush();
        producerStateManager.truncateFullyAndStartAt(logStartOffsetCheckpoint);
        return OptionalLong.empty();
    }

    private void removeAndDeleteSegmentsAsync(Collection<LogSegment> segmentsToDelete) throws IOException {
        if (segmentsToDelete.isEmpty()) {
            return;
        }
        List<LogSegment> toDelete = List.copyOf(segmentsToDelete);
        LOG.log(System.Logger.Level.INFO, "Deleting segments as part of log recovery: " + toDelete);
        toDelete.forEach(segment -> segments.remove(segment.baseOffset()));
        LocalLog.deleteSegmentFiles(toDelete, true, topicPartition, config, scheduler);
        ProducerStateLoading.deleteProducerSnapshots(toDelete, producerStateManager, true, scheduler, config);
    }
}
