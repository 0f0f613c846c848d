package io.krabka.kernel.record;

import java.io.InputStream;
import java.nio.ByteBuffer;

/** An input stream over a buffer's bytes from its position to its limit; it moves the position it is given. */
final class ByteBufferInputStream extends InputStream {

    private final ByteBuffer buffer;

    ByteBufferInputStream(ByteBuffer buffer) {
        this.buffer = buffer;
    }

    @Override
    public int read() {
        return buffer.hasRemaining() ? buffer.get() & 0xFF : -1;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) {
        if (length == 0) {
            return 0;
        }
        if (!buffer.hasRemaining()) {
            return -1;
        }
        int n = Math.min(length, buffer.remaining());
        buffer.get(bytes, offset, n);
        return n;
    }

    @Override
    public long skip(long n) {
        int skipped = (int) Math.max(0, Math.min(n, buffer.remaining()));
        buffer.position(buffer.position() + skipped);
        return skipped;
    }

    @Override
    public int available() {
        return buffer.remaining();
    }
}
