package io.krabka.kernel.log;

import io.krabka.kernel.log.checkpoint.CleanShutdownFile;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * Loads the logs of one log directory at startup, as Kafka's {@code LogManager.loadLogs}: every partition directory
 * on a few threads, with the offsets the directory's checkpoints hold, recovered unless the clean shutdown marker
 * is there; a log renamed for deletion is loaded to be deleted. The KRaft metadata log is left to the controller,
 * and the directories of replica moves ({@code -future}) and of partitions the broker lost ({@code -stray}) are
 * left alone.
 */
final class LogDirLoading {

    private static final System.Logger LOG = System.getLogger(LogDirLoading.class.getName());

    /** Opens one partition directory. */
    @FunctionalInterface
    interface LogOpener {
        UnifiedLog open(Path dir, boolean hadCleanShutdown, long logStartOffset, long recoveryPoint) throws IOException;
    }

    /**
     * The logs of a directory.
     *
     * @param logs         the partitions' logs, their high watermarks restored
     * @param logsToDelete the logs of directories renamed for deletion
     */
    record Loaded(List<UnifiedLog> logs, List<UnifiedLog> logsToDelete) {

        /** Closes every log without writing to it. */
        void closeAll() {
            Stream.concat(logs.stream(), logsToDelete.stream()).forEach(LogDirLoading::closeQuietly);
        }
    }

    private LogDirLoading() {}

    static Loaded load(Path logDir, LogDirCheckpoints checkpoints, LogOpener opener, int threads) throws IOException {
        boolean hadCleanShutdown = new CleanShutdownFile(logDir).exists();
        Map<TopicPartition, Long> recoveryPoints = checkpoints.recoveryPoints();
        Map<TopicPartition, Long> logStartOffsets = checkpoints.logStartOffsets();
        Map<TopicPartition, Long> highWatermarks = checkpoints.highWatermarks();
        List<Path> partitionDirs = partitionDirs(logDir);
        // A directory with no logs yet (a first start) has no clean shutdown marker either, and nothing to recover.
        LOG.log(
                System.Logger.Level.INFO,
                "Loading " + partitionDirs.size() + " logs from log dir " + logDir
                        + (hadCleanShutdown || partitionDirs.isEmpty()
                                ? ""
                                : ", recovering them: the broker did not shut down cleanly"));
        List<Callable<UnifiedLog>> opens = new ArrayList<>();
        for (Path dir : partitionDirs) {
            TopicPartition topicPartition = LogDirNames.parseTopicPartitionName(dir);
            opens.add(() -> opener.open(
                    dir,
                    hadCleanShutdown,
                    logStartOffsets.getOrDefault(topicPartition, 0L),
                    recoveryPoints.getOrDefault(topicPartition, 0L)));
        }
        LogDirTasks.Outcome<UnifiedLog> outcome = LogDirTasks.runAll("log-recovery", threads, opens, "load a log");
        List<UnifiedLog> opened = outcome.results();
        if (outcome.failure() != null) {
            opened.forEach(LogDirLoading::closeQuietly);
            throw outcome.failure();
        }
        List<UnifiedLog> logs = new ArrayList<>();
        List<UnifiedLog> logsToDelete = new ArrayList<>();
        for (UnifiedLog log : opened) {
            if (LogDirNames.isDeleteDir(log.dir())) {
                logsToDelete.add(log);
            } else {
                Long highWatermark = highWatermarks.get(log.topicPartition());
                if (highWatermark != null) {
                    log.updateHighWatermark(highWatermark);
                }
                logs.add(log);
            }
        }
        return new Loaded(logs, logsToDelete);
    }

    private static List<Path> partitionDirs(Path logDir) throws IOException {
        List<Path> dirs = new ArrayList<>();
        try (Stream<Path> children = Files.list(logDir)) {
            for (Path dir : children.filter(Files::isDirectory).sorted().toList()) {
                String name = dir.getFileName().toString();
                if (LogDirNames.isRemoteIndexCache(dir)) {
                    continue;
                }
                if (name.endsWith(LogFileUtils.FUTURE_DIR_SUFFIX) || name.endsWith(LogFileUtils.STRAY_DIR_SUFFIX)) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "Leaving " + dir + " alone: replica moves and stray " + "partitions are not handled yet");
                } else if (!LogDirNames.parseTopicPartitionName(dir)
                        .topic()
                        .equals(LogManager.CLUSTER_METADATA_TOPIC)) {
                    dirs.add(dir);
                }
            }
        }
        return dirs;
    }

    private static void closeQuietly(UnifiedLog log) {
        try {
            log.closeHandlers();
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Could not close " + log, e);
        }
    }
}
