package io.krabka.kernel.group;

import io.krabka.kernel.errors.KernelErrors;
import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.ProducerAppendInfo;
import io.krabka.kernel.log.RecordBatchTooLargeException;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.RecordTooLargeException;
import io.krabka.kernel.record.TimestampType;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.function.IntUnaryOperator;
import org.apache.kafka.common.protocol.Errors;

/**
 * Writes the coordinator's records to {@code __consumer_offsets}: one batch per call, in the codec of
 * {@code offsets.topic.compression.codec}, appended as the leader with {@link AppendOrigin#COORDINATOR}; then the
 * high watermark moves to the log end, since this node is the partition's whole ISR.
 */
final class OffsetsTopicWriter implements CoordinatorWriter {

    private static final System.Logger LOG = System.getLogger(OffsetsTopicWriter.class.getName());

    private final LogManager logManager;
    private final OffsetsTopic topic;
    private final Compression compression;
    private final InstantSource time;
    private final IntUnaryOperator leaderEpoch;

    /**
     * A writer.
     *
     * @param leaderEpoch the current leader epoch of a partition
     */
    OffsetsTopicWriter(
            LogManager logManager,
            OffsetsTopic topic,
            CompressionType compression,
            InstantSource time,
            IntUnaryOperator leaderEpoch) {
        this.logManager = Objects.requireNonNull(logManager, "logManager");
        this.topic = Objects.requireNonNull(topic, "topic");
        this.compression = Compression.of(compression);
        this.time = Objects.requireNonNull(time, "time");
        this.leaderEpoch = Objects.requireNonNull(leaderEpoch, "leaderEpoch");
    }

    @Override
    public void append(String groupId, List<CoordinatorRecord> records) {
        int partition = topic.partitionFor(groupId);
        TopicPartition tp = new TopicPartition(OffsetsTopic.NAME, partition);
        UnifiedLog log = logManager
                .getLog(tp)
                .orElseThrow(() -> Errors.NOT_COORDINATOR.exception("this broker has no log of " + tp));
        long now = time.millis();
        RecordBatchBuilder builder = new RecordBatchBuilder(compression, TimestampType.CREATE_TIME, 0);
        for (CoordinatorRecord record : records) {
            byte[] value = CoordinatorRecordSerde.serializeValue(record);
            builder.append(now, CoordinatorRecordSerde.serializeKey(record), value);
        }
        ByteBuffer batch = builder.build();
        try {
            log.appendAsLeader(
                    batch, leaderEpoch.applyAsInt(partition), AppendOrigin.COORDINATOR, ProducerAppendInfo.TV_UNKNOWN);
            log.updateHighWatermark(log.logEndOffset());
        } catch (RecordTooLargeException | RecordBatchTooLargeException e) {
            // Kept apart: an offset commit too large for the log is INVALID_COMMIT_OFFSET_SIZE.
            throw new org.apache.kafka.common.errors.RecordTooLargeException(e.getMessage());
        } catch (IOException | RuntimeException e) {
            Errors error = coordinatorError(KernelErrors.forException(e));
            if (error == Errors.NOT_COORDINATOR) {
                LOG.log(System.Logger.Level.WARNING, "Could not append to " + tp, e);
            }
            throw error.exception("the log of " + tp + " failed: " + e.getMessage());
        }
    }

    /**
     * What a group client is answered for a failed write of the coordinator's log, as Kafka's group coordinator
     * answers it: a partition that is gone or cannot take the write means another coordinator, or none yet.
     */
    static Errors coordinatorError(Errors logError) {
        return switch (logError) {
            case UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS, REQUEST_TIMED_OUT -> Errors.COORDINATOR_NOT_AVAILABLE;
            case NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR -> Errors.NOT_COORDINATOR;
            case MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE, INVALID_FETCH_SIZE -> Errors.UNKNOWN_SERVER_ERROR;
            default -> logError;
        };
    }
}
