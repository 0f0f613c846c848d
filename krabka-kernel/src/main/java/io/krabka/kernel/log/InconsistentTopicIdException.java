package io.krabka.kernel.log;

import java.io.Serial;

/**
 * A log opened for a topic id other than the one its {@code partition.metadata} holds. Kafka's {@code
 * INCONSISTENT_TOPIC_ID}.
 */
public final class InconsistentTopicIdException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    /** An error with its message. */
    public InconsistentTopicIdException(String message) {
        super(message);
    }
}
