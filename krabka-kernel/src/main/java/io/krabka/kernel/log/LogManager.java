package io.krabka.kernel.log;

import io.krabka.kernel.log.checkpoint.CleanShutdownFile;
import io.krabka.kernel.log.cleaner.LogCleaner;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.scheduler.Scheduler;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Function;

/**
 * The broker's logs, Kafka's {@code LogManager}: the log directories (formatted, locked), their partitions' logs,
 * the offset checkpoints, the clean shutdown marker (deleted once the logs are loaded, written after they are all
 * closed), the log cleaner (with {@code log.cleaner.enable}), and the periodic work: retention, flushes by
 * {@code flush.ms}, checkpoints, and the removal of deleted logs' directories. The cleaner threads delete the old
 * segments of compacted logs; the retention task those of the others, pausing their cleaning meanwhile. New logs go to the directory with the fewest. A directory an I/O error took offline
 * ({@link #handleLogDirFailure}) has its logs closed and takes no part in any of it until the broker restarts.
 *
 * <p>Thread-safe.
 */
public final class LogManager implements Closeable {

    private static final System.Logger LOG = System.getLogger(LogManager.class.getName());

    /** The KRaft metadata log's topic, which the controller's own log code keeps. */
    public static final String CLUSTER_METADATA_TOPIC = "__cluster_metadata";

    private final LogManagerConfig config;
    private final Function<String, LogConfig> topicConfigs;
    private final Scheduler scheduler;
    private final InstantSource time;
    private final ProducerStateManagerConfig producerStateManagerConfig;
    private volatile int numRecoveryThreadsPerDataDir;
    private final String clusterId;
    private final List<Path> logDirs;
    private final List<Path> liveLogDirs;
    private final LogDirFailureChannel logDirFailureChannel;
    private final Set<TopicPartition> offlinePartitions = ConcurrentHashMap.newKeySet();
    private final Map<Path, LogDirCheckpoints> checkpoints = new ConcurrentHashMap<>();
    private final LogDirLocks dirLocks;
    private final Object logCreationOrDeletionLock = new Object();
    private final ConcurrentHashMap<TopicPartition, UnifiedLog> currentLogs = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<Map.Entry<UnifiedLog, Long>> logsToBeDeleted = new LinkedBlockingQueue<>();
    private final List<ScheduledFuture<?>> tasks = new CopyOnWriteArrayList<>();
    private volatile LogCleaner cleaner;

    /**
     * Checks and locks the log directories; {@link #startup()} loads the logs.
     *
     * @param topicConfigs the settings of a topic, by name, for the logs found at startup
     * @throws MetaPropertiesException if a directory is not formatted, or they disagree
     * @throws IOException             if a directory is locked by another broker
     */
    public LogManager(
            LogManagerConfig config, Function<String, LogConfig> topicConfigs, Scheduler scheduler, InstantSource time)
            throws IOException {
        this(config, topicConfigs, scheduler, time, new LogDirFailureChannel());
    }

    /**
     * Checks and locks the log directories; {@link #startup()} loads the logs.
     *
     * @param topicConfigs         the settings of a topic, by name, for the logs found at startup
     * @param logDirFailureChannel where the logs, and the periodic tasks, report a log directory an I/O error took
     *                             offline
     * @throws MetaPropertiesException if a directory is not formatted, or they disagree
     * @throws IOException             if a directory is locked by another broker
     */
    public LogManager(
            LogManagerConfig config,
            Function<String, LogConfig> topicConfigs,
            Scheduler scheduler,
            InstantSource time,
            LogDirFailureChannel logDirFailureChannel)
            throws IOException {
        this.logDirFailureChannel = Objects.requireNonNull(logDirFailureChannel, "logDirFailureChannel");
        this.config = Objects.requireNonNull(config, "config");
        this.topicConfigs = Objects.requireNonNull(topicConfigs, "topicConfigs");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.time = Objects.requireNonNull(time, "time");
        this.producerStateManagerConfig = config.producerStateManagerConfig();
        this.numRecoveryThreadsPerDataDir = config.numRecoveryThreadsPerDataDir();
        this.logDirs = config.logDirs().stream()
                .map(dir -> dir.toAbsolutePath().normalize())
                .distinct()
                .toList();
        if (logDirs.size() != config.logDirs().size()) {
            throw new IllegalArgumentException("Duplicate log directory found: " + config.logDirs());
        }
        this.liveLogDirs = new CopyOnWriteArrayList<>(logDirs);
        this.clusterId = MetaPropertiesEnsemble.verify(logDirs, config.nodeId());
        this.dirLocks = LogDirLocks.lock(logDirs);
        logDirs.forEach(dir -> checkpoints.put(dir, new LogDirCheckpoints(dir)));
    }

