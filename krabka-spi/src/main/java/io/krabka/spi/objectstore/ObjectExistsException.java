package io.krabka.spi.objectstore;

import io.krabka.spi.storage.RemoteStorageException;
import java.io.Serial;

/** A create-only write found its key already holding an object, and wrote nothing. */
public class ObjectExistsException extends RemoteStorageException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * An existing object, described by a message that names its key.
     *
     * @param message what was refused, naming the key
     */
    public ObjectExistsException(String message) {
        super(message);
    }

    /**
     * An existing object, described by a message that names its key, as another exception reported it.
     *
     * @param message what was refused, naming the key
     * @param cause   the store client's exception that reported it
     */
    public ObjectExistsException(String message, Throwable cause) {
        super(message, cause);
    }
}
