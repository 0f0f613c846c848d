package io.krabka.kernel.record;

import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

/**
 * The facts of the LZ4 frame format as Kafka writes it (KafkaLZ4BlockOutputStream): magic 0x184D2204
 * little-endian; FLG with version 01 and independent blocks, no content size, no content checksum, no block
 * checksum; BD with 64 KiB blocks; the descriptor checksum is the second byte of XXH32 (seed 0) over FLG and BD —
 * over the magic too for magic 0 batches, a bug old clients depend on. Blocks: int32 little-endian size, the high
 * bit set when the block is stored uncompressed; an end mark of size 0.
 */
final class Lz4Frame {

    static final int MAGIC = 0x184D2204;
    static final int INCOMPRESSIBLE_MASK = 0x80000000;

    static final int FLG_VERSION = 1 << 6;
    static final int FLG_VERSION_MASK = 3 << 6;
    static final int FLG_BLOCK_INDEPENDENCE = 1 << 5;
    static final int FLG_BLOCK_CHECKSUM = 1 << 4;
    static final int FLG_CONTENT_SIZE = 1 << 3;
    static final int FLG_CONTENT_CHECKSUM = 1 << 2;
    static final int FLG_RESERVED = 3;

    /** Block size id 4: 64 KiB, Kafka's only choice. */
    static final int BLOCKSIZE_64KB = 4;

    static final int BD_BLOCK_SIZE_SHIFT = 4;
    static final int BD_RESERVED = 0x8F;

    static final XXHash32 XXHASH = XXHashFactory.fastestInstance().hash32();

    private Lz4Frame() {}

    /** 2^(2n+8) bytes for block size id n (4..7). */
    static int blockMaximumSize(int blockSizeId) {
        return 1 << (2 * blockSizeId + 8);
    }

    /** The descriptor checksum byte. */
    static byte descriptorChecksum(byte[] bytes, int offset, int length) {
        return (byte) ((XXHASH.hash(bytes, offset, length, 0) >> 8) & 0xFF);
    }
}
