package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.LogDirFailureChannel;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.plugin.ConfigException;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToDoubleFunction;

/**
 * The log cleaner, Kafka's {@code LogCleaner}: compacts the logs of topics with {@code cleanup.policy=compact} (and
 * {@code compact,delete}) on {@code log.cleaner.threads} background threads, keeping the latest record of each key,
 * and deletes their old segments by retention. Owned by the log manager, which pauses and aborts cleanings around
 * its own work on a log ({@link #abortCleaning}, {@link #pauseCleaningForNonCompactedPartitions}).
 *
 * <p>Each log is cleaned from the offset its directory's {@code cleaner-offset-checkpoint} holds up to the first
 * uncleanable offset (the last stable offset, the active segment, {@code min.compaction.lag.ms}); the dirtiest log
 * whose dirty share passes {@code min.cleanable.dirty.ratio}, or that holds a record late for
 * {@code max.compaction.lag.ms}, goes first. The settings may change while it runs ({@link #reconfigure}).
 *
 * <p>Thread-safe.
 */
public final class LogCleaner {

    private static final System.Logger LOG = System.getLogger(LogCleaner.class.getName());

    private final LogCleanerManager cleanerManager;
    private final Throttler throttler;
    private final LogDirFailureChannel logDirFailureChannel;
    private final InstantSource time;
    private final List<CleanerThread> cleaners = new CopyOnWriteArrayList<>();
    private volatile CleanerConfig config;

    /**
     * A cleaner of {@code logs}, not started.
     *
     * @param logDirs the live log directories, whose checkpoints it reads now
     * @param logs    the broker's logs, which may come and go while it runs
     */
    public LogCleaner(
            CleanerConfig config,
            List<Path> logDirs,
            ConcurrentMap<TopicPartition, UnifiedLog> logs,
            LogDirFailureChannel logDirFailureChannel,
            InstantSource time) {
        this.config = Objects.requireNonNull(config, "config");
        this.logDirFailureChannel = Objects.requireNonNull(logDirFailureChannel, "logDirFailureChannel");
        this.time = Objects.requireNonNull(time, "time");
        this.cleanerManager = new LogCleanerManager(
                logDirs.stream().map(dir -> dir.toAbsolutePath().normalize()).toList(),
                logs,
                logDirFailureChannel,
                time.millis());
        this.throttler = new Throttler(config.maxIoBytesPerSecond(), System::nanoTime, LogCleaner::sleep);
    }

    // Not interruptible, as Kafka's: the threads are never interrupted.
    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts the threads. */
    public synchronized void startup() {
        LOG.log(System.Logger.Level.INFO, "Starting the log cleaner");
        CleanerConfig current = config;
        for (int i = 0; i < current.numThreads(); i++) {
            CleanerThread cleaner =
                    new CleanerThread(i, current, throttler, cleanerManager, logDirFailureChannel, time);
            cleaners.add(cleaner);
            cleaner.start();
        }
    }

    /** Stops the threads, each after it stopped its cleaning under way. */
    public synchronized void shutdown() throws InterruptedException {
        LOG.log(System.Logger.Level.INFO, "Shutting down the log cleaner.");
        for (CleanerThread cleaner : cleaners) {
            cleaner.shutdown();
        }
        cleaners.clear();
    }

    /** The settings in use. */
    public CleanerConfig currentConfig() {
        return config;
    }

    /**
     * Checks settings a running cleaner is asked to take, as Kafka's {@code validateReconfiguration}: the threads may
     * at most halve or double at once.
     *
     * @throws ConfigException otherwise
     */
    public void validateReconfiguration(CleanerConfig newConfig) {
        int numThreads = newConfig.numThreads();
        int currentThreads = config.numThreads();
        // Kafka's words, which name no key: an AlterConfigs answer carries them as they are.
        if (numThreads < 1) {
            throw new ConfigException("Log cleaner threads should be at least 1");
        }
        if (numThreads < currentThreads / 2) {
            throw new ConfigException(
                    "Log cleaner threads cannot be reduced to less than half the current value " + currentThreads);
        }
        if (numThreads > currentThreads * 2) {
            throw new ConfigException(
                    "Log cleaner threads cannot be increased to more than double the current value " + currentThreads);
        }
    }

