package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.DiskFaults;
import io.krabka.kernel.log.KafkaStorageException;
import io.krabka.kernel.log.LogDirFailureChannel;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.cleaner.Cleaner.CleaningResult;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One cleaner thread, Kafka's {@code CleanerThread}: again and again it cleans the dirtiest log, then deletes the
 * old segments of the compacted logs (whose retention is the cleaner's, so that it never meets a cleaning), and
 * sleeps {@code log.cleaner.backoff.ms} when nothing needed cleaning. A log that fails unexpectedly is marked
 * uncleanable; an I/O error takes its log directory offline (a full disk only postpones the cleaning); anything
 * else ends the thread, which {@code DeadThreadCount} then counts. The broker goes on either way.
 *
 * <p>The thread is never interrupted, as Kafka's: an interrupt would close the channels of the files it reads.
 */
final class CleanerThread {

    private static final System.Logger LOG = System.getLogger(LogCleaner.class.getName());

    private final Cleaner cleaner;
    private final LogCleanerManager cleanerManager;
    private final LogDirFailureChannel logDirFailureChannel;
    private final InstantSource time;
    private final long backoffMs;
    private final CountDownLatch shutdownInitiated = new CountDownLatch(1);
    private final CountDownLatch shutdownComplete = new CountDownLatch(1);
    private final Thread thread;
    private volatile boolean running = true;
    private volatile CleanerStats lastStats;
    private volatile PreCleanStats lastPreCleanStats = new PreCleanStats();

    CleanerThread(
            int threadId,
            CleanerConfig config,
            Throttler throttler,
            LogCleanerManager cleanerManager,
            LogDirFailureChannel logDirFailureChannel,
            InstantSource time) {
        this.cleanerManager = cleanerManager;
        this.logDirFailureChannel = logDirFailureChannel;
        this.time = time;
        this.backoffMs = config.backoffMs();
        this.cleaner = new Cleaner(
                threadId,
                new SkimpyOffsetMap(config.offsetMapMemoryPerThread(), CleanerConfig.HASH_ALGORITHM),
                config.ioBufferSizePerThread(),
                config.maxMessageSize(),
                config.dedupeBufferLoadFactor(),
                throttler,
                time::millis,
                this::checkDone);
        this.lastStats = new CleanerStats(time::millis);
        this.thread = Thread.ofPlatform()
                .name("kafka-log-cleaner-thread-" + threadId)
                .daemon()
                .unstarted(this::run);
    }

    void start() {
        thread.start();
    }

    /** Stops the thread after what it is doing, a cleaning stopping at its next check, and waits for it. */
    void shutdown() throws InterruptedException {
        running = false;
        shutdownInitiated.countDown();
        shutdownComplete.await();
    }

    /** Whether the thread ended on its own, by a failure: Kafka's {@code isThreadFailed}. */
    boolean isThreadFailed() {
        return shutdownComplete.getCount() == 0 && running;
    }

    /** The stats of the thread's last cleaning. */
    CleanerStats lastStats() {
        return lastStats;
    }

    /** What the thread's last choice of a log found. */
    PreCleanStats lastPreCleanStats() {
        return lastPreCleanStats;
    }

    private void checkDone(TopicPartition topicPartition) {
        if (!running) {
            throw new LogCleaningAbortedException();
        }
        cleanerManager.checkCleaningAborted(topicPartition);
    }

    private void run() {
        try {
            while (running) {
                if (!tryCleanFilthiestLog() && running) {
                    shutdownInitiated.await(backoffMs, TimeUnit.MILLISECONDS);
                }
                cleanerManager.maintainUncleanablePartitions();
            }
        } catch (Throwable t) {
            if (running) {
                LOG.log(System.Logger.Level.ERROR, thread.getName() + ": error due to", t);
            }
        } finally {
            shutdownComplete.countDown();
        }
    }

    private boolean tryCleanFilthiestLog() {
        try {
            return cleanFilthiestLog();
        } catch (LogCleaningException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Unexpected exception thrown when cleaning log " + e.log() + ". Marking its partition ("
                            + e.log().topicPartition() + ") as uncleanable",
                    e);
            cleanerManager.markPartitionUncleanable(e.log().parentDir(), e.log().topicPartition());
            return false;
        }
    }

    private boolean cleanFilthiestLog() {
        PreCleanStats preCleanStats = new PreCleanStats();
        Optional<LogToClean> chosen = cleanerManager.grabFilthiestCompactedLog(time.millis(), preCleanStats);
        boolean cleaned = false;
        if (chosen.isPresent()) {
            lastPreCleanStats = preCleanStats;
            try {
                cleanLog(chosen.get());
                cleaned = true;
            } catch (RuntimeException e) {
                throw new LogCleaningException(chosen.get().log(), e.getMessage(), e);
            }
        }
        List<UnifiedLog> deletable = cleanerManager.deletableLogs();
        try {
            for (UnifiedLog log : deletable) {
                try {
                    log.deleteOldSegments();
                } catch (IOException | UncheckedIOException e) {
                    ioFailure(log, "Failed to delete old segments of " + log.topicPartition(), e);
                } catch (KafkaStorageException e) {
                    // The log was closed meanwhile: its directory went offline, or it was deleted.
                } catch (RuntimeException e) {
                    throw new LogCleaningException(log, e.getMessage(), e);
                }
            }
        } finally {
            cleanerManager.doneDeleting(deletable);
        }
        return cleaned;
    }

    private void cleanLog(LogToClean cleanable) {
        UnifiedLog log = cleanable.log();
        long startOffset = cleanable.firstDirtyOffset();
        long endOffset = startOffset;
        try {
            CleaningResult result = cleaner.clean(cleanable);
            endOffset = result.nextDirtyOffset();
            recordStats(log, startOffset, endOffset, result.stats());
        } catch (LogCleaningAbortedException | KafkaStorageException e) {
            // Stopped on purpose, or the log went offline: nothing to do.
        } catch (IOException | UncheckedIOException e) {
            ioFailure(log, "Failed to clean up log for " + log.topicPartition() + " in dir " + log.parentDir(), e);
        } finally {
            cleanerManager.doneCleaning(log, endOffset);
        }
    }

    // Kafka takes the directory offline on any I/O error; Krabka lives through a full disk, as its logs do.
    private void ioFailure(UnifiedLog log, String message, Exception e) {
        if (DiskFaults.takesLogDirOffline(e)) {
            logDirFailureChannel.maybeAddOfflineLogDir(log.parentDir(), message + " due to " + e, e);
        } else {
            LOG.log(System.Logger.Level.WARNING, message + "; trying again later", e);
        }
    }

    private void recordStats(UnifiedLog log, long from, long to, CleanerStats stats) {
        lastStats = stats;
        LOG.log(System.Logger.Level.INFO, () -> CleanerReport.describe(cleaner.id(), log, from, to, stats));
        PreCleanStats pre = lastPreCleanStats;
        if (pre.delayedPartitions > 0) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "\tCleanable partitions: " + pre.cleanablePartitions + ", Delayed partitions: "
                            + pre.delayedPartitions + ", max delay: " + pre.maxCompactionDelayMs);
        }
        if (stats.invalidMessagesRead > 0) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "\tFound " + stats.invalidMessagesRead + " invalid messages during compaction.");
        }
    }
}
