package io.krabka.kernel.log.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OffsetCheckpointFileTest {

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve(OffsetCheckpointFile.RECOVERY_POINT_CHECKPOINT_FILE);
    }

    @Test
    void writesKafkasTextAndReadsItBack() throws IOException {
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        offsets.put(new TopicPartition("orders", 0), 1_234L);
        offsets.put(new TopicPartition("orders", 11), 0L);
        offsets.put(new TopicPartition("__consumer_offsets", 7), 9_000_000_000L);
        OffsetCheckpointFile checkpoint = new OffsetCheckpointFile(file());
        checkpoint.write(offsets);
        assertEquals("0\n3\norders 0 1234\norders 11 0\n__consumer_offsets 7 9000000000\n", text(file()));
        assertEquals(offsets, checkpoint.read());
        assertFalse(Files.exists(dir.resolve(file().getFileName() + ".tmp")));

        checkpoint.write(Map.of());
        assertEquals("0\n0\n", text(file()));
        assertEquals(Map.of(), checkpoint.read());
    }

    @Test
    void aMissingOrEmptyFileHasNoOffsets() throws IOException {
        assertEquals(Map.of(), new OffsetCheckpointFile(file()).read());
        Files.createFile(file());
        assertEquals(Map.of(), new OffsetCheckpointFile(file()).read());
    }

    @Test
    void entriesSplitOnAnyWhitespaceAsInKafka() throws IOException {
        Files.writeString(file(), "0\r\n1\r\norders\t3   42\r\n");
        assertEquals(Map.of(new TopicPartition("orders", 3), 42L), new OffsetCheckpointFile(file()).read());
    }

    @Test
    void malformedFilesAreRejectedNamingTheFileAndLine() throws IOException {
        assertMalformed("1\n0\n", 1, "unrecognised version 1, expected 0");
        assertMalformed("x\n", 1, "version 'x' is not a number");
        assertMalformed("0\n", 2, "the entry count is missing");
        assertMalformed("0\n-1\n", 2, "negative entry count -1");
        assertMalformed("0\n2\norders 0 5\n", 4, "expected 2 entries, found 1");
        assertMalformed("0\n1\norders 0 5\norders 1 6\n", 4, "expected 1 entries, found 2");
        assertMalformed("0\n1\norders 0\n", 3, "not 'topic partition offset': 'orders 0'");
        assertMalformed("0\n1\n orders 0 5\n", 3, "not 'topic partition offset': ' orders 0 5'");
        assertMalformed("0\n1\norders x 5\n", 3, "partition or offset is not a number: 'orders x 5'");
        assertMalformed("0\n1\norders -1 5\n", 3, "partition must be at least 0: -1: 'orders -1 5'");
        assertMalformed("0\n2\norders 0 5\norders 0 6\n", 4, "a second entry for orders-0");
        assertMalformed("0\n1\norders 0 5\n\n", 4, "expected 1 entries, found 2");
    }

    @Test
    void bytesThatAreNotUtf8AreMalformed() throws IOException {
        Files.write(file(), new byte[] {'0', '\n', '1', '\n', (byte) 0xff, ' ', '0', ' ', '1', '\n'});
        MalformedFileException e =
                assertThrows(MalformedFileException.class, () -> new OffsetCheckpointFile(file()).read());
        assertEquals("Malformed " + file() + ": not UTF-8 text", e.getMessage());
    }

    private void assertMalformed(String text, int line, String detail) throws IOException {
        Files.writeString(file(), text);
        MalformedFileException e =
                assertThrows(MalformedFileException.class, () -> new OffsetCheckpointFile(file()).read());
        assertEquals("Malformed " + file() + " at line " + line + ": " + detail, e.getMessage());
        assertEquals(file().toString(), e.source());
        assertEquals(line, e.line());
    }

    static String text(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
