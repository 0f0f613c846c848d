package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.LogDirFailureChannel;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.cleaner.CleanableOffsets.OffsetsToClean;
import io.krabka.kernel.log.cleaner.LogCleaningState.LogCleaningAborted;
import io.krabka.kernel.log.cleaner.LogCleaningState.LogCleaningInProgress;
import io.krabka.kernel.log.cleaner.LogCleaningState.LogCleaningPaused;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * Which partition is cleaned when, Kafka's {@code LogCleanerManager}: the cleaning state of each partition
 * ({@link LogCleaningState}), the choice of the dirtiest log that may be cleaned, the partitions marked uncleanable
 * after an unexpected failure, and the cleaner checkpoints. A partition in progress is worked on by one cleaner
 * thread only, and retention, deletion and other work pause it before touching its segments, waiting for a
 * cleaning under way to stop.
 *
 * <p>Thread-safe: one lock over the states and checkpoints.
 */
final class LogCleanerManager {

    private static final System.Logger LOG = System.getLogger(LogCleaner.class.getName());

    private final ConcurrentMap<TopicPartition, UnifiedLog> logs;
    private final CleanerCheckpoints checkpoints;
    private final Map<TopicPartition, LogCleaningState> inProgress = new HashMap<>();
    private final UncleanablePartitions uncleanablePartitions = new UncleanablePartitions();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition pausedCleaningCond = lock.newCondition();
    private volatile double dirtiestLogCleanableRatio;
    private volatile long timeOfLastRun;

    /**
     * @param logDirs the live log directories, absolute and normalized
     * @param logs    the broker's logs, which may come and go
     * @param now     the time, for {@code time-since-last-run-ms}
     */
    LogCleanerManager(
            List<Path> logDirs,
            ConcurrentMap<TopicPartition, UnifiedLog> logs,
            LogDirFailureChannel logDirFailureChannel,
            long now) {
        this.logs = logs;
        this.checkpoints = new CleanerCheckpoints(logDirs, logDirFailureChannel);
        this.timeOfLastRun = now;
    }

    /** The offset each partition is cleaned up to. */
    Map<TopicPartition, Long> allCleanerCheckpoints() {
        lock.lock();
        try {
            return checkpoints.all();
        } finally {
            lock.unlock();
        }
    }

    /** The partition's cleaning state, if it has one. */
    Optional<LogCleaningState> cleaningState(TopicPartition topicPartition) {
        lock.lock();
        try {
            return Optional.ofNullable(inProgress.get(topicPartition));
        } finally {
            lock.unlock();
        }
    }

    /** The dirtiest ratio found by the last choice: {@code max-dirty-percent}. */
    double dirtiestLogCleanableRatio() {
        return dirtiestLogCleanableRatio;
    }

    /** When a cleaner thread last chose a log: {@code time-since-last-run-ms}. */
    long timeOfLastRun() {
        return timeOfLastRun;
    }

