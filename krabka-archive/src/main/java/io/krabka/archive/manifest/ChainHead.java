package io.krabka.archive.manifest;

import io.krabka.archive.internal.Hex;
import io.krabka.archive.internal.Sha256;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Objects;

/**
 * A head of the manifest hash chain: {@code SHA-256(prev_head ‖ seq (u64 BE) ‖ value)}, where the value is a
 * manifest body's canonical bytes. Written as 64 lowercase hex digits.
 *
 * @param bytes the 32 bytes; copied in and out
 */
public record ChainHead(byte[] bytes) {

    /** The head before the first manifest of an epoch: 32 zero bytes. */
    public static final ChainHead GENESIS = new ChainHead(new byte[32]);

    /** Validates and copies the bytes. */
    public ChainHead {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length != 32) {
            throw new IllegalArgumentException("a chain head has 32 bytes, not " + bytes.length);
        }
        bytes = bytes.clone();
    }

    /**
     * The head of 64 hex digits, either case.
     *
     * @throws IllegalArgumentException if the text is not exactly 64 hex digits
     */
    public static ChainHead fromHex(String hex) {
        return new ChainHead(Hex.decode32(hex));
    }

    /** The head after this one of a value at a sequence number: {@code SHA-256(this ‖ seq ‖ value)}. */
    public ChainHead next(long seq, byte[] value) {
        MessageDigest sha256 = Sha256.newDigest();
        sha256.update(bytes);
        for (int shift = 56; shift >= 0; shift -= 8) {
            sha256.update((byte) (seq >>> shift));
        }
        sha256.update(value);
        return new ChainHead(sha256.digest());
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
        return other instanceof ChainHead that && Arrays.equals(bytes, that.bytes);
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
