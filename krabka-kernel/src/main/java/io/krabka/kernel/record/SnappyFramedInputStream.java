package io.krabka.kernel.record;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.xerial.snappy.Snappy;

/**
 * Reads snappy-java's stream format, which Kafka writes with SnappyOutputStream: a 16-byte header (the magic
 * {@code 0x82 "SNAPPY" 0}, int32 version, int32 compatible version), then chunks of int32 big-endian length and a
 * raw snappy block; a header may recur where streams were concatenated. Input without the header is one raw
 * block, as SnappyInputStream reads it. Each block's declared size is checked against the bound before anything
 * is allocated for it, which SnappyInputStream does not do.
 */
final class SnappyFramedInputStream extends InputStream {

    private static final byte[] MAGIC = {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};
    private static final int HEADER_SIZE = MAGIC.length + 8;

    private final ByteBuffer in;
    private final long bound;
    private final boolean framed;
    private long produced;
    private byte[] compressed = new byte[0];
    private byte[] block = new byte[0];
    private int blockPosition;
    private int blockLimit;

    SnappyFramedInputStream(ByteBuffer compressed, long bound) throws IOException {
        this.in = compressed.duplicate();
        this.bound = bound;
        this.framed = startsWithMagic();
        if (framed) {
            skipHeader();
        }
    }

    private boolean startsWithMagic() {
        if (in.remaining() < MAGIC.length) {
            return false;
        }
        return in.slice(in.position(), MAGIC.length).equals(ByteBuffer.wrap(MAGIC));
    }

    private void skipHeader() throws IOException {
        if (in.remaining() < HEADER_SIZE) {
            throw new IOException("snappy stream ends inside its header");
        }
        in.position(in.position() + HEADER_SIZE);
    }

    private boolean nextBlock() throws IOException {
        while (blockPosition == blockLimit) {
            if (!in.hasRemaining()) {
                return false;
            }
            int length;
            if (framed) {
                if (startsWithMagic()) {
                    skipHeader();
                    continue;
                }
                if (in.remaining() < 4) {
                    throw new IOException("snappy stream ends inside a chunk length");
                }
                length = in.getInt();
                if (length < 0 || length > in.remaining()) {
                    throw new IOException("snappy chunk declares " + length + " bytes, " + in.remaining() + " remain");
                }
            } else {
                length = in.remaining();
            }
            if (compressed.length < length) {
                compressed = new byte[length];
            }
            in.get(compressed, 0, length);
            int size = Snappy.uncompressedLength(compressed, 0, length);
            if (size < 0 || produced + size > bound) {
                throw new DecompressionBoundException(bound);
            }
            if (block.length < size) {
                block = new byte[size];
            }
            blockLimit = Snappy.uncompress(compressed, 0, length, block, 0);
            blockPosition = 0;
            produced += blockLimit;
        }
        return true;
    }

    @Override
    public int read() throws IOException {
        return nextBlock() ? block[blockPosition++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (!nextBlock()) {
            return -1;
        }
        int n = Math.min(length, blockLimit - blockPosition);
        System.arraycopy(block, blockPosition, bytes, offset, n);
        blockPosition += n;
        return n;
    }

    @Override
    public int available() {
        return blockLimit - blockPosition;
    }
}
