package io.krabka.plugin.rsm.local;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * Reads {@code length} bytes of a file from {@code position}, by positional reads on a channel: nothing beyond
 * the caller's buffer is held in memory, whatever the size of the file. Closing the stream closes the channel.
 * Not thread-safe, like any stream.
 */
final class BoundedFileInputStream extends InputStream {
    private final FileChannel channel;
    private long position;
    private long remaining;

    /** Takes ownership of {@code channel}. */
    BoundedFileInputStream(FileChannel channel, long position, long length) {
        this.channel = Objects.requireNonNull(channel, "channel");
        if (position < 0 || length < 0) {
            throw new IllegalArgumentException(
                    "position " + position + " and length " + length + " must be at least 0");
        }
        this.position = position;
        this.remaining = length;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) == -1 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        if (length == 0) {
            return 0;
        }
        if (remaining == 0) {
            return -1;
        }
        int read = channel.read(ByteBuffer.wrap(buffer, offset, (int) Math.min(length, remaining)), position);
        if (read < 0) {
            // The file is shorter than when the range was checked: fail rather than end the stream early.
            throw new EOFException(
                    "file ended at byte " + position + ", " + remaining + " bytes before the end of the range");
        }
        position += read;
        remaining -= read;
        return read;
    }

    @Override
    public long skip(long count) {
        long skipped = Math.clamp(count, 0, remaining);
        position += skipped;
        remaining -= skipped;
        return skipped;
    }

    @Override
    public int available() {
        return (int) Math.min(remaining, Integer.MAX_VALUE);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