    /** The cluster the log directories belong to. */
    public String clusterId() {
        return clusterId;
    }

    /** The log directories, absolute. */
    public List<Path> logDirs() {
        return logDirs;
    }

    /** The log directories no I/O error took offline. */
    public List<Path> liveLogDirs() {
        return List.copyOf(liveLogDirs);
    }

    /** Whether {@code logDir} is one of the live log directories. */
    public boolean isLogDirOnline(Path logDir) {
        return liveLogDirs.contains(logDir.toAbsolutePath().normalize());
    }

    /** Whether the log of {@code topicPartition} was in a log directory that went offline. */
    public boolean isOffline(TopicPartition topicPartition) {
        return offlinePartitions.contains(topicPartition);
    }

    /** Where I/O errors in the log directories are reported. */
    public LogDirFailureChannel logDirFailureChannel() {
        return logDirFailureChannel;
    }

    /**
     * Takes {@code logDir} out of service after an I/O error in it, as Kafka's {@code handleLogDirFailure}: its
     * logs are closed without writing to them (their files are in a state not known; the next start recovers them),
     * their partitions are offline, and no new log goes there. Nothing if it is not a live log directory.
     */
    public void handleLogDirFailure(Path logDir) {
        Path dir = logDir.toAbsolutePath().normalize();
        synchronized (logCreationOrDeletionLock) {
            if (!liveLogDirs.remove(dir)) {
                return;
            }
            if (cleaner != null) {
                cleaner.handleLogDirFailure(dir);
            }
            List<UnifiedLog> offline = logsIn(dir);
            for (UnifiedLog log : offline) {
                offlinePartitions.add(log.topicPartition());
                currentLogs.remove(log.topicPartition(), log);
                closeHandlers(log);
            }
            List<Map.Entry<UnifiedLog, Long>> deleted = logsToBeDeleted.stream()
                    .filter(entry -> logDirOf(entry.getKey()).equals(dir))
                    .toList();
            logsToBeDeleted.removeAll(deleted);
            deleted.forEach(entry -> closeHandlers(entry.getKey()));
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Logs for partitions "
                            + offline.stream().map(UnifiedLog::topicPartition).toList()
                            + " are offline due to failure on log directory " + dir
                            + (liveLogDirs.isEmpty()
                                    ? "; no log directory is left"
                                    : "; live log directories: " + liveLogDirs));
        }
    }

    private static void closeHandlers(UnifiedLog log) {
        try {
            log.closeHandlers();
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Could not close the files of " + log.topicPartition(), e);
        }
    }

    // An I/O error that leaves the directory's files in a state not known takes it offline; any other is logged.
    private void failed(Path logDir, String message, Throwable e) {
        if (DiskFaults.takesLogDirOffline(e)) {
            logDirFailureChannel.maybeAddOfflineLogDir(logDir, message, e);
        } else {
            LOG.log(System.Logger.Level.ERROR, message, e);
        }
    }

    /**
     * Loads every log of every directory (recovering those of a directory without the clean shutdown marker, on
     * {@code num.recovery.threads.per.data.dir} threads), deletes the markers, and schedules the periodic tasks.
     */
    public void startup() throws IOException {
        for (Path dir : logDirs) {
            LogDirLoading.Loaded loaded =
                    LogDirLoading.load(dir, checkpoints.get(dir), this::openLog, config.numRecoveryThreadsPerDataDir());
            try {
                for (UnifiedLog log : loaded.logs()) {
                    add(log);
                }
            } catch (RuntimeException e) {
                loaded.closeAll();
                throw e;
            }
            loaded.logsToDelete().forEach(this::addLogToBeDeleted);
            new CleanShutdownFile(dir).delete();
        }
        if (config.cleanerConfig().enableCleaner()) {
            cleaner = new LogCleaner(config.cleanerConfig(), liveLogDirs(), currentLogs, logDirFailureChannel, time);
            cleaner.startup();
        }
        long delay = config.initialTaskDelayMs();
        tasks.add(scheduler.schedule("kafka-log-retention", this::cleanupLogs, delay, config.retentionCheckMs()));
        tasks.add(scheduler.schedule("kafka-log-flusher", this::flushDirtyLogs, delay, config.flushCheckMs()));
        tasks.add(scheduler.schedule(
                "kafka-recovery-point-checkpoint",
                this::checkpointLogRecoveryOffsets,
                delay,
                config.flushRecoveryOffsetCheckpointMs()));
        tasks.add(scheduler.schedule(
                "kafka-log-start-offset-checkpoint",
                this::checkpointLogStartOffsets,
                delay,
                config.flushStartOffsetCheckpointMs()));
        tasks.add(scheduler.schedule(
                "highwatermark-checkpoint", this::checkpointHighWatermarks, delay, config.highWatermarkCheckpointMs()));
        tasks.add(scheduler.scheduleOnce("kafka-delete-logs", this::deleteLogs, delay));
    }

    // Opens a partition directory found at startup, with its checkpointed offsets.
    private UnifiedLog openLog(Path dir, boolean hadCleanShutdown, long logStartOffset, long recoveryPoint)
            throws IOException {
        TopicPartition topicPartition = LogDirNames.parseTopicPartitionName(dir);
        return UnifiedLog.create(
                dir,
                topicConfigs.apply(topicPartition.topic()),
                logStartOffset,
                recoveryPoint,
                scheduler,
                time,
                config.maxTransactionTimeoutMs(),
                producerStateManagerConfig,
                config.producerIdExpirationCheckIntervalMs(),
                hadCleanShutdown,
                Optional.empty(),
                config.remoteLogStorageSystemEnable(),
                logDirFailureChannel);
    }

    private void add(UnifiedLog log) {
        UnifiedLog previous = currentLogs.putIfAbsent(log.topicPartition(), log);
        if (previous != null) {
            throw new IllegalStateException("Duplicate log directories for " + log.topicPartition() + " are found in "
                    + "both " + log.dir() + " and " + previous.dir() + ". It is likely because log directory failure "
                    + "happened while broker was replacing current replica with future replica.");
        }
    }

    /** The producer state settings every log shares (they change with dynamic broker configs). */
    public ProducerStateManagerConfig producerStateManagerConfig() {
        return producerStateManagerConfig;
    }

    /** The log of {@code topicPartition}, if this broker has it. */
    public Optional<UnifiedLog> getLog(TopicPartition topicPartition) {
        return Optional.ofNullable(currentLogs.get(topicPartition));
    }

    /** The threads per directory that close the logs at shutdown now ({@code num.recovery.threads.per.data.dir}). */
    public int numRecoveryThreadsPerDataDir() {
        return numRecoveryThreadsPerDataDir;
    }

    /** Sets the threads per directory that close the logs at shutdown (Kafka's {@code resizeRecoveryThreadPool}). */
    public void resizeRecoveryThreadPool(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("num.recovery.threads.per.data.dir must be at least 1: " + threads);
        }
        numRecoveryThreadsPerDataDir = threads;
    }

    /** The log cleaner, when {@code log.cleaner.enable} started one. */
    public Optional<LogCleaner> cleaner() {
        return Optional.ofNullable(cleaner);
    }

    /** Every log, in no particular order; a copy. */
    public List<UnifiedLog> allLogs() {
        return List.copyOf(currentLogs.values());
    }

    /**
     * The log of {@code topicPartition}, created empty in the directory with the fewest logs if there is none,
     * its {@code partition.metadata} holding {@code topicId}.
     *
     * @param config the topic's settings, for a new log
     * @throws InconsistentTopicIdException if the log exists with another topic id
     * @throws KafkaStorageException        if its log directory went offline, or none is left for a new log
     */
    public UnifiedLog getOrCreateLog(TopicPartition topicPartition, Optional<Uuid> topicId, LogConfig config)
            throws IOException {
        synchronized (logCreationOrDeletionLock) {
            UnifiedLog existing = currentLogs.get(topicPartition);
            if (existing != null) {
                if (topicId.isPresent() && existing.topicId().isPresent() && !topicId.equals(existing.topicId())) {
                    throw new InconsistentTopicIdException("Tried to assign topic ID " + topicId.get() + " to log for "
                            + "topic partition " + topicPartition + ", but log already contained topic ID "
                            + existing.topicId().get());
                }
                return existing;
            }
            if (offlinePartitions.contains(topicPartition)) {
                throw new KafkaStorageException("The log of " + topicPartition + " is in an offline log directory");
            }
            Path logDir = nextLogDir();
            Path dir = logDir.resolve(LogDirNames.logDirName(topicPartition));
            UnifiedLog log;
            try {
                log = UnifiedLog.create(
                        dir,
                        config,
                        0,
                        0,
                        scheduler,
                        time,
                        this.config.maxTransactionTimeoutMs(),
                        producerStateManagerConfig,
                        this.config.producerIdExpirationCheckIntervalMs(),
                        true,
                        topicId,
                        this.config.remoteLogStorageSystemEnable(),
                        logDirFailureChannel);
            } catch (IOException e) {
                // Its files in the failing directory are in a state not known, and the next start recovers them from
                // there: made again in another directory, the partition would have two logs. Kafka marks the
                // partition offline when its log cannot be created.
                offlinePartitions.add(topicPartition);
                failed(logDir, "Error while creating log for " + topicPartition + " in dir " + logDir, e);
                throw e;
            }
            currentLogs.put(topicPartition, log);
            LOG.log(
                    System.Logger.Level.INFO,
                    "Created log for partition " + topicPartition + " in " + dir + " with properties " + config);
            return log;
        }
    }

    private Path nextLogDir() {
        return liveLogDirs.stream()
                .min(Comparator.comparingLong(dir -> logsIn(dir).size()))
                .orElseThrow(() -> new KafkaStorageException("No log directories available. Tried " + logDirs));
    }

    /** Gives every log of {@code topic} its new settings (AlterConfigs). */
    public void updateTopicConfig(String topic, LogConfig newConfig) {
        currentLogs.values().stream()
                .filter(log -> log.topicPartition().topic().equals(topic))
                .forEach(log -> log.updateConfig(newConfig));
    }

    /**
     * Deletes the log of {@code topicPartition}: its directory is renamed at once to
     * {@code <topic>-<partition>.<unique id>-delete}, which readers and restarts no longer take for the partition,
     * and removed {@code log.segment.delete.delay.ms} later.
     *
     * @return the log, if there was one
     */
    public Optional<UnifiedLog> deleteLog(TopicPartition topicPartition) throws IOException {
        synchronized (logCreationOrDeletionLock) {
            UnifiedLog removed = currentLogs.remove(topicPartition);
            if (removed == null) {
                return Optional.empty();
            }
            Path logDir = logDirOf(removed);
            if (cleaner != null) {
                // The cleaner stops writing into the directory, and forgets the partition.
                cleaner.abortCleaning(topicPartition);
                cleaner.updateCheckpoints(logDir, Optional.of(topicPartition));
            }
            try {
                removed.renameDir(LogDirNames.logDeleteDirName(topicPartition));
                List<UnifiedLog> remaining = logsIn(logDir);
                LogDirCheckpoints dirCheckpoints = checkpoints.get(logDir);
                dirCheckpoints.writeRecoveryPoints(remaining);
                dirCheckpoints.writeLogStartOffsets(remaining);
                dirCheckpoints.writeHighWatermarks(remaining);
            } catch (IOException e) {
                failed(logDir, "Error while deleting the log of " + topicPartition + " in dir " + logDir, e);
                throw e;
            }
            addLogToBeDeleted(removed);
            LOG.log(
                    System.Logger.Level.INFO,
                    "Log for partition " + topicPartition + " is renamed to " + removed.dir()
                            + " and is scheduled for deletion");
            return Optional.of(removed);
        }
    }

    private void addLogToBeDeleted(UnifiedLog log) {
        logsToBeDeleted.add(Map.entry(log, time.millis()));
    }

    /** Whether deleted logs wait for the removal of their directories. */
    public boolean hasLogsToBeDeleted() {
        return !logsToBeDeleted.isEmpty();
    }

    // The periodic tasks; each goes on with the next log when one fails.

    /**
     * Removes the directories of deleted logs whose delay is over, then runs again when the next one is due:
     * Kafka's {@code deleteLogs}.
     */
    public void deleteLogs() {
        long nextDelayMs = config.fileDeleteDelayMs();
        try {
            while (true) {
                Map.Entry<UnifiedLog, Long> next = logsToBeDeleted.peek();
                if (next == null) {
                    break;
                }
                nextDelayMs = next.getValue() + config.fileDeleteDelayMs() - time.millis();
                if (nextDelayMs > 0) {
                    break;
                }
                logsToBeDeleted.remove(next);
                UnifiedLog log = next.getKey();
                try {
                    log.delete();
                    LOG.log(
                            System.Logger.Level.INFO,
                            "Deleted log for partition " + log.topicPartition() + " in " + log.dir());
                } catch (IOException | RuntimeException e) {
                    failed(logDirOf(log), "Exception while deleting " + log + " in dir " + log.dir(), e);
                }
            }
        } finally {
            if (!tasks.isEmpty()) {
                tasks.add(scheduler.scheduleOnce("kafka-delete-logs", this::deleteLogs, Math.max(0, nextDelayMs)));
            }
        }
    }

    /**
     * Deletes the old segments of each log that is not compacted, by retention: Kafka's {@code cleanupLogs}. Their
     * cleaning is paused meanwhile, as their policy may just have changed from compact; the cleaner threads do the
     * compacted logs' retention themselves (without the cleaner, they keep every segment, as in Kafka).
     */
    public void cleanupLogs() {
        LogCleaner current = cleaner;
        List<UnifiedLog> deletable = current != null
                ? current.pauseCleaningForNonCompactedPartitions()
                : allLogs().stream().filter(log -> !log.config().isCompact()).toList();
        try {
            for (UnifiedLog log : deletable) {
                try {
                    log.deleteOldSegments();
                } catch (IOException | RuntimeException e) {
                    failed(logDirOf(log), "Error while deleting old segments of " + log.topicPartition(), e);
                }
            }
        } finally {
            if (current != null) {
                current.resumeCleaning(
                        deletable.stream().map(UnifiedLog::topicPartition).toList());
            }
        }
    }

    /** Flushes each log not flushed for {@code flush.ms}: Kafka's {@code flushDirtyLogs}. */
    public void flushDirtyLogs() {
        for (UnifiedLog log : allLogs()) {
            try {
                if (time.millis() - log.lastFlushTime() >= log.config().flushMs()) {
                    log.flush(false);
                }
            } catch (IOException | RuntimeException e) {
                failed(logDirOf(log), "Error flushing topic " + log.topicPartition(), e);
            }
        }
    }

    /**
     * Writes each directory's {@code recovery-point-offset-checkpoint}, then deletes the producer snapshots recovery
     * will no longer start from.
     */
    public void checkpointLogRecoveryOffsets() {
        forEachDir("recovery point", (dirCheckpoints, logs) -> {
            dirCheckpoints.writeRecoveryPoints(logs);
            for (UnifiedLog log : logs) {
                log.deleteSnapshotsAfterRecoveryPointCheckpoint();
            }
        });
    }

    /** Writes each directory's {@code log-start-offset-checkpoint}. */
    public void checkpointLogStartOffsets() {
        forEachDir("log start offset", LogDirCheckpoints::writeLogStartOffsets);
    }

    /** Writes each directory's {@code replication-offset-checkpoint}. */
    public void checkpointHighWatermarks() {
        forEachDir("high watermark", LogDirCheckpoints::writeHighWatermarks);
    }

    @FunctionalInterface
    private interface DirCheckpoint {
        void write(LogDirCheckpoints checkpoints, List<UnifiedLog> logs) throws IOException;
    }

    private void forEachDir(String what, DirCheckpoint checkpoint) {
        for (Path dir : liveLogDirs) {
            try {
                checkpoint.write(checkpoints.get(dir), logsIn(dir));
            } catch (IOException | RuntimeException e) {
                failed(dir, "Disk error while writing the " + what + " checkpoint of " + dir, e);
            }
        }
    }

    private List<UnifiedLog> logsIn(Path logDir) {
        return currentLogs.values().stream()
                .filter(log -> logDirOf(log).equals(logDir))
                .toList();
    }

    private static Path logDirOf(UnifiedLog log) {
        return log.dir().toAbsolutePath().normalize().getParent();
    }

    /** {@code shutdown(-1)}: a clean shutdown without a broker epoch. */
    @Override
    public void close() throws IOException {
        shutdown(-1);
    }

    /**
     * Shuts down cleanly, as Kafka: stops the periodic tasks; in each directory closes every log (flushed, producer
     * snapshot at the end, indexes trimmed) on {@code num.recovery.threads.per.data.dir} threads, writes the
     * checkpoints and then the clean shutdown marker, so the next startup recovers nothing; releases the
     * directories. A directory where a log failed to close gets no marker, nor does an offline one, which is not
     * written to at all.
     *
     * @param brokerEpoch the broker epoch the marker records, or -1
     */
    public void shutdown(long brokerEpoch) throws IOException {
        stopCleaner();
        tasks.forEach(task -> task.cancel(false));
        tasks.clear();
        IOException failure = null;
        for (Path dir : liveLogDirs) {
            try {
                shutdownDir(dir, brokerEpoch);
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "Error while shutting down the logs of " + dir, e);
                if (failure == null) {
                    failure = e instanceof IOException io ? io : new IOException(e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        dirLocks.release();
        if (failure != null) {
            throw failure;
        }
    }

    // First, as Kafka: a cleaning under way stops before the logs close.
    private void stopCleaner() {
        LogCleaner current = cleaner;
        if (current == null) {
            return;
        }
        try {
            current.shutdown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.log(System.Logger.Level.WARNING, "Interrupted while stopping the log cleaner", e);
        }
    }

    private void shutdownDir(Path dir, long brokerEpoch) throws IOException {
        List<UnifiedLog> logs = logsIn(dir);
        List<Callable<Void>> closes = new ArrayList<>();
        for (UnifiedLog log : logs) {
            closes.add(() -> close(log));
        }
        for (Map.Entry<UnifiedLog, Long> deleted : logsToBeDeleted) {
            if (logDirOf(deleted.getKey()).equals(dir)) {
                closes.add(() -> close(deleted.getKey()));
            }
        }
        IOException failure = LogDirTasks.runAll("log-closing", numRecoveryThreadsPerDataDir, closes, "close a log")
                .failure();
        if (failure != null) {
            throw failure;
        }
        LogDirCheckpoints dirCheckpoints = checkpoints.get(dir);
        dirCheckpoints.writeRecoveryPoints(logs);
        dirCheckpoints.writeLogStartOffsets(logs);
        dirCheckpoints.writeHighWatermarks(logs);
        if (Files.isDirectory(dir)) {
            new CleanShutdownFile(dir).write(brokerEpoch);
        }
        logs.forEach(log -> currentLogs.remove(log.topicPartition(), log));
    }

    private static Void close(UnifiedLog log) throws IOException {
        log.close();
        return null;
    }

    @Override
    public String toString() {
        return "LogManager(" + logDirs + ", " + currentLogs.size() + " logs)";
    }
}
