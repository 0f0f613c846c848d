package io.krabka.plugin.rsm.gcs;

import com.google.cloud.ReadChannel;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The bytes of a read channel as a stream. The first bytes are read when it opens, so that a missing object fails
 * the open (as {@code RemoteResourceNotFoundException}) rather than the caller's first read.
 */
final class GcsObjectStream extends InputStream {
    private static final int FIRST_READ = 8192;

    private final ReadChannel channel;
    private final String what;
    private ByteBuffer buffer;
    private boolean ended;

    private GcsObjectStream(ReadChannel channel, String what) {
        this.channel = channel;
        this.what = what;
    }

    /**
     * Opens the stream and reads its first bytes.
     *
     * @param what the operation, for messages: {@code read of gs://bucket/key bytes 0-99}
     * @throws RemoteStorageException as {@link GcsErrors#of}; the channel is closed then
     */
    static GcsObjectStream open(ReadChannel channel, String what) throws RemoteStorageException {
        GcsObjectStream stream = new GcsObjectStream(channel, what);
        try {
            stream.buffer = ByteBuffer.allocate(FIRST_READ);
            stream.fill();
            return stream;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw GcsErrors.of(what, e);
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        if (buffer == null) {
            throw new IOException("the stream of the " + what + " is closed");
        }
        if (!buffer.hasRemaining()) {
            if (ended) {
                return -1;
            }
            if (len >= FIRST_READ) {
                return direct(b, off, len);
            }
            fill();
            if (!buffer.hasRemaining()) {
                return -1;
            }
        }
        int n = Math.min(len, buffer.remaining());
        buffer.get(b, off, n);
        return n;
    }

    @Override
    public void close() {
        buffer = null;
        channel.close();
    }

    /** A large read goes straight into the caller's array. */
    private int direct(byte[] b, int off, int len) throws IOException {
        try {
            int n;
            do {
                n = channel.read(ByteBuffer.wrap(b, off, len));
            } while (n == 0);
            if (n < 0) {
                ended = true;
            }
            return n;
        } catch (RuntimeException e) {
            throw new IOException("GCS " + what + " failed: " + GcsErrors.describe(e), e);
        }
    }

    /** Reads at least one byte into the buffer, or to the end. */
    private void fill() throws IOException {
        buffer.clear();
        int n;
        try {
            do {
                n = channel.read(buffer);
            } while (n == 0);
        } catch (RuntimeException e) {
            throw new IOException("GCS " + what + " failed: " + GcsErrors.describe(e), e);
        }
        if (n < 0) {
            ended = true;
        }
        buffer.flip();
    }
}
