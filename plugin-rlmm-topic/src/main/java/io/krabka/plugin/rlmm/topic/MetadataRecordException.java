package io.krabka.plugin.rlmm.topic;

/** A {@code __remote_log_metadata} record that is not one of Kafka's four record types as its schema says. */
public final class MetadataRecordException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A record that cannot be read, with why. */
    public MetadataRecordException(String message) {
        super(message);
    }

    /** A record that cannot be read, with why and what failed. */
    public MetadataRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
