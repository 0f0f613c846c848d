package io.krabka.kernel.log;

import java.io.Serial;

/**
 * A log used after it was closed or deleted, or whose files could not be written: Kafka's {@code
 * KAFKA_STORAGE_ERROR}.
 */
public final class KafkaStorageException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    /** An error with its message. */
    public KafkaStorageException(String message) {
        super(message);
    }
}
