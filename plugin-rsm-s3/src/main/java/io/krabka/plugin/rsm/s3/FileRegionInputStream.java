package io.krabka.plugin.rsm.s3;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** The bytes {@code [offset, offset + length)} of a file, read through its own channel: one part of an upload. */
final class FileRegionInputStream extends InputStream {
    private final FileChannel channel;
    private long position;
    private final long end;

    private FileRegionInputStream(FileChannel channel, long offset, long length) {
        this.channel = channel;
        this.position = offset;
        this.end = offset + length;
    }

    /**
     * Opens a region; unchecked, because the SDK asks for a new stream on each attempt through an interface
     * without checked exceptions.
     *
     * @throws UncheckedIOException if the file cannot be opened
     */
    static InputStream open(Path file, long offset, long length) {
        try {
            return new FileRegionInputStream(FileChannel.open(file, StandardOpenOption.READ), offset, length);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file, e);
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (position >= end) {
            return -1;
        }
        int n = channel.read(ByteBuffer.wrap(b, off, (int) Math.min(len, end - position)), position);
        if (n < 0) {
            throw new IOException("the file ended " + (end - position) + " bytes before the part it was uploading");
        }
        position += n;
        return n;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
