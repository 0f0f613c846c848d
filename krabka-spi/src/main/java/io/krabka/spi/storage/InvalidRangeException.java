package io.krabka.spi.storage;

import java.io.Serial;

/**
 * A byte range that a remote segment cannot serve: negative, reversed, or starting beyond the end of the
 * segment.
 */
public class InvalidRangeException extends RemoteStorageException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * An invalid range, described by a message that gives the range and the segment.
     *
     * @param message the range and the segment
     */
    public InvalidRangeException(String message) {
        super(message);
    }
}
