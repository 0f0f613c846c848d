package io.krabka.kernel.record;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

/** Writes one LZ4 frame in Kafka's layout (see {@link Lz4Frame}); closing it writes the end mark. */
final class Lz4BlockOutputStream extends OutputStream {

    private final OutputStream out;
    private final LZ4Compressor compressor;
    private final byte[] block;
    private final byte[] compressed;
    private final byte[] word = new byte[4];
    private int blockLength;
    private boolean closed;

    Lz4BlockOutputStream(OutputStream out, int level, boolean brokenDescriptorChecksum) throws IOException {
        this.out = Objects.requireNonNull(out, "out");
        LZ4Factory factory = LZ4Factory.fastestInstance();
        // As Kafka: the fast compressor at the default level, the high one at any other.
        this.compressor =
                level == Compression.LZ4_DEFAULT_LEVEL ? factory.fastCompressor() : factory.highCompressor(level);
        this.block = new byte[Lz4Frame.blockMaximumSize(Lz4Frame.BLOCKSIZE_64KB)];
        this.compressed = new byte[compressor.maxCompressedLength(block.length)];
        writeHeader(brokenDescriptorChecksum);
    }

    private void writeHeader(boolean brokenDescriptorChecksum) throws IOException {
        byte[] header = new byte[7];
        putIntLittleEndian(header, 0, Lz4Frame.MAGIC);
        header[4] = (byte) (Lz4Frame.FLG_VERSION | Lz4Frame.FLG_BLOCK_INDEPENDENCE);
        header[5] = (byte) (Lz4Frame.BLOCKSIZE_64KB << Lz4Frame.BD_BLOCK_SIZE_SHIFT);
        header[6] = brokenDescriptorChecksum
                ? Lz4Frame.descriptorChecksum(header, 0, 6)
                : Lz4Frame.descriptorChecksum(header, 4, 2);
        out.write(header);
    }

    @Override
    public void write(int b) throws IOException {
        ensureOpen();
        if (blockLength == block.length) {
            writeBlock();
        }
        block[blockLength++] = (byte) b;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        ensureOpen();
        while (length > 0) {
            if (blockLength == block.length) {
                writeBlock();
            }
            int n = Math.min(length, block.length - blockLength);
            System.arraycopy(bytes, offset, block, blockLength, n);
            blockLength += n;
            offset += n;
            length -= n;
        }
    }

    private void writeBlock() throws IOException {
        if (blockLength == 0) {
            return;
        }
        int compressedLength = compressor.compress(block, 0, blockLength, compressed, 0, compressed.length);
        if (compressedLength >= blockLength) {
            writeIntLittleEndian(blockLength | Lz4Frame.INCOMPRESSIBLE_MASK);
            out.write(block, 0, blockLength);
        } else {
            writeIntLittleEndian(compressedLength);
            out.write(compressed, 0, compressedLength);
        }
        blockLength = 0;
    }

    @Override
    public void flush() throws IOException {
        if (!closed) {
            writeBlock();
            out.flush();
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try (out) {
            writeBlock();
            writeIntLittleEndian(0);
            out.flush();
        } finally {
            closed = true;
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("the LZ4 stream is closed");
        }
    }

    private void writeIntLittleEndian(int value) throws IOException {
        putIntLittleEndian(word, 0, value);
        out.write(word);
    }

    private static void putIntLittleEndian(byte[] bytes, int at, int value) {
        bytes[at] = (byte) value;
        bytes[at + 1] = (byte) (value >>> 8);
        bytes[at + 2] = (byte) (value >>> 16);
        bytes[at + 3] = (byte) (value >>> 24);
    }
}
