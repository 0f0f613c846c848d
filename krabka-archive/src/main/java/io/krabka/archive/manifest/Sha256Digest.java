package io.krabka.archive.manifest;

import io.krabka.archive.internal.Hex;
import io.krabka.archive.internal.Sha256;
import java.util.Arrays;
import java.util.Objects;

/**
 * The SHA-256 digest of an object's bytes: a manifest entry's only integrity claim (its entity tag and version
 * are locators). Written as 64 lowercase hex digits.
 *
 * @param bytes the 32 bytes; copied in and out
 */
public record Sha256Digest(byte[] bytes) {

    /** Validates and copies the bytes. */
    public Sha256Digest {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length != 32) {
            throw new IllegalArgumentException("a SHA-256 digest has 32 bytes, not " + bytes.length);
        }
        bytes = bytes.clone();
    }

    /**
     * The digest of 64 hex digits, either case.
     *
     * @throws IllegalArgumentException if the text is not exactly 64 hex digits
     */
    public static Sha256Digest fromHex(String hex) {
        return new Sha256Digest(Hex.decode32(hex));
    }

    /** The digest of bytes held in memory. */
    public static Sha256Digest of(byte[] data) {
        return new Sha256Digest(Sha256.newDigest().digest(data));
    }

    /** A copy of the bytes. */
    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The 64 lowercase hex digits. */
    public String hex() {
        return Hex.encode(bytes);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Sha256Digest that && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return hex();
    }
}
