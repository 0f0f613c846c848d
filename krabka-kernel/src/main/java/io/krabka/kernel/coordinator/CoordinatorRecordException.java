package io.krabka.kernel.coordinator;

/**
 * A record of a coordinator's log ({@code __consumer_offsets}, {@code __transaction_state}) that does not decode:
 * truncated, or of a version Kafka never wrote.
 */
public final class CoordinatorRecordException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public CoordinatorRecordException(String message) {
        super(message);
    }
}
