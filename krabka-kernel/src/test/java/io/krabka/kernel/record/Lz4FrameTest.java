package io.krabka.kernel.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Random;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.apache.kafka.common.compress.Lz4BlockOutputStream;
import org.apache.kafka.common.utils.internals.BufferSupplier;
import org.junit.jupiter.api.Test;

/** The LZ4 frame as Kafka writes it, and frames other writers make that the format allows. */
class Lz4FrameTest {

    private static final byte[] DATA = data();

    private static byte[] data() {
        byte[] data = new byte[300_000];
        Random random = new Random(7);
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i < 100_000 ? random.nextInt() : i / 3000);
        }
        return data;
    }

    private static byte[] ours(byte magic) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream lz4 = Compression.of(CompressionType.LZ4).wrapForOutput(out, magic)) {
            lz4.write(DATA);
        }
        return out.toByteArray();
    }

    private static byte[] read(byte[] frame, byte magic) throws IOException {
        try (InputStream in = Compression.wrapForInput(CompressionType.LZ4, ByteBuffer.wrap(frame), magic, 1 << 20)) {
            return in.readAllBytes();
        }
    }

    @Test
    void theHeaderIsKafkas() throws IOException {
        byte[] frame = ours((byte) 2);
        // Magic 0x184D2204 little-endian, FLG version 01 + independent blocks, BD 64 KiB.
        assertArrayEquals(new byte[] {0x04, 0x22, 0x4D, 0x18, 0x60, 0x40}, java.util.Arrays.copyOf(frame, 6));
        assertEquals(Lz4Frame.descriptorChecksum(frame, 4, 2), frame[6]);
        // The random first 64 KiB block cannot shrink and is stored with the high bit set.
        assertEquals(
                0x80010000,
                ByteBuffer.wrap(frame, 7, 4)
                        .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                        .getInt());
        assertArrayEquals(new byte[4], java.util.Arrays.copyOfRange(frame, frame.length - 4, frame.length));
    }

    @Test
    void magicZeroUsesTheBrokenDescriptorChecksumBothWays() throws IOException {
        byte[] frame = ours((byte) 0);
        assertEquals(Lz4Frame.descriptorChecksum(frame, 0, 6), frame[6]);
        assertArrayEquals(DATA, read(frame, (byte) 0));
        assertThrows(IOException.class, () -> read(frame, (byte) 2));
        try (InputStream kafka = new org.apache.kafka.common.compress.Lz4BlockInputStream(
                ByteBuffer.wrap(frame), BufferSupplier.NO_CACHING, true)) {
            assertArrayEquals(DATA, kafka.readAllBytes());
        }
    }

    @Test
    void framesWithBlockChecksumsFromKafkasWriterAreReadAndChecked() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream lz4 = new Lz4BlockOutputStream(out, 4, 9, true, false)) {
            lz4.write(DATA);
        }
        byte[] frame = out.toByteArray();
        assertArrayEquals(DATA, read(frame, (byte) 2));
        frame[frame.length - 6] ^= 1;
        assertThrows(IOException.class, () -> read(frame, (byte) 2));
    }

    @Test
    void framesWithLargerBlocksContentSizeAndContentChecksumAreRead() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream lz4 = new LZ4FrameOutputStream(
                out,
                LZ4FrameOutputStream.BLOCKSIZE.SIZE_4MB,
                DATA.length,
                LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE,
                LZ4FrameOutputStream.FLG.Bits.CONTENT_CHECKSUM,
                LZ4FrameOutputStream.FLG.Bits.CONTENT_SIZE)) {
            lz4.write(DATA);
        }
        byte[] frame = out.toByteArray();
        assertArrayEquals(DATA, read(frame, (byte) 2));
        frame[frame.length - 1] ^= 1;
        assertThrows(IOException.class, () -> read(frame, (byte) 2));
    }

    @Test
    void dependentBlocksAreRefusedAsKafkaDoes() throws IOException {
        byte[] frame = ours((byte) 2);
        frame[4] = 0x40;
        frame[6] = Lz4Frame.descriptorChecksum(frame, 4, 2);
        assertEquals(
                "LZ4 frames with dependent blocks are unsupported",
                assertThrows(IOException.class, () -> read(frame, (byte) 2)).getMessage());
    }
}
