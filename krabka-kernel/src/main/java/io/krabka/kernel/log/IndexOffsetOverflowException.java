package io.krabka.kernel.log;

import java.io.Serial;

/**
 * An offset an index cannot hold: below the segment's base offset, or more than {@link Integer#MAX_VALUE} above
 * it, so that its relative offset does not fit the entry's int32. Kafka's name; unchecked, as there.
 */
public class IndexOffsetOverflowException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** An offset refused for the reason given. */
    public IndexOffsetOverflowException(String message) {
        super(message);
    }
}
