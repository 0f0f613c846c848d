package io.krabka.kernel.log.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetaPropertiesTest {

    private static final Uuid DIRECTORY_ID = Uuid.fromString("6mT3sOmgSpC5vlXSWi7Z2A");

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve(MetaProperties.META_PROPERTIES_FILE_NAME);
    }

    @Test
    void writesAPropertiesFileWithKafkasCommentLinesAndReadsItBack() throws IOException {
        MetaProperties meta = new MetaProperties("MkU3OEVBNTcwNTJENDM2Qg", 3, Optional.of(DIRECTORY_ID));
        meta.write(file());
        List<String> lines = Files.readAllLines(file());
        assertEquals("#", lines.get(0));
        assertTrue(lines.get(1).startsWith("#"), lines.get(1));
        assertEquals(
                List.of(
                        "cluster.id=MkU3OEVBNTcwNTJENDM2Qg",
                        "directory.id=6mT3sOmgSpC5vlXSWi7Z2A",
                        "node.id=3",
                        "version=1"),
                lines.subList(2, lines.size()));
        assertEquals(meta, MetaProperties.read(file()));
    }

    @Test
    void aFileFromBeforeDirectoryIdsReadsWithoutOne() throws IOException {
        Files.writeString(file(), "version=1\ncluster.id=abc\nnode.id=0\nsomething.else=ignored\n");
        assertEquals(new MetaProperties("abc", 0, Optional.empty()), MetaProperties.read(file()));
    }

    @Test
    void malformedFilesAreRejectedNamingTheFileAndProperty() throws IOException {
        assertMalformed("cluster.id=abc\nnode.id=0\n", "version 0 is not supported; only version 1 (KRaft) is");
        assertMalformed(
                "version=2\ncluster.id=abc\nnode.id=0\n", "version 2 is not supported; only version 1 (KRaft) is");
        assertMalformed("version=1\nnode.id=0\n", "cluster.id was not found");
        assertMalformed("version=1\ncluster.id=\nnode.id=0\n", "empty cluster.id");
        assertMalformed("version=1\ncluster.id=abc\n", "node.id was not found");
        assertMalformed("version=1\ncluster.id=abc\nnode.id=x\n", "node.id 'x' is not a base-10 number");
        assertMalformed("version=1\ncluster.id=abc\nnode.id=-2\n", "negative node.id -2");
        assertMalformed(
                "version=1\ncluster.id=abc\nnode.id=1\ndirectory.id=nope\n",
                "directory.id is not a Uuid: not a Kafka Uuid (22 URL-safe base64 characters): nope");
        assertMalformed(
                "version=1\ncluster.id=\\u00zz\nnode.id=1\n", "not a properties file: Malformed \\uxxxx encoding.");
    }

    private void assertMalformed(String text, String detail) throws IOException {
        Files.writeString(file(), text);
        MalformedFileException e = assertThrows(MalformedFileException.class, () -> MetaProperties.read(file()));
        assertEquals("Malformed " + file() + ": " + detail, e.getMessage());
    }
}
