package io.krabka.kernel.restore.bound;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Bytes seen as ISO-8859-1 text, without copying: each byte is one char from U+0000 to U+00FF, so a regex sees
 * the raw bytes of a key or header value whatever their encoding, and {@code \xHH} in a regex names one byte.
 * The buffer's position and limit are never moved.
 */
final class ByteChars implements CharSequence {

    private final ByteBuffer bytes;

    ByteChars(ByteBuffer bytes) {
        this.bytes = bytes.slice();
    }

    @Override
    public int length() {
        return bytes.remaining();
    }

    @Override
    public char charAt(int index) {
        return (char) (bytes.get(index) & 0xFF);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return new ByteChars(bytes.slice(start, end - start));
    }

    @Override
    public String toString() {
        byte[] copy = new byte[bytes.remaining()];
        bytes.get(0, copy);
        return new String(copy, StandardCharsets.ISO_8859_1);
    }
}
