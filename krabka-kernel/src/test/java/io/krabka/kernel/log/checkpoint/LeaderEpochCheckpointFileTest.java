package io.krabka.kernel.log.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeaderEpochCheckpointFileTest {

    private static final List<EpochEntry> EPOCHS =
            List.of(new EpochEntry(0, 0), new EpochEntry(3, 1_500), new EpochEntry(4, 9_000_000_000L));

    @TempDir
    Path dir;

    @Test
    void writesKafkasTextAndReadsItBack() throws IOException {
        Path file = LeaderEpochCheckpointFile.newFile(dir);
        assertEquals(dir.resolve("leader-epoch-checkpoint"), file);
        LeaderEpochCheckpointFile checkpoint = new LeaderEpochCheckpointFile(file);
        assertEquals(List.of(), checkpoint.read());
        checkpoint.write(EPOCHS);
        assertEquals("0\n3\n0 0\n3 1500\n4 9000000000\n", Files.readString(file));
        assertEquals(EPOCHS, checkpoint.read());
    }

    @Test
    void theRemoteLeaderEpochIndexIsTheSameText() throws IOException {
        ByteBuffer bytes = LeaderEpochCheckpointFile.toByteBuffer(EPOCHS);
        assertEquals(
                "0\n3\n0 0\n3 1500\n4 9000000000\n",
                StandardCharsets.UTF_8.decode(bytes.duplicate()).toString());
        int position = bytes.position();
        assertEquals(EPOCHS, LeaderEpochCheckpointFile.fromByteBuffer(bytes, "segment X"));
        assertEquals(position, bytes.position());
        assertEquals(List.of(), LeaderEpochCheckpointFile.fromByteBuffer(ByteBuffer.allocate(0), "empty"));
    }

    @Test
    void malformedTextIsRejectedNamingTheSourceAndLine() {
        assertMalformed("0\n1\n3\n", 3, "not 'epoch startOffset': '3'");
        assertMalformed("0\n1\n-1 5\n", 3, "negative leader epoch -1: '-1 5'");
        assertMalformed("0\n1\n1 -5\n", 3, "negative start offset -5 of leader epoch 1: '1 -5'");
        assertMalformed("0\n1\n1 five\n", 3, "epoch or start offset is not a number: '1 five'");
        assertMalformed("0\n2\n1 5\n", 4, "expected 2 entries, found 1");
    }

    private static void assertMalformed(String text, int line, String detail) {
        MalformedFileException e = assertThrows(
                MalformedFileException.class,
                () -> LeaderEpochCheckpointFile.fromByteBuffer(
                        ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), "epochs"));
        assertEquals("Malformed epochs at line " + line + ": " + detail, e.getMessage());
    }
}
