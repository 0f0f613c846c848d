package io.krabka.spi.storage;

import java.io.Serial;

/**
 * The remote storage manager holds the data but serves no reads of it, as a write-only archive does. The broker
 * answers such a fetch with {@code OFFSET_OUT_OF_RANGE}, as if the offsets were gone, while offset lookups still
 * answer from the remote metadata.
 */
public class RemoteFetchRefusedException extends RemoteStorageException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * A refused read, described by a message that says why.
     *
     * @param message why the read is refused
     */
    public RemoteFetchRefusedException(String message) {
        super(message);
    }
}
