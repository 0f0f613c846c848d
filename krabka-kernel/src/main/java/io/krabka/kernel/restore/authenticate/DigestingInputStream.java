package io.krabka.kernel.restore.authenticate;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * A view of a stream that hashes with SHA-256 and counts every byte that passes. It extends {@link InputStream}
 * rather than {@code FilterInputStream} so that skipping, {@code transferTo} and the bulk reads all go through
 * {@link #read(byte[], int, int)}: a byte the reader skips is still hashed, and a skip cannot pass bytes unseen.
 * No mark: a reset would hash bytes twice.
 */
final class DigestingInputStream extends InputStream {

    private final InputStream in;
    private final MessageDigest sha256;
    private long count;

    DigestingInputStream(InputStream in) {
        this.in = Objects.requireNonNull(in, "in");
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b >= 0) {
            sha256.update((byte) b);
            count++;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) {
            sha256.update(b, off, n);
            count += n;
        }
        return n;
    }

    @Override
    public int available() throws IOException {
        return in.available();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /** The bytes read so far. */
    long count() {
        return count;
    }

    /** The SHA-256 of the bytes read; the digest is spent, so this is called once, after the last read. */
    byte[] digest() {
        return sha256.digest();
    }
}
