package io.krabka.kernel.metadata;

/** Bytes that are not a metadata record Krabka reads: a bad frame, an unknown record type or version, a cut record. */
public final class MetadataParseException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** An error with this message. */
    public MetadataParseException(String message) {
        super(message);
    }

    /** An error with this message and cause. */
    public MetadataParseException(String message, Throwable cause) {
        super(message, cause);
    }
}
