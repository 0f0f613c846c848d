package io.krabka.kernel.log;

import java.io.Serial;

/**
 * An index append whose offset does not follow the last entry's: offset index entries must strictly increase,
 * time index offsets must not go backwards. Kafka's name; unchecked, as there.
 */
public class InvalidOffsetException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** An append refused for the reason given. */
    public InvalidOffsetException(String message) {
        super(message);
    }
}