    /**
     * Chooses the compacted log to clean, as Kafka's {@code grabFilthiestCompactedLog}, and marks it in progress:
     * among the logs not in any state nor uncleanable and not empty, the dirtiest of those whose cleanable ratio
     * passes {@code min.cleanable.dirty.ratio} or that hold a record late for {@code max.compaction.lag.ms}.
     *
     * @throws LogCleaningException if a log's offsets cannot be worked out
     */
    Optional<LogToClean> grabFilthiestCompactedLog(long now, PreCleanStats preCleanStats) {
        lock.lock();
        try {
            timeOfLastRun = now;
            Map<TopicPartition, Long> lastClean = checkpoints.all();
            List<LogToClean> dirtyLogs = new ArrayList<>();
            for (UnifiedLog log : logs.values()) {
                TopicPartition topicPartition = log.topicPartition();
                if (!log.config().isCompact()
                        || inProgress.containsKey(topicPartition)
                        || uncleanablePartitions.contains(log)) {
                    continue;
                }
                LogToClean candidate;
                try {
                    OffsetsToClean offsets = CleanableOffsets.cleanableOffsets(
                            log, Optional.ofNullable(lastClean.get(topicPartition)), now);
                    if (offsets.forceUpdateCheckpoint()) {
                        updateCheckpoint(log, offsets.firstDirtyOffset());
                    }
                    long compactionDelayMs = CleanableOffsets.maxCompactionDelay(log, offsets.firstDirtyOffset(), now);
                    preCleanStats.updateMaxCompactionDelay(compactionDelayMs);
                    candidate = LogToClean.of(
                            log,
                            offsets.firstDirtyOffset(),
                            offsets.firstUncleanableDirtyOffset(),
                            compactionDelayMs > 0);
                } catch (IOException | RuntimeException e) {
                    throw new LogCleaningException(
                            log, "Failed to calculate log cleaning stats for partition " + topicPartition, e);
                }
                if (candidate.totalBytes() > 0) {
                    dirtyLogs.add(candidate);
                }
            }
            dirtiestLogCleanableRatio = dirtyLogs.stream()
                    .mapToDouble(LogToClean::cleanableRatio)
                    .max()
                    .orElse(0);
            List<LogToClean> cleanable = dirtyLogs.stream()
                    .filter(ltc -> (ltc.needCompactionNow() && ltc.cleanableBytes() > 0)
                            || ltc.cleanableRatio() > ltc.log().config().minCleanableDirtyRatio())
                    .toList();
            if (cleanable.isEmpty()) {
                return Optional.empty();
            }
            preCleanStats.recordCleanablePartitions(cleanable.size());
            LogToClean filthiest = cleanable.stream()
                    .max(Comparator.comparingDouble(LogToClean::cleanableRatio))
                    .orElseThrow();
            inProgress.put(filthiest.topicPartition(), new LogCleaningInProgress());
            return Optional.of(filthiest);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Marks the compacted logs free of any state in progress, so that their old segments are deleted by the cleaner
     * thread that holds them, and returns them (Kafka's {@code deletableLogs}): logs without the delete policy too,
     * as they may hold segments below the log start offset.
     */
    List<UnifiedLog> deletableLogs() {
        return mark(
                log -> log.config().isCompact() && !uncleanablePartitions.contains(log), new LogCleaningInProgress());
    }

    /**
     * Pauses the logs that are not compacted and in no state, for retention to delete their old segments while no
     * cleaner thread touches them (their policy may have changed from compact), and returns them: Kafka's
     * {@code pauseCleaningForNonCompactedPartitions}. Retention resumes them after.
     */
    List<UnifiedLog> pauseCleaningForNonCompactedPartitions() {
        return mark(log -> !log.config().isCompact(), new LogCleaningPaused(1));
    }

    // Puts the logs in no state that pass the test in the state given; returns them.
    private List<UnifiedLog> mark(Predicate<UnifiedLog> test, LogCleaningState state) {
        lock.lock();
        try {
            List<UnifiedLog> marked = new ArrayList<>();
            for (UnifiedLog log : logs.values()) {
                if (!inProgress.containsKey(log.topicPartition()) && test.test(log)) {
                    inProgress.put(log.topicPartition(), state);
                    marked.add(log);
                }
            }
            return marked;
        } finally {
            lock.unlock();
        }
    }

    /** Stops the partition's cleaning under way, if any, waiting for it: a pause and a resume. */
    void abortCleaning(TopicPartition topicPartition) {
        lock.lock();
        try {
            abortAndPauseCleaning(topicPartition);
            resumeCleaning(List.of(topicPartition));
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops the partition's cleaning under way and pauses it, as Kafka's {@code abortAndPauseCleaning}: a partition
     * in progress is marked aborted and this waits until its thread stopped; a paused one is paused once more.
     *
     * @throws IllegalStateException if its cleaning is already being aborted
     */
    void abortAndPauseCleaning(TopicPartition topicPartition) {
        lock.lock();
        try {
            LogCleaningState state = inProgress.get(topicPartition);
            switch (state) {
                case null -> inProgress.put(topicPartition, new LogCleaningPaused(1));
                case LogCleaningInProgress _ -> inProgress.put(topicPartition, new LogCleaningAborted());
                case LogCleaningPaused(int count) -> inProgress.put(topicPartition, new LogCleaningPaused(count + 1));
                case LogCleaningAborted _ ->
                    throw new IllegalStateException("Compaction for partition " + topicPartition
                            + " cannot be aborted and paused since it is in " + state + " state.");
            }
            // A cleaning stops at its next check of the state, within one buffer's worth of work.
            while (!(inProgress.get(topicPartition) instanceof LogCleaningPaused)) {
                pausedCleaningCond.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Undoes one pause of each partition; the last makes it free.
     *
     * @throws IllegalStateException if a partition is not paused
     */
    void resumeCleaning(Collection<TopicPartition> topicPartitions) {
        lock.lock();
        try {
            for (TopicPartition topicPartition : topicPartitions) {
                LogCleaningState state = inProgress.get(topicPartition);
                switch (state) {
                    case LogCleaningPaused(int count) when count == 1 -> inProgress.remove(topicPartition);
                    case LogCleaningPaused(int count) ->
                        inProgress.put(topicPartition, new LogCleaningPaused(count - 1));
                    case null ->
                        throw new IllegalStateException("Compaction for partition " + topicPartition
                                + " cannot be resumed since it is not paused.");
                    default ->
                        throw new IllegalStateException("Compaction for partition " + topicPartition
                                + " cannot be resumed since it is in " + state + " state.");
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops a cleaning whose partition was asked to stop.
     *
     * @throws LogCleaningAbortedException if it was
     */
    void checkCleaningAborted(TopicPartition topicPartition) {
        lock.lock();
        try {
            if (inProgress.get(topicPartition) instanceof LogCleaningAborted) {
                throw new LogCleaningAbortedException();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends a cleaning: checkpoints {@code endOffset} and frees the partition, or, if it was aborted, pauses it and
     * wakes who waits for that.
     */
    void doneCleaning(UnifiedLog log, long endOffset) {
        lock.lock();
        try {
            if (done(log.topicPartition())) {
                updateCheckpoint(log, endOffset);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Ends the deletion of old segments of {@code deleted}, freeing them (or pausing those aborted meanwhile). */
    void doneDeleting(Collection<UnifiedLog> deleted) {
        lock.lock();
        try {
            deleted.forEach(log -> done(log.topicPartition()));
        } finally {
            lock.unlock();
        }
    }

    // Frees a partition whose work is done, or pauses it and wakes the waiters if it was aborted meanwhile; returns
    // whether it was freed.
    private boolean done(TopicPartition topicPartition) {
        switch (inProgress.get(topicPartition)) {
            case LogCleaningInProgress _ -> {
                inProgress.remove(topicPartition);
                return true;
            }
            case LogCleaningAborted _ -> {
                inProgress.put(topicPartition, new LogCleaningPaused(1));
                pausedCleaningCond.signalAll();
                return false;
            }
            case null -> throw new IllegalStateException("State for partition " + topicPartition + " should exist.");
            case LogCleaningState state ->
                throw new IllegalStateException(
                        "In-progress partition " + topicPartition + " cannot be in " + state + " state.");
        }
    }

    private void updateCheckpoint(UnifiedLog log, long offset) {
        checkpoints.update(log.parentDir(), logs.keySet(), Map.entry(log.topicPartition(), offset), null);
    }

    /**
     * Rewrites {@code logDir}'s checkpoint without the partitions the broker no longer has, and without
     * {@code removed} if given.
     */
    void updateCheckpoints(Path logDir, Optional<TopicPartition> removed) {
        lock.lock();
        try {
            checkpoints.update(logDir, logs.keySet(), null, removed.orElse(null));
        } finally {
            lock.unlock();
        }
    }

    /** Stops reading and writing the checkpoint of {@code logDir}, which went offline. */
    void handleLogDirFailure(Path logDir) {
        LOG.log(System.Logger.Level.WARNING, "Stopping cleaning logs in dir " + logDir);
        lock.lock();
        try {
            checkpoints.removeDir(logDir);
        } finally {
            lock.unlock();
        }
    }

    /** Takes the partition out of cleaning after an unexpected failure. */
    void markPartitionUncleanable(Path logDir, TopicPartition topicPartition) {
        lock.lock();
        try {
            uncleanablePartitions.mark(logDir, topicPartition);
        } finally {
            lock.unlock();
        }
    }

    /** The partitions of {@code logDir} marked uncleanable. */
    Set<TopicPartition> uncleanablePartitions(Path logDir) {
        lock.lock();
        try {
            return uncleanablePartitions.of(logDir);
        } finally {
            lock.unlock();
        }
    }

    /** Forgets uncleanable partitions the broker no longer has. */
    void maintainUncleanablePartitions() {
        lock.lock();
        try {
            uncleanablePartitions.retainAll(logs.keySet());
        } finally {
            lock.unlock();
        }
    }

    /** The bytes of the cleanable parts of {@code logDir}'s uncleanable partitions: {@code uncleanable-bytes}. */
    long uncleanableBytes(Path logDir, long now) {
        lock.lock();
        try {
            Map<TopicPartition, Long> lastClean = checkpoints.all();
            long bytes = 0;
            for (TopicPartition topicPartition : uncleanablePartitions.of(logDir)) {
                UnifiedLog log = logs.get(topicPartition);
                if (log != null) {
                    OffsetsToClean offsets = CleanableOffsets.cleanableOffsets(
                            log, Optional.ofNullable(lastClean.get(topicPartition)), now);
                    bytes += CleanableOffsets.calculateCleanableBytes(
                                    log, offsets.firstDirtyOffset(), offsets.firstUncleanableDirtyOffset())
                            .cleanableBytes();
                }
            }
            return bytes;
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Could not measure the uncleanable bytes of " + logDir, e);
            return 0;
        } finally {
            lock.unlock();
        }
    }
}
