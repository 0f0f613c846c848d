package io.krabka.kernel.record;

/** Bytes that fail their checksum or whose framing cannot be trusted: Kafka's {@code CORRUPT_MESSAGE}. */
public final class CorruptRecordException extends RecordException {

    private static final long serialVersionUID = 1L;

    /** An error with its message. */
    public CorruptRecordException(String message) {
        super(message);
    }

    /** An error with its message and the failure beneath it. */
    public CorruptRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
