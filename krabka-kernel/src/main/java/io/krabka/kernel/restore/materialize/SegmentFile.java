package io.krabka.kernel.restore.materialize;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A restored segment's {@code .log} being written: batches are gathered in a buffer and written a megabyte at a
 * time, so a segment of small batches costs few system calls.
 */
final class SegmentFile implements AutoCloseable {
    private static final int BUFFER_SIZE = 1 << 20;

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_SIZE);
    private long size;

    SegmentFile(Path path) throws IOException {
        this.path = path;
        this.channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    Path path() {
        return path;
    }

    /** The bytes written so far. */
    long size() {
        return size;
    }

    /** Appends one whole batch, from its position to its limit. */
    void append(ByteBuffer batch) throws IOException {
        ByteBuffer bytes = batch.duplicate();
        size += bytes.remaining();
        if (bytes.remaining() > buffer.remaining()) {
            drain();
        }
        if (bytes.remaining() > buffer.capacity()) {
            writeFully(bytes);
        } else {
            buffer.put(bytes);
        }
    }

    /** Writes what is buffered and forces the file to disk. */
    void force() throws IOException {
        drain();
        channel.force(true);
    }

    private void drain() throws IOException {
        buffer.flip();
        writeFully(buffer);
        buffer.clear();
    }

    private void writeFully(ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
