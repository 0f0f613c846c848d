package io.krabka.spi.storage;

import java.io.Serial;

/**
 * Custom metadata returned by a copy is larger than the broker allows
 * ({@code remote.log.metadata.custom.metadata.max.bytes}).
 */
public class CustomMetadataSizeLimitExceededException extends RemoteStorageException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * Metadata of {@code size} bytes against a limit of {@code maxBytes}.
     *
     * @param size     the size of the custom metadata, in bytes
     * @param maxBytes the broker's limit, in bytes
     */
    public CustomMetadataSizeLimitExceededException(int size, int maxBytes) {
        super("custom metadata of " + size + " bytes exceeds the limit of " + maxBytes + " bytes");
    }
}
