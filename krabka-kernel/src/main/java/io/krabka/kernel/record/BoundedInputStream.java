package io.krabka.kernel.record;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Counts the bytes read and fails once the count would pass a bound: the guard against decompression bombs. */
final class BoundedInputStream extends FilterInputStream {

    private final long bound;
    private long count;

    BoundedInputStream(InputStream in, long bound) {
        super(in);
        if (bound < 0) {
            throw new IllegalArgumentException("bound is negative: " + bound);
        }
        this.bound = bound;
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b >= 0) {
            counted(1);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = in.read(buffer, offset, length);
        if (n > 0) {
            counted(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = in.skip(n);
        counted(skipped);
        return skipped;
    }

    private void counted(long n) throws DecompressionBoundException {
        count += n;
        if (count > bound) {
            throw new DecompressionBoundException(bound);
        }
    }

    @Override
    public boolean markSupported() {
        return false;
    }
}
