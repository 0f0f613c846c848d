package io.krabka.kernel.record;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A buffered stream whose buffer is borrowed from {@link DecompressionBuffers} and given back on close: reads of
 * a byte or a few reach the stream under it (a codec) in large pieces. One reader; reading after closing fails.
 */
final class PooledBufferedInputStream extends FilterInputStream {

    private final DecompressionBuffers buffers;
    private byte[] buffer;
    private int position;
    private int limit;

    PooledBufferedInputStream(InputStream in, DecompressionBuffers buffers) {
        super(in);
        this.buffers = buffers;
        this.buffer = buffers.take();
    }

    private void ensureOpen() throws IOException {
        if (buffer == null) {
            throw new IOException("stream is closed");
        }
    }

    // Whether there are bytes to read, filling the buffer if it is empty; false at the end of the stream.
    private boolean fill() throws IOException {
        ensureOpen();
        if (position < limit) {
            return true;
        }
        int n = in.read(buffer, 0, buffer.length);
        position = 0;
        limit = Math.max(n, 0);
        return n > 0;
    }

    @Override
    public int read() throws IOException {
        return fill() ? buffer[position++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        ensureOpen();
        if (length == 0) {
            return 0;
        }
        if (position == limit && length >= buffer.length) {
            // A large read goes straight to the stream under, as BufferedInputStream does.
            return in.read(bytes, offset, length);
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(length, limit - position);
        System.arraycopy(buffer, position, bytes, offset, n);
        position += n;
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        if (n <= 0 || !fill()) {
            return 0;
        }
        int skipped = (int) Math.min(n, limit - position);
        position += skipped;
        return skipped;
    }

    @Override
    public int available() throws IOException {
        return (limit - position) + (buffer == null ? 0 : in.available());
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    /** Gives the buffer back and closes the stream under. */
    @Override
    public void close() throws IOException {
        if (buffer != null) {
            buffers.give(buffer);
            buffer = null;
            position = 0;
            limit = 0;
        }
        in.close();
    }
}
