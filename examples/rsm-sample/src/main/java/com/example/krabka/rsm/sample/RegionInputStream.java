package com.example.krabka.rsm.sample;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * The bytes from {@code start} to {@code end}, exclusive, of an open file, read with positional reads so that
 * nothing is buffered beyond the caller's array. Closing the stream closes the file.
 */
final class RegionInputStream extends InputStream {
    private final FileChannel channel;
    private final long end;
    private long position;

    RegionInputStream(FileChannel channel, long start, long end) {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("not a region: " + start + " to " + end);
        }
        this.channel = Objects.requireNonNull(channel, "channel");
        this.position = start;
        this.end = end;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        if (position >= end) {
            return -1;
        }
        if (length == 0) {
            return 0;
        }
        int read = channel.read(ByteBuffer.wrap(buffer, offset, (int) Math.min(length, end - position)), position);
        if (read < 0) {
            throw new EOFException("the file ended at " + position + ", before the end of the region at " + end);
        }
        position += read;
        return read;
    }

    @Override
    public long skip(long n) {
        long skipped = Math.clamp(n, 0, end - position);
        position += skipped;
        return skipped;
    }

    @Override
    public int available() {
        return (int) Math.min(end - position, Integer.MAX_VALUE);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
