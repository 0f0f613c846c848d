package io.krabka.kernel.record;

/** A record or batch that is well framed but breaks a rule of the format or of the produce path: Kafka's {@code INVALID_RECORD}. */
public final class InvalidRecordException extends RecordException {

    private static final long serialVersionUID = 1L;

    /** An error with its message. */
    public InvalidRecordException(String message) {
        super(message);
    }

    /** An error with its message and the failure beneath it. */
    public InvalidRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
