package io.krabka.kernel.record;

/** A batch larger than the configured maximum, or one that decompresses past its bound: Kafka's {@code MESSAGE_TOO_LARGE}. */
public final class RecordTooLargeException extends RecordException {

    private static final long serialVersionUID = 1L;

    /** An error with its message. */
    public RecordTooLargeException(String message) {
        super(message);
    }

    /** An error with its message and the failure beneath it. */
    public RecordTooLargeException(String message, Throwable cause) {
        super(message, cause);
    }
}
