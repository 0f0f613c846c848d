package io.krabka.kernel.log;

import java.io.Serial;

/**
 * A read or a log start offset outside the log: below its start, past its end, or above the high watermark. Kafka's
 * {@code OFFSET_OUT_OF_RANGE}.
 */
public final class OffsetOutOfRangeException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    /** An error with its message. */
    public OffsetOutOfRangeException(String message) {
        super(message);
    }

    /** An error with its message and the failure that revealed it. */
    public OffsetOutOfRangeException(String message, Throwable cause) {
        super(message, cause);
    }
}
