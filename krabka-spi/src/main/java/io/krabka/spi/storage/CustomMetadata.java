package io.krabka.spi.storage;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Opaque bytes that a {@link RemoteStorageManager} returns from a copy and gets back with the segment's
 * metadata (KIP-917): an object key, a size, a receipt. The broker stores them but never reads them.
 *
 * @param value the bytes; copied in and out, so the record stays immutable
 */
public record CustomMetadata(byte[] value) {

    /** Copies the bytes. */
    public CustomMetadata {
        value = Objects.requireNonNull(value, "value").clone();
    }

    /** {@return a copy of the bytes} */
    @Override
    public byte[] value() {
        return value.clone();
    }

    /** {@return the number of bytes} */
    public int size() {
        return value.length;
    }

    /**
     * Checks the size against the broker's cap ({@code remote.log.metadata.custom.metadata.max.bytes},
     * 128 bytes by default in Kafka).
     *
     * @param maxBytes the broker's cap, in bytes
     * @throws CustomMetadataSizeLimitExceededException if the bytes are more than {@code maxBytes}
     */
    public void checkSize(int maxBytes) throws CustomMetadataSizeLimitExceededException {
        if (value.length > maxBytes) {
            throw new CustomMetadataSizeLimitExceededException(value.length, maxBytes);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CustomMetadata that && Arrays.equals(value, that.value);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "CustomMetadata[" + HexFormat.of().formatHex(value) + "]";
    }
}
