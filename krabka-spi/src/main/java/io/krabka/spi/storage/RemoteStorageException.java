package io.krabka.spi.storage;

import java.io.Serial;

/**
 * A failure of the remote tier: the base of the exceptions a {@link RemoteStorageManager} or
 * {@link RemoteLogMetadataManager} throws. Checked, as in Kafka, because every caller must decide between
 * retrying and giving up.
 */
public class RemoteStorageException extends Exception {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * A failure described by a message.
     *
     * @param message what failed
     */
    public RemoteStorageException(String message) {
        super(message);
    }

    /**
     * A failure described by a message, caused by another.
     *
     * @param message what failed
     * @param cause   the failure that caused it
     */
    public RemoteStorageException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * A failure caused by another.
     *
     * @param cause the failure that caused it, whose message this one takes
     */
    public RemoteStorageException(Throwable cause) {
        super(cause);
    }
}
