package io.krabka.spi.storage;

import java.io.Serial;

/** The remote tier does not hold what was asked for: a segment, an index, or a partition's metadata. */
public class RemoteResourceNotFoundException extends RemoteStorageException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * A missing resource, described by a message that names it.
     *
     * @param message what is missing
     */
    public RemoteResourceNotFoundException(String message) {
        super(message);
    }

    /**
     * A missing resource, described by a message that names it, reported by another exception.
     *
     * @param message what is missing
     * @param cause   the exception that reported it
     */
    public RemoteResourceNotFoundException(String message, Throwable cause) {
        super(message, cause);
    }
}
