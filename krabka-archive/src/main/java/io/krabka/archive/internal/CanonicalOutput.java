package io.krabka.archive.internal;

import io.krabka.spi.common.Uuid;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * The building blocks of the format's canonical encodings (§2.2 of the original): every integer big-endian, every
 * length prefix a {@code u64}, every string UTF-8, a UUID as its 16 raw bytes, an optional string as {@code 0u8}
 * or {@code 1u8} followed by the length-prefixed string.
 */
public final class CanonicalOutput {

    private byte[] bytes;
    private int length;

    /** An empty encoding with room for {@code capacity} bytes before it grows. */
    public CanonicalOutput(int capacity) {
        bytes = new byte[Math.max(16, capacity)];
    }

    /** Appends raw bytes: a domain string, a digest, a head. */
    public CanonicalOutput raw(byte[] value) {
        ensure(value.length);
        System.arraycopy(value, 0, bytes, length, value.length);
        length += value.length;
        return this;
    }

    /** Appends one byte. */
    public CanonicalOutput u8(int value) {
        ensure(1);
        bytes[length++] = (byte) value;
        return this;
    }

    /** Appends a 32-bit integer, signed or not. */
    public CanonicalOutput int32(long value) {
        ensure(4);
        for (int shift = 24; shift >= 0; shift -= 8) {
            bytes[length++] = (byte) (value >>> shift);
        }
        return this;
    }

    /** Appends a 64-bit integer, signed or not. */
    public CanonicalOutput int64(long value) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            bytes[length++] = (byte) (value >>> shift);
        }
        return this;
    }

    /** Appends a boolean as {@code 0u8} or {@code 1u8}. */
    public CanonicalOutput bool(boolean value) {
        return u8(value ? 1 : 0);
    }

    /** Appends a {@code u64} length and the UTF-8 bytes of a string. */
    public CanonicalOutput string(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        return int64(utf8.length).raw(utf8);
    }

    /** Appends {@code 0u8} for an absent string, else {@code 1u8} and the length-prefixed string. */
    public CanonicalOutput optionalString(Optional<String> value) {
        return value.isPresent() ? u8(1).string(value.get()) : u8(0);
    }

    /** Appends the 16 big-endian bytes of a UUID. */
    public CanonicalOutput uuid(Uuid value) {
        return int64(value.mostSignificantBits()).int64(value.leastSignificantBits());
    }

    /** The bytes appended so far. */
    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, length);
    }

    private void ensure(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }
}
