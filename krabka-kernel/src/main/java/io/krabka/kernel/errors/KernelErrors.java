package io.krabka.kernel.errors;

import io.krabka.kernel.log.InconsistentTopicIdException;
import io.krabka.kernel.log.InvalidProducerEpochException;
import io.krabka.kernel.log.InvalidTxnStateException;
import io.krabka.kernel.log.KafkaStorageException;
import io.krabka.kernel.log.OffsetOutOfRangeException;
import io.krabka.kernel.log.OutOfOrderSequenceException;
import io.krabka.kernel.log.ProducerStateException;
import io.krabka.kernel.log.RecordBatchTooLargeException;
import io.krabka.kernel.log.TransactionCoordinatorFencedException;
import io.krabka.kernel.record.CorruptRecordException;
import io.krabka.kernel.record.InvalidRecordException;
import io.krabka.kernel.record.InvalidTimestampException;
import io.krabka.kernel.record.RecordException;
import io.krabka.kernel.record.RecordTooLargeException;
import io.krabka.kernel.record.RecordValidationException;
import io.krabka.kernel.record.UnsupportedCompressionTypeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.protocol.Errors;

/**
 * The wire error of a failure of the kernel (the log engine's exceptions, I/O errors, Kafka's own API exceptions), as
 * Kafka's {@code Errors.forException} maps its own: the one mapping, which handlers and the coordinators use rather
 * than catching the kernel's exceptions themselves.
 */
public final class KernelErrors {

    private KernelErrors() {}

    /** Kafka's error code for {@code error}; UNKNOWN_SERVER_ERROR for a failure Kafka has no code for. */
    public static Errors forException(Throwable error) {
        return switch (error) {
            case RecordException e -> forRecordException(e);
            case ProducerStateException e -> forProducerStateException(e);
            case RecordBatchTooLargeException e -> Errors.RECORD_LIST_TOO_LARGE;
            case OffsetOutOfRangeException e -> Errors.OFFSET_OUT_OF_RANGE;
            case InconsistentTopicIdException e -> Errors.INCONSISTENT_TOPIC_ID;
            case KafkaStorageException e -> Errors.KAFKA_STORAGE_ERROR;
            case IOException e -> Errors.KAFKA_STORAGE_ERROR;
            case UncheckedIOException e -> Errors.KAFKA_STORAGE_ERROR;
            case ApiException e -> Errors.forException(e);
            default -> Errors.UNKNOWN_SERVER_ERROR;
        };
    }

    private static Errors forRecordException(RecordException error) {
        return switch (error) {
            case CorruptRecordException e -> Errors.CORRUPT_MESSAGE;
            case InvalidRecordException e -> Errors.INVALID_RECORD;
            case RecordTooLargeException e -> Errors.MESSAGE_TOO_LARGE;
            case InvalidTimestampException e -> Errors.INVALID_TIMESTAMP;
            case UnsupportedCompressionTypeException e -> Errors.UNSUPPORTED_COMPRESSION_TYPE;
            case RecordValidationException e -> forRecordException(e.invalidException());
        };
    }

    private static Errors forProducerStateException(ProducerStateException error) {
        return switch (error) {
            case InvalidProducerEpochException e -> Errors.INVALID_PRODUCER_EPOCH;
            case OutOfOrderSequenceException e -> Errors.OUT_OF_ORDER_SEQUENCE_NUMBER;
            case InvalidTxnStateException e -> Errors.INVALID_TXN_STATE;
            case TransactionCoordinatorFencedException e -> Errors.TRANSACTION_COORDINATOR_FENCED;
        };
    }
}
