package io.krabka.kernel.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Decompressing streams that borrow their buffers from a shared pool: streams open at once never share one, a
 * buffer given back and borrowed again carries nothing of the stream before, and a closed stream cannot be read.
 */
class DecompressionBuffersTest {

    private static byte[] data(long seed, int size) {
        byte[] data = new byte[size];
        Random random = new Random(seed);
        for (int i = 0; i < size; i++) {
            data[i] = (byte) (i % 7 == 0 ? random.nextInt() : 'a' + random.nextInt(4));
        }
        return data;
    }

    private static ByteBuffer compress(CompressionType type, byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream compressing = Compression.of(type).wrapForOutput(out, RecordBatch.MAGIC)) {
            compressing.write(data);
        }
        return ByteBuffer.wrap(out.toByteArray());
    }

    private static InputStream open(CompressionType type, ByteBuffer compressed) throws IOException {
        return Compression.wrapForInput(type, compressed, RecordBatch.MAGIC, Integer.MAX_VALUE);
    }

    @ParameterizedTest
    @EnumSource(
            value = CompressionType.class,
            names = {"LZ4", "ZSTD"})
    void streamsOpenAtOnceReadTheirOwnBytes(CompressionType type) throws IOException {
        byte[] first = data(1, 200_000);
        byte[] second = data(2, 150_000);
        ByteBuffer firstCompressed = compress(type, first);
        ByteBuffer secondCompressed = compress(type, second);
        for (int pass = 0; pass < 3; pass++) {
            ByteArrayOutputStream firstRead = new ByteArrayOutputStream();
            ByteArrayOutputStream secondRead = new ByteArrayOutputStream();
            try (InputStream a = open(type, firstCompressed);
                    InputStream b = open(type, secondCompressed)) {
                byte[] chunk = new byte[1000];
                boolean aOpen = true;
                boolean bOpen = true;
                while (aOpen || bOpen) {
                    if (aOpen) {
                        int value = a.read(); // a byte, then a chunk: both paths through the buffer
                        if (value >= 0) {
                            firstRead.write(value);
                        }
                        aOpen = value >= 0 && copy(a, chunk, firstRead);
                    }
                    if (bOpen) {
                        bOpen = copy(b, chunk, secondRead);
                    }
                }
            }
            assertArrayEquals(first, firstRead.toByteArray(), type + " pass " + pass);
            assertArrayEquals(second, secondRead.toByteArray(), type + " pass " + pass);
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = CompressionType.class,
            names = {"LZ4", "ZSTD"})
    void aClosedStreamCannotBeRead(CompressionType type) throws IOException {
        InputStream stream = open(type, compress(type, data(3, 100_000)));
        stream.read(new byte[10]);
        stream.close();
        stream.close();
        assertThrows(IOException.class, stream::readAllBytes);
    }

    private static boolean copy(InputStream in, byte[] chunk, ByteArrayOutputStream out) throws IOException {
        int n = in.read(chunk, 0, chunk.length);
        if (n < 0) {
            return false;
        }
        out.write(chunk, 0, n);
        return true;
    }
}
