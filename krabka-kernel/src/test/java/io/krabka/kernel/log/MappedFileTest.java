package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MappedFileTest {

    @TempDir
    Path dir;

    @Test
    void mapsTheWholeFileReadOnly() throws IOException {
        Path file = Files.write(dir.resolve("f"), new byte[] {0, 0, 0, 7, 0, 0, 0, 9});
        try (MappedFile mapped = MappedFile.open(file)) {
            assertEquals(file, mapped.path());
            assertEquals(8, mapped.size());
            assertEquals(7, mapped.buffer().getInt(0));
            assertEquals(9, mapped.buffer().getInt(4));
            assertTrue(mapped.buffer().isReadOnly());
        }
    }

    @Test
    void mapsAnEmptyFile() throws IOException {
        Path file = Files.write(dir.resolve("empty"), new byte[0]);
        try (MappedFile mapped = MappedFile.open(file)) {
            assertEquals(0, mapped.size());
            assertEquals(0, new OffsetIndex(mapped.buffer(), 0, file.toString()).entries());
        }
    }

    @Test
    void readsAfterCloseFailCleanlyAndCloseIsIdempotent() throws IOException {
        Path file = Files.write(dir.resolve("f"), new byte[8]);
        MappedFile mapped = MappedFile.open(file);
        ByteBuffer buffer = mapped.buffer();
        mapped.close();
        mapped.close();
        assertThrows(IllegalStateException.class, () -> buffer.getInt(0));
    }

    @Test
    void aMissingFileIsAnIoError() {
        assertThrows(IOException.class, () -> MappedFile.open(dir.resolve("missing")));
    }

    @Test
    void aReadWriteMappingSetsTheLengthAndItsWritesReachTheFile() throws IOException {
        Path file = Files.write(dir.resolve("rw"), new byte[] {1, 2, 3, 4, 5, 6});
        try (MappedFile mapped = MappedFile.openReadWrite(file, 16)) {
            assertEquals(16, Files.size(file));
            assertEquals(0x01020304, mapped.buffer().getInt(0));
            assertEquals(0, mapped.buffer().getLong(8));
            mapped.buffer().putInt(12, 42);
            mapped.force();
        }
        assertEquals(42, ByteBuffer.wrap(Files.readAllBytes(file)).getInt(12));
        try (MappedFile mapped = MappedFile.openReadWrite(file, 4)) {
            assertEquals(4, Files.size(file));
            assertEquals(0x01020304, mapped.buffer().getInt(0));
        }
        assertThrows(java.nio.file.NoSuchFileException.class, () -> MappedFile.openReadWrite(dir.resolve("none"), 8));
    }
}
