package io.krabka.kernel.coordinator;

import io.krabka.kernel.errors.KernelErrors;
import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.LogAppendInfo;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.ProducerAppendInfo;
import io.krabka.kernel.log.RecordBatchTooLargeException;
import io.krabka.kernel.log.TransactionResult;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.VerificationGuard;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.EndTransactionMarker;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.RecordTooLargeException;
import io.krabka.kernel.record.TimestampType;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.protocol.Errors;

/**
 * Appends a coordinator's records to its partition: one batch per call, as the leader with
 * {@link AppendOrigin#COORDINATOR}; then the high watermark moves to the log end, since this node is the partition's
 * whole ISR. A failed write is answered as Kafka's coordinators answer it ({@link #coordinatorError}).
 */
public final class CoordinatorLogWriter {

    private static final System.Logger LOG = System.getLogger(CoordinatorLogWriter.class.getName());

    private final LogManager logManager;
    private final InstantSource time;

    /** A writer to the logs of {@code logManager}, stamping records with {@code time}. */
    public CoordinatorLogWriter(LogManager logManager, InstantSource time) {
        this.logManager = Objects.requireNonNull(logManager, "logManager");
        this.time = Objects.requireNonNull(time, "time");
    }

    /** A record to write: its key and value (null for a tombstone). */
    public record KeyValue(byte[] key, byte[] value) {
        /** Checks the key. */
        public KeyValue {
            Objects.requireNonNull(key, "key");
        }
    }

    /**
     * The producer of a transactional batch (a transactional offset commit).
     *
     * @param guard the verification the partition started for this transaction
     */
    public record TransactionalProducer(long producerId, short producerEpoch, VerificationGuard guard) {
        /** Checks the guard. */
        public TransactionalProducer {
            Objects.requireNonNull(guard, "guard");
        }
    }

    /**
     * Appends {@code records} as one non-transactional batch.
     *
     * @throws ApiException with the coordinator's error if the write fails; a batch too large for the log is
     *                      {@link org.apache.kafka.common.errors.RecordTooLargeException}
     */
    public LogAppendInfo append(
            TopicPartition partition, int leaderEpoch, Compression compression, List<KeyValue> records) {
        return append(partition, leaderEpoch, compression, records, null);
    }

    /**
     * Appends {@code records} as one batch, of {@code producer}'s transaction if it is not null.
     *
     * @throws ApiException with the coordinator's error if the write fails (INVALID_TXN_STATE when the
     *                      verification of the transaction was ended by a marker since)
     */
    public LogAppendInfo append(
            TopicPartition partition,
            int leaderEpoch,
            Compression compression,
            List<KeyValue> records,
            TransactionalProducer producer) {
        UnifiedLog log = logManager
                .getLog(partition)
                .orElseThrow(() -> Errors.NOT_COORDINATOR.exception("this broker has no log of " + partition));
        long now = time.millis();
        RecordBatchBuilder builder = new RecordBatchBuilder(compression, TimestampType.CREATE_TIME, 0);
        if (producer != null) {
            // Kafka's coordinators write transactional offsets from sequence 0, which nothing checks.
            builder.producer(producer.producerId(), producer.producerEpoch(), 0).transactional(true);
        }
        for (KeyValue record : records) {
            builder.append(now, record.key(), record.value());
        }
        ByteBuffer batch = builder.build();
        try {
            LogAppendInfo info = log.appendAsLeader(
                    batch,
                    leaderEpoch,
                    AppendOrigin.COORDINATOR,
                    ProducerAppendInfo.TV_UNKNOWN,
                    producer == null ? VerificationGuard.SENTINEL : producer.guard());
            log.updateHighWatermark(log.logEndOffset());
            return info;
        } catch (RecordTooLargeException | RecordBatchTooLargeException e) {
            // Kept apart: an offset commit too large for the log is INVALID_COMMIT_OFFSET_SIZE.
            throw new org.apache.kafka.common.errors.RecordTooLargeException(e.getMessage());
        } catch (IOException | RuntimeException e) {
            Errors error = coordinatorError(KernelErrors.forException(e));
            if (error == Errors.NOT_COORDINATOR) {
                LOG.log(System.Logger.Level.WARNING, "Could not append to " + partition, e);
            }
            throw error.exception("the log of " + partition + " failed: " + e.getMessage());
        }
    }

    /**
     * Appends an end-transaction marker for {@code producerId}'s transaction.
     *
     * @param transactionVersion the transaction version the transaction ended at
     * @throws ApiException with the coordinator's error if the write fails
     */
    public LogAppendInfo appendMarker(
            TopicPartition partition,
            int leaderEpoch,
            long producerId,
            short producerEpoch,
            TransactionResult result,
            int coordinatorEpoch,
            short transactionVersion) {
        UnifiedLog log = logManager
                .getLog(partition)
                .orElseThrow(() -> Errors.NOT_COORDINATOR.exception("this broker has no log of " + partition));
        ByteBuffer batch = markerBatch(producerId, producerEpoch, result, coordinatorEpoch, time.millis());
        try {
            LogAppendInfo info = log.appendAsLeader(batch, leaderEpoch, AppendOrigin.COORDINATOR, transactionVersion);
            log.updateHighWatermark(log.logEndOffset());
            return info;
        } catch (IOException | RuntimeException e) {
            throw KernelErrors.forException(e)
                    .exception("the marker of producer " + producerId + " in " + partition + " was not written: "
                            + e.getMessage());
        }
    }

    /** The control batch of an end-transaction marker, as Kafka's {@code MemoryRecords.withEndTransactionMarker}. */
    public static ByteBuffer markerBatch(
            long producerId, short producerEpoch, TransactionResult result, int coordinatorEpoch, long timestamp) {
        ControlRecordType type =
                result == TransactionResult.COMMIT ? ControlRecordType.COMMIT : ControlRecordType.ABORT;
        return new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0)
                .producer(producerId, producerEpoch, -1)
                .control(true)
                .appendEndTxnMarker(timestamp, new EndTransactionMarker(type, coordinatorEpoch))
                .build();
    }

    /**
     * What a client of a coordinator is answered for a failed write of the coordinator's log, as Kafka's coordinators
     * answer it: a partition that is gone or cannot take the write means another coordinator, or none yet.
     */
    public static Errors coordinatorError(Errors logError) {
        return switch (logError) {
            case UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND, REQUEST_TIMED_OUT ->
                Errors.COORDINATOR_NOT_AVAILABLE;
            case NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR -> Errors.NOT_COORDINATOR;
            case MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE, INVALID_FETCH_SIZE -> Errors.UNKNOWN_SERVER_ERROR;
            default -> logError;
        };
    }
}
