package io.krabka.kernel.record;

/** A compression codec id the format does not define: Kafka's {@code UNSUPPORTED_COMPRESSION_TYPE}. */
public final class UnsupportedCompressionTypeException extends RecordException {

    private static final long serialVersionUID = 1L;

    /** An error with its message. */
    public UnsupportedCompressionTypeException(String message) {
        super(message);
    }

    /** An error with its message and the failure beneath it. */
    public UnsupportedCompressionTypeException(String message, Throwable cause) {
        super(message, cause);
    }
}
