package io.krabka.kernel.log;

import io.krabka.kernel.log.checkpoint.OffsetCheckpointFile;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * A log directory's offset checkpoints: {@code recovery-point-offset-checkpoint} (where each log's recovery
 * starts), {@code log-start-offset-checkpoint} (each log start offset above its first segment, and every tiered
 * log's) and {@code replication-offset-checkpoint} (each high watermark). A checkpoint that cannot be read is taken as empty,
 * as Kafka does: logs then recover from their start, start at their first segment, and have their high watermark
 * at the log start, all safe.
 */
final class LogDirCheckpoints {

    private static final System.Logger LOG = System.getLogger(LogDirCheckpoints.class.getName());

    private final OffsetCheckpointFile recoveryPoints;
    private final OffsetCheckpointFile logStartOffsets;
    private final OffsetCheckpointFile highWatermarks;

    LogDirCheckpoints(Path logDir) {
        this.recoveryPoints =
                new OffsetCheckpointFile(logDir.resolve(OffsetCheckpointFile.RECOVERY_POINT_CHECKPOINT_FILE));
        this.logStartOffsets =
                new OffsetCheckpointFile(logDir.resolve(OffsetCheckpointFile.LOG_START_OFFSET_CHECKPOINT_FILE));
        this.highWatermarks =
                new OffsetCheckpointFile(logDir.resolve(OffsetCheckpointFile.REPLICATION_OFFSET_CHECKPOINT_FILE));
    }

    Map<TopicPartition, Long> recoveryPoints() {
        return read(recoveryPoints, "resetting the recovery checkpoint to 0");
    }

    Map<TopicPartition, Long> logStartOffsets() {
        return read(logStartOffsets, "resetting to the base offset of the first segment");
    }

    Map<TopicPartition, Long> highWatermarks() {
        return read(highWatermarks, "starting the high watermarks at the log start offsets");
    }

    private static Map<TopicPartition, Long> read(OffsetCheckpointFile file, String consequence) {
        try {
            return file.read();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Error occurred while reading " + file.file() + ", " + consequence, e);
            return Map.of();
        }
    }

    /** Writes each log's recovery point. */
    void writeRecoveryPoints(Collection<UnifiedLog> logs) throws IOException {
        recoveryPoints.write(offsets(logs, UnifiedLog::recoveryPoint));
    }

    /**
     * Writes the log start offsets of the tiered logs (whose start may lie below their first segment) and of the
     * logs whose start is above their first segment's base offset.
     */
    void writeLogStartOffsets(Collection<UnifiedLog> logs) throws IOException {
        logStartOffsets.write(offsets(
                logs.stream()
                        .filter(log -> log.remoteLogEnabled()
                                || log.logStartOffset()
                                        > log.localLog()
                                                .segments()
                                                .firstSegmentBaseOffset()
                                                .orElse(0L))
                        .toList(),
                UnifiedLog::logStartOffset));
    }

    /** Writes each log's high watermark. */
    void writeHighWatermarks(Collection<UnifiedLog> logs) throws IOException {
        highWatermarks.write(offsets(logs, UnifiedLog::highWatermark));
    }

    private static Map<TopicPartition, Long> offsets(Collection<UnifiedLog> logs, ToLongFunction<UnifiedLog> offset) {
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        logs.forEach(log -> offsets.put(log.topicPartition(), offset.applyAsLong(log)));
        return offsets;
    }
}
