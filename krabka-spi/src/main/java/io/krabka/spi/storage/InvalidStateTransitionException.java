package io.krabka.spi.storage;

import java.io.Serial;

/**
 * A change of a segment's or a partition's remote state that Kafka's lifecycle does not allow, such as
 * {@code COPY_SEGMENT_FINISHED} after {@code DELETE_SEGMENT_STARTED}.
 */
public class InvalidStateTransitionException extends IllegalStateException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * An illegal transition from one state to another, both named in the message.
     *
     * @param message the transition refused, naming both states
     */
    public InvalidStateTransitionException(String message) {
        super(message);
    }
}
