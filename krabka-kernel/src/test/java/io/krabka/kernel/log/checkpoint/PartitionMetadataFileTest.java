package io.krabka.kernel.log.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionMetadataFileTest {

    private static final Uuid TOPIC_ID = Uuid.fromString("QZ1ZeOxcR4-SJdUh0wZVPw");

    @TempDir
    Path dir;

    private Path file() {
        return PartitionMetadataFile.newFile(dir);
    }

    @Test
    void writesKafkasExactTextAndReadsItBack() throws IOException {
        PartitionMetadataFile metadata = new PartitionMetadataFile(file());
        assertFalse(metadata.exists());
        assertThrows(NoSuchFileException.class, metadata::read);
        metadata.write(TOPIC_ID);
        assertTrue(metadata.exists());
        assertEquals("version: 0\ntopic_id: QZ1ZeOxcR4-SJdUh0wZVPw", Files.readString(file()));
        assertEquals(new PartitionMetadata(0, TOPIC_ID), metadata.read());
        metadata.delete();
        assertFalse(metadata.exists());
    }

    @Test
    void readsAsKafkaDoesALaterVersionAndLinesAfterTheSecond() throws IOException {
        Files.writeString(file(), "version:   2\ntopic_id: QZ1ZeOxcR4-SJdUh0wZVPw\nsomething: new\n");
        assertEquals(new PartitionMetadata(2, TOPIC_ID), new PartitionMetadataFile(file()).read());
    }

    @Test
    void malformedFilesAreRejectedNamingTheFileAndLine() throws IOException {
        assertMalformed("", 1, "the version line is missing");
        assertMalformed("version: 0", 2, "the topic_id line is missing");
        assertMalformed("version:0\ntopic_id: QZ1ZeOxcR4-SJdUh0wZVPw", 1, "not 'version: <value>': 'version:0'");
        assertMalformed("version: zero\ntopic_id: QZ1ZeOxcR4-SJdUh0wZVPw", 1, "version 'zero' is not a number");
        assertMalformed("version: -1\ntopic_id: QZ1ZeOxcR4-SJdUh0wZVPw", 1, "unrecognized version -1");
        assertMalformed(
                "version: 0\ntopicid: QZ1ZeOxcR4-SJdUh0wZVPw",
                2,
                "not 'topic_id: <value>': 'topicid: QZ1ZeOxcR4-SJdUh0wZVPw'");
        assertMalformed(
                "version: 0\ntopic_id: not-a-uuid", 2, "not a Kafka Uuid (22 URL-safe base64 characters): not-a-uuid");
        assertMalformed("version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAA", 2, "the zero topic id is not a topic's id");
    }

    private void assertMalformed(String text, int line, String detail) throws IOException {
        Files.writeString(file(), text);
        MalformedFileException e =
                assertThrows(MalformedFileException.class, () -> new PartitionMetadataFile(file()).read());
        assertEquals("Malformed " + file() + " at line " + line + ": " + detail, e.getMessage());
    }
}
