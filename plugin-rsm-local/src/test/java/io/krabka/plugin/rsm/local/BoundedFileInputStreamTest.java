package io.krabka.plugin.rsm.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BoundedFileInputStreamTest {
    @TempDir
    Path dir;

    private InputStream open(byte[] content, long position, long length) throws IOException {
        Path file = Files.write(dir.resolve("f"), content);
        return new BoundedFileInputStream(FileChannel.open(file, StandardOpenOption.READ), position, length);
    }

    @Test
    void readsExactlyTheRange() throws IOException {
        byte[] content = Segments.bytes(1, 1000);
        try (InputStream in = open(content, 100, 300)) {
            assertEquals(300, in.available());
            assertEquals(content[100] & 0xff, in.read());
            assertEquals(10, in.skip(10));
            byte[] rest = in.readAllBytes();
            assertArrayEquals(Arrays.copyOfRange(content, 111, 400), rest);
            assertEquals(-1, in.read());
            assertEquals(-1, in.read(new byte[5], 0, 5));
            assertEquals(0, in.skip(5));
            assertEquals(0, in.available());
        }
    }

    @Test
    void failsWhenTheFileIsShorterThanTheRange() throws IOException {
        try (InputStream in = open(new byte[10], 5, 10)) {
            assertEquals(5, in.readNBytes(5).length);
            EOFException e = assertThrows(EOFException.class, in::read);
            assertEquals("file ended at byte 10, 5 bytes before the end of the range", e.getMessage());
        }
    }

    @Test
    void closingClosesTheChannel() throws IOException {
        InputStream in = open(new byte[10], 0, 10);
        in.close();
        assertThrows(ClosedChannelException.class, in::read);
    }

    @Test
    void aZeroLengthReadReadsNothing() throws IOException {
        try (InputStream in = open(new byte[10], 0, 10)) {
            assertEquals(0, in.read(new byte[4], 2, 0));
            assertThrows(IndexOutOfBoundsException.class, () -> in.read(new byte[4], 2, 3));
            assertTrue(in.available() > 0);
        }
    }
}
