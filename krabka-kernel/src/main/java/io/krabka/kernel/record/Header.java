package io.krabka.kernel.record;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A record header: a UTF-8 key and a value that may be null.
 *
 * @param key   the key
 * @param value the value bytes (read-only), or null
 */
public record Header(String key, ByteBuffer value) {

    /** Checks the key and keeps a read-only view of the value. */
    public Header {
        Objects.requireNonNull(key, "key");
        value = value == null ? null : value.asReadOnlyBuffer();
    }

    /** A header with a byte-array value (null for none). */
    public static Header of(String key, byte[] value) {
        return new Header(key, value == null ? null : ByteBuffer.wrap(value));
    }
}