    /**
     * Takes new settings at run time, as Kafka's {@code reconfigure}: the throttle takes the new rate, and the
     * threads are replaced by new ones with the new settings (so that a dead thread is replaced too); a cleaning
     * under way stops and is taken up again.
     *
     * @throws ConfigException if {@link #validateReconfiguration} refuses them
     */
    public synchronized void reconfigure(CleanerConfig newConfig) throws InterruptedException {
        validateReconfiguration(newConfig);
        CleanerConfig old = config;
        config = newConfig;
        if (newConfig.maxIoBytesPerSecond() != old.maxIoBytesPerSecond()) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "Updating logCleanerIoMaxBytesPerSecond: " + newConfig.maxIoBytesPerSecond());
            throttler.updateDesiredRatePerSec(newConfig.maxIoBytesPerSecond());
        }
        shutdown();
        startup();
    }

    /** Stops the partition's cleaning under way, if any, waiting for it to stop. */
    public void abortCleaning(TopicPartition topicPartition) {
        cleanerManager.abortCleaning(topicPartition);
    }

    /** Stops the partition's cleaning under way and keeps it from being cleaned until {@link #resumeCleaning}. */
    public void abortAndPauseCleaning(TopicPartition topicPartition) {
        cleanerManager.abortAndPauseCleaning(topicPartition);
    }

    /** Undoes one pause of each partition. */
    public void resumeCleaning(Collection<TopicPartition> topicPartitions) {
        cleanerManager.resumeCleaning(topicPartitions);
    }

    /**
     * Pauses the logs that are not compacted and not being worked on, for retention, and returns them; retention
     * resumes them ({@link #resumeCleaning}). The compacted logs' retention is the cleaner threads'.
     */
    public List<UnifiedLog> pauseCleaningForNonCompactedPartitions() {
        return cleanerManager.pauseCleaningForNonCompactedPartitions();
    }

    /** Rewrites {@code logDir}'s checkpoint without {@code removed} and the partitions the broker no longer has. */
    public void updateCheckpoints(Path logDir, Optional<TopicPartition> removed) {
        cleanerManager.updateCheckpoints(logDir.toAbsolutePath().normalize(), removed);
    }

    /** Stops using the checkpoint of {@code logDir}, which went offline. */
    public void handleLogDirFailure(Path logDir) {
        cleanerManager.handleLogDirFailure(logDir.toAbsolutePath().normalize());
    }

    /** The offset each partition is cleaned up to, from the checkpoints. */
    public Map<TopicPartition, Long> allCleanerCheckpoints() {
        return cleanerManager.allCleanerCheckpoints();
    }

    // What the gauges read.

    /** {@code max-buffer-utilization-percent}: the fullest offset map of the threads' last cleanings. */
    public int maxBufferUtilizationPercent() {
        return (int) (100 * maxOverCleanerThreads(thread -> thread.lastStats().bufferUtilization));
    }

    /** {@code cleaner-recopy-percent}: the bytes written of those read, over the threads' last cleanings. */
    public int cleanerRecopyPercent() {
        long written = 0;
        long read = 0;
        for (CleanerThread thread : cleaners) {
            written += thread.lastStats().bytesWritten;
            read += thread.lastStats().bytesRead;
        }
        return (int) (100 * (double) written / Math.max(read, 1));
    }

    /** {@code max-clean-time-secs}: the longest of the threads' last cleanings. */
    public int maxCleanTimeSecs() {
        return (int) maxOverCleanerThreads(thread -> thread.lastStats().elapsedSecs());
    }

    /** {@code max-compaction-delay-secs}: the longest a log waited past its max.compaction.lag.ms. */
    public int maxCompactionDelaySecs() {
        return (int) maxOverCleanerThreads(thread -> thread.lastPreCleanStats().maxCompactionDelayMs) / 1000;
    }

    /** {@code DeadThreadCount}: the threads that ended on a failure. */
    public int deadThreadCount() {
        return (int) cleaners.stream().filter(CleanerThread::isThreadFailed).count();
    }

    /** {@code uncleanable-partitions-count} of {@code logDir}. */
    public int uncleanablePartitionsCount(Path logDir) {
        return cleanerManager
                .uncleanablePartitions(logDir.toAbsolutePath().normalize())
                .size();
    }

    /** {@code uncleanable-bytes} of {@code logDir}: the cleanable bytes of its uncleanable partitions. */
    public long uncleanableBytes(Path logDir) {
        return cleanerManager.uncleanableBytes(logDir.toAbsolutePath().normalize(), time.millis());
    }

    /** {@code max-dirty-percent}: the dirtiest log's cleanable share at the last choice. */
    public int maxDirtyPercent() {
        return (int) (100 * cleanerManager.dirtiestLogCleanableRatio());
    }

    /** {@code time-since-last-run-ms}: since a thread last chose a log. */
    public long timeSinceLastRunMs() {
        return time.millis() - cleanerManager.timeOfLastRun();
    }

    /** The number of threads. */
    public int cleanerCount() {
        return cleaners.size();
    }

    private double maxOverCleanerThreads(ToDoubleFunction<CleanerThread> value) {
        double max = 0;
        for (CleanerThread thread : new ArrayList<>(cleaners)) {
            max = Math.max(max, value.applyAsDouble(thread));
        }
        return max;
    }
}
