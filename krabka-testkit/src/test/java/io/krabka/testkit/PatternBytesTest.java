package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kit's test bytes are the same however they are cut, so a rule can check any range of a file it wrote. */
class PatternBytesTest {

    private static final long SEED = 42;

    @Test
    void anyRangeEqualsTheSameBytesOfTheWhole() {
        byte[] whole = PatternBytes.bytes(SEED, 0, 4099);
        for (int from : new int[] {0, 1, 7, 8, 9, 1000, 4098}) {
            assertArrayEquals(
                    Arrays.copyOfRange(whole, from, 4099), PatternBytes.bytes(SEED, from, 4099 - from), "from " + from);
        }
    }

    @Test
    void seedsGiveDifferentBytes() {
        assertFalse(Arrays.equals(PatternBytes.bytes(SEED, 0, 64), PatternBytes.bytes(SEED + 1, 0, 64)));
    }

    @Test
    void aWrittenFileHasThePatternAndItsDigestAcrossChunks(@TempDir Path dir) throws IOException {
        long size = 2L * PatternBytes.CHUNK + 12_345;
        Path file = dir.resolve("pattern");
        byte[] written = PatternBytes.write(file, SEED, size);
        byte[] content = Files.readAllBytes(file);
        assertArrayEquals(PatternBytes.bytes(SEED, 0, (int) size), content);
        assertArrayEquals(written, PatternBytes.digest(SEED, 0, size));
        PatternBytes.StreamDigest streamed = PatternBytes.digest(new ByteArrayInputStream(content));
        assertEquals(size, streamed.length());
        assertArrayEquals(written, streamed.sha256());
        PatternBytes.StreamDigest tail =
                PatternBytes.digest(new ByteArrayInputStream(content, 1001, content.length - 1001));
        assertArrayEquals(PatternBytes.digest(SEED, 1001, size), tail.sha256());
    }
}
