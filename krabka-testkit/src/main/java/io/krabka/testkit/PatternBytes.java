package io.krabka.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Deterministic test bytes. Every byte is a function of a seed and its position alone, so a rule can write a
 * segment larger than the heap and later check any range of it, or its digest, without ever holding it.
 */
final class PatternBytes {

    /** The buffer used to move large contents: one of these is all the heap a large segment costs the kit. */
    static final int CHUNK = 1 << 20;

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private PatternBytes() {}

    /** {@code length} bytes of the pattern from {@code position} on. */
    static byte[] bytes(long seed, long position, int length) {
        byte[] bytes = new byte[length];
        fill(seed, position, bytes, length);
        return bytes;
    }

    /**
     * Writes the first {@code size} bytes of the pattern to a new file through a fixed buffer.
     *
     * @return the SHA-256 digest of what was written
     */
    static byte[] write(Path file, long seed, long size) throws IOException {
        MessageDigest digest = sha256();
        byte[] buffer = new byte[(int) Math.min(CHUNK, size)];
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long done = 0; done < size; done += buffer.length) {
                int length = (int) Math.min(buffer.length, size - done);
                fill(seed, done, buffer, length);
                out.write(buffer, 0, length);
                digest.update(buffer, 0, length);
            }
        }
        return digest.digest();
    }

    /** The SHA-256 digest of the pattern from {@code from} to {@code to}, exclusive, computed chunk by chunk. */
    static byte[] digest(long seed, long from, long to) {
        MessageDigest digest = sha256();
        byte[] buffer = new byte[(int) Math.min(CHUNK, to - from)];
        for (long position = from; position < to; position += buffer.length) {
            int length = (int) Math.min(buffer.length, to - position);
            fill(seed, position, buffer, length);
            digest.update(buffer, 0, length);
        }
        return digest.digest();
    }

    /** The length and SHA-256 digest of everything a stream yields, read chunk by chunk; closes the stream. */
    static StreamDigest digest(InputStream stream) throws IOException {
        MessageDigest digest = sha256();
        byte[] buffer = new byte[CHUNK];
        long length = 0;
        try (stream) {
            for (int read = stream.read(buffer); read >= 0; read = stream.read(buffer)) {
                digest.update(buffer, 0, read);
                length += read;
            }
        }
        return new StreamDigest(length, digest.digest());
    }

    /** What {@link #digest(InputStream)} measured. */
    record StreamDigest(long length, byte[] sha256) {}

    private static void fill(long seed, long position, byte[] target, int length) {
        long word = 0;
        for (int i = 0; i < length; i++) {
            long at = position + i;
            if (i == 0 || (at & 7) == 0) {
                word = mix(seed + (at >>> 3) * GOLDEN);
            }
            target[i] = (byte) (word >>> ((at & 7) << 3));
        }
    }

    /** SplitMix64's finaliser: neighbouring words look unrelated. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }
}
