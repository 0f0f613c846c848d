package io.krabka.kernel.log;

import java.io.Serial;

/**
 * An append larger than the segment size ({@code segment.bytes}), which no segment could hold. Kafka's {@code
 * RECORD_LIST_TOO_LARGE}.
 */
public final class RecordBatchTooLargeException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    /** An error with its message. */
    public RecordBatchTooLargeException(String message) {
        super(message);
    }
}
