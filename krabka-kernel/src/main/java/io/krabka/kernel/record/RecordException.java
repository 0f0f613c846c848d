package io.krabka.kernel.record;

/**
 * The base of the record format's typed errors. Each subclass matches the Kafka error a broker answers with, so
 * the network layer maps them to wire codes in one place. Messages name the source and byte position where there
 * is one.
 */
public abstract sealed class RecordException extends RuntimeException
        permits CorruptRecordException,
                InvalidRecordException,
                RecordTooLargeException,
                InvalidTimestampException,
                UnsupportedCompressionTypeException,
                RecordValidationException {

    private static final long serialVersionUID = 1L;

    RecordException(String message) {
        super(message);
    }

    RecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
