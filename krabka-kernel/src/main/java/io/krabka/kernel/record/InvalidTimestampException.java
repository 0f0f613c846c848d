package io.krabka.kernel.record;

/** A record timestamp the topic does not accept: Kafka's {@code INVALID_TIMESTAMP}. */
public final class InvalidTimestampException extends RecordException {

    private static final long serialVersionUID = 1L;

    /** An error with its message. */
    public InvalidTimestampException(String message) {
        super(message);
    }

    /** An error with its message and the failure beneath it. */
    public InvalidTimestampException(String message, Throwable cause) {
        super(message, cause);
    }
}
