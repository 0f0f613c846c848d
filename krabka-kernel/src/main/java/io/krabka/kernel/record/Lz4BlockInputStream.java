package io.krabka.kernel.record;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import net.jpountz.xxhash.StreamingXXHash32;
import net.jpountz.xxhash.XXHashFactory;

/**
 * Reads one LZ4 frame (see {@link Lz4Frame}) from a buffer, block by block. Accepts what the frame format allows
 * beside Kafka's own choices: larger blocks, block checksums, a content size and a content checksum, which are
 * checked. Dependent blocks are refused, as Kafka does. Blocks of Kafka's size decompress into a buffer borrowed
 * from {@link DecompressionBuffers} until the stream is closed.
 */
final class Lz4BlockInputStream extends InputStream {

    private static final LZ4SafeDecompressor DECOMPRESSOR =
            LZ4Factory.fastestInstance().safeDecompressor();

    private final ByteBuffer in;
    private final long bound;
    private boolean blockChecksum;
    private StreamingXXHash32 contentHash;
    private ByteBuffer decompressionBuffer;
    private ByteBuffer block = ByteBuffer.allocate(0);
    private long produced;
    private boolean finished;

    Lz4BlockInputStream(ByteBuffer compressed, boolean ignoreDescriptorChecksum, long bound) throws IOException {
        this.in = compressed.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.bound = bound;
        readHeader(ignoreDescriptorChecksum);
    }

    private void readHeader(boolean ignoreDescriptorChecksum) throws IOException {
        need(7, "frame header");
        if (in.getInt() != Lz4Frame.MAGIC) {
            throw new IOException("LZ4 frame magic is wrong");
        }
        int descriptorStart = in.position();
        int flg = in.get() & 0xFF;
        int bd = in.get() & 0xFF;
        if ((flg & Lz4Frame.FLG_VERSION_MASK) != Lz4Frame.FLG_VERSION) {
            throw new IOException("LZ4 frame version " + (flg >>> 6) + " is unsupported");
        }
        if ((flg & Lz4Frame.FLG_RESERVED) != 0 || (bd & Lz4Frame.BD_RESERVED) != 0) {
            throw new IOException("LZ4 frame descriptor has reserved bits set");
        }
        if ((flg & Lz4Frame.FLG_BLOCK_INDEPENDENCE) == 0) {
            throw new IOException("LZ4 frames with dependent blocks are unsupported");
        }
        int blockSizeId = bd >>> Lz4Frame.BD_BLOCK_SIZE_SHIFT;
        if (blockSizeId < 4) {
            throw new IOException("LZ4 block size id " + blockSizeId + " is not between 4 and 7");
        }
        if ((flg & Lz4Frame.FLG_CONTENT_SIZE) != 0) {
            need(8 + 1, "content size");
            in.position(in.position() + 8);
        }
        blockChecksum = (flg & Lz4Frame.FLG_BLOCK_CHECKSUM) != 0;
        if ((flg & Lz4Frame.FLG_CONTENT_CHECKSUM) != 0) {
            contentHash = XXHashFactory.fastestInstance().newStreamingHash32(0);
        }
        int descriptorLength = in.position() - descriptorStart;
        byte stored = in.get();
        byte[] descriptor = new byte[descriptorLength];
        in.get(descriptorStart, descriptor);
        if (!ignoreDescriptorChecksum && stored != Lz4Frame.descriptorChecksum(descriptor, 0, descriptorLength)) {
            throw new IOException("LZ4 frame descriptor checksum mismatch");
        }
        int blockMaximumSize = Lz4Frame.blockMaximumSize(blockSizeId);
        decompressionBuffer = ByteBuffer.wrap(
                blockMaximumSize == DecompressionBuffers.LZ4_BLOCKS.size()
                        ? DecompressionBuffers.LZ4_BLOCKS.take()
                        : new byte[blockMaximumSize]);
    }

    private void readBlock() throws IOException {
        if (decompressionBuffer == null) {
            throw new IOException("LZ4 stream is closed");
        }
        need(4, "block size");
        int word = in.getInt();
        boolean compressed = (word & Lz4Frame.INCOMPRESSIBLE_MASK) == 0;
        int size = word & ~Lz4Frame.INCOMPRESSIBLE_MASK;
        if (size == 0) {
            finished = true;
            if (contentHash != null) {
                need(4, "content checksum");
                if (in.getInt() != contentHash.getValue()) {
                    throw new IOException("LZ4 content checksum mismatch");
                }
            }
            return;
        }
        if (size > decompressionBuffer.capacity()) {
            throw new IOException(
                    "LZ4 block size " + size + " exceeds the frame's maximum " + decompressionBuffer.capacity());
        }
        need(size + (blockChecksum ? 4 : 0), "block");
        int start = in.position();
        if (blockChecksum && Lz4Frame.XXHASH.hash(in, start, size, 0) != in.getInt(start + size)) {
            throw new IOException("LZ4 block checksum mismatch");
        }
        if (compressed) {
            try {
                int length = DECOMPRESSOR.decompress(
                        in, start, size, decompressionBuffer, 0, decompressionBuffer.capacity());
                block = decompressionBuffer.duplicate().position(0).limit(length);
            } catch (LZ4Exception e) {
                throw new IOException("LZ4 block is corrupt", e);
            }
        } else {
            block = in.duplicate().position(start).limit(start + size);
        }
        in.position(start + size + (blockChecksum ? 4 : 0));
        produced += block.remaining();
        if (produced > bound) {
            throw new DecompressionBoundException(bound);
        }
        if (contentHash != null) {
            byte[] content = new byte[block.remaining()];
            block.duplicate().get(content);
            contentHash.update(content, 0, content.length);
        }
    }

    private boolean ready() throws IOException {
        while (!finished && !block.hasRemaining()) {
            readBlock();
        }
        return block.hasRemaining();
    }

    @Override
    public int read() throws IOException {
        return ready() ? block.get() & 0xFF : -1;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (!ready()) {
            return -1;
        }
        int n = Math.min(length, block.remaining());
        block.get(bytes, offset, n);
        return n;
    }

    @Override
    public int available() {
        return block.remaining();
    }

    /** Gives the block buffer back; reading after closing fails. */
    @Override
    public void close() {
        if (decompressionBuffer != null && decompressionBuffer.capacity() == DecompressionBuffers.LZ4_BLOCKS.size()) {
            DecompressionBuffers.LZ4_BLOCKS.give(decompressionBuffer.array());
        }
        decompressionBuffer = null;
        block = ByteBuffer.allocate(0);
    }

    private void need(int bytes, String what) throws IOException {
        if (in.remaining() < bytes) {
            throw new IOException("LZ4 frame ends inside its " + what);
        }
    }
}
