package io.krabka.plugin.rlmm.inmemory;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileTest {

    @TempDir
    Path dir;

    @Test
    void writesAndReplacesTheWholeFile() throws IOException {
        Path file = dir.resolve("snapshot.json");
        AtomicFile.write(file, out -> out.write("a longer first content".getBytes(UTF_8)));
        AtomicFile.write(file, out -> out.write("second".getBytes(UTF_8)));
        assertEquals("second", Files.readString(file));
        assertEquals(List.of(file), entries());
    }

    @Test
    void aWriteThatFailsHalfwayLeavesTheOldFileAndNoTemporary() throws IOException {
        Path file = dir.resolve("snapshot.json");
        AtomicFile.write(file, out -> out.write("old".getBytes(UTF_8)));
        IOException failure = assertThrows(
                IOException.class,
                () -> AtomicFile.write(file, out -> {
                    out.write("half of the new con".getBytes(UTF_8));
                    out.flush();
                    throw new IOException("disk full");
                }));
        assertEquals("disk full", failure.getMessage());
        assertEquals("old", Files.readString(file));
        assertEquals(List.of(file), entries());
    }

    @Test
    void anUncheckedFailureLeavesNoTemporaryEither() throws IOException {
        Path file = dir.resolve("snapshot.json");
        assertThrows(
                IllegalStateException.class,
                () -> AtomicFile.write(file, out -> {
                    out.write('x');
                    throw new IllegalStateException("bug");
                }));
        assertEquals(List.of(), entries());
    }

    @Test
    void aRenameThatFailsLeavesNoTemporary() throws IOException {
        Path occupied = dir.resolve("snapshot.json");
        Files.createDirectory(occupied);
        Files.writeString(occupied.resolve("keep"), "kept");
        assertThrows(IOException.class, () -> AtomicFile.write(occupied, out -> out.write('x')));
        assertEquals(List.of(occupied), entries());
        assertEquals("kept", Files.readString(occupied.resolve("keep")));
    }

    @Test
    void aMissingDirectoryIsReportedAndNothingIsCreated() {
        Path file = dir.resolve("missing").resolve("snapshot.json");
        assertThrows(NoSuchFileException.class, () -> AtomicFile.write(file, out -> out.write('x')));
        assertFalse(Files.exists(file.getParent()));
    }

    private List<Path> entries() throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.toList();
        }
    }
}
