package io.krabka.kernel.record;

import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * An output stream into a heap buffer that grows as it fills, as Kafka's {@code ByteBufferOutputStream}: the bytes
 * written lie from 0 to the buffer's position. A writer that is called again and again (the log cleaner's) clears
 * and reuses it, so that its buffer is allocated once. Closing does nothing, so that a codec's stream wrapped
 * around it may be closed to finish its frame.
 */
public final class ByteBufferOutputStream extends OutputStream {

    private ByteBuffer buffer;

    /** A stream over a new buffer of {@code initialCapacity} bytes. */
    public ByteBufferOutputStream(int initialCapacity) {
        this.buffer = ByteBuffer.allocate(initialCapacity);
    }

    @Override
    public void write(int b) {
        ensureRemaining(1);
        buffer.put((byte) b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        ensureRemaining(length);
        buffer.put(bytes, offset, length);
    }

    /** Writes the bytes from {@code bytes}' position to its limit, which it does not move. */
    public void write(ByteBuffer bytes) {
        ensureRemaining(bytes.remaining());
        buffer.put(bytes.duplicate());
    }

    /**
     * The buffer, its position after the last byte written. It is replaced when it grows: take it again after
     * writing.
     */
    public ByteBuffer buffer() {
        return buffer;
    }

    /** The number of bytes written. */
    public int position() {
        return buffer.position();
    }

    /** Moves the write position, which must be within the bytes the buffer has room for. */
    public void position(int position) {
        ensureCapacity(position);
        buffer.position(position);
    }

    /** Makes room for {@code bytes} more bytes after the position, doubling the buffer as often as needed. */
    public void ensureRemaining(int bytes) {
        ensureCapacity(buffer.position() + bytes);
    }

    private void ensureCapacity(int capacity) {
        if (capacity > buffer.capacity()) {
            long grown = Math.max((long) capacity, 2L * buffer.capacity());
            ByteBuffer larger = ByteBuffer.allocate((int) Math.min(grown, Integer.MAX_VALUE - 8));
            larger.put(buffer.flip());
            buffer = larger;
        }
    }

    /** Forgets the bytes written, keeping the buffer. */
    public void clear() {
        buffer.clear();
    }

    /** Forgets the bytes written and gives back a buffer grown past {@code capacity}: one of that size. */
    public void reset(int capacity) {
        if (buffer.capacity() > capacity) {
            buffer = ByteBuffer.allocate(capacity);
        }
        buffer.clear();
    }
}
