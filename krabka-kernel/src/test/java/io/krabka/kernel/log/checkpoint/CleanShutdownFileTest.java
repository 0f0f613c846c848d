package io.krabka.kernel.log.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CleanShutdownFileTest {

    @TempDir
    Path dir;

    @Test
    void writesKafkasJsonAndReadsTheBrokerEpochBack() throws IOException {
        CleanShutdownFile marker = new CleanShutdownFile(dir);
        assertFalse(marker.exists());
        assertThrows(NoSuchFileException.class, marker::read);
        marker.write(42);
        assertEquals(dir.resolve(".kafka_cleanshutdown"), marker.file());
        assertEquals("{\"version\":0,\"brokerEpoch\":42}", Files.readString(marker.file()));
        assertEquals(OptionalLong.of(42), marker.read());
        marker.delete();
        assertFalse(marker.exists());
        marker.delete();
    }

    @Test
    void aMarkerWithoutAnEpochReadsAsNone() throws IOException {
        CleanShutdownFile marker = new CleanShutdownFile(dir);
        for (String body : new String[] {"", "\n", "{}", "{\"version\":0,\"brokerEpoch\":null}", "{\"version\":0}"}) {
            Files.writeString(marker.file(), body);
            assertTrue(marker.exists());
            assertEquals(OptionalLong.empty(), marker.read(), body);
        }
    }

    @Test
    void otherFieldsAreIgnoredAsKafkaDoes() throws IOException {
        CleanShutdownFile marker = new CleanShutdownFile(dir);
        Files.writeString(marker.file(), "{ \"brokerEpoch\" : -1, \"version\": 7, \"later\": {\"a\": [1, \"}\"]} }");
        assertEquals(OptionalLong.of(-1), marker.read());
    }

    @Test
    void malformedBodiesAreRejectedNamingTheFileAndLine() throws IOException {
        assertMalformed("[1]", 1, "not a JSON object");
        assertMalformed("{\"brokerEpoch\":\"5\"}", 1, "brokerEpoch is not a 64-bit integer: 5");
        assertMalformed("{\"brokerEpoch\":1.5}", 1, "brokerEpoch is not a 64-bit integer: 1.5");
        assertMalformed(
                "{\"brokerEpoch\":99999999999999999999}",
                1,
                "brokerEpoch is not a 64-bit integer: 99999999999999999999");
        assertMalformed("{\"version\":0}\n{}", 2, "text after the JSON object");
        MalformedFileException torn = assertThrows(MalformedFileException.class, () -> {
            Files.writeString(new CleanShutdownFile(dir).file(), "{\"version\":0,\n\"brokerEp");
            new CleanShutdownFile(dir).read();
        });
        assertEquals(2, torn.line());
    }

    private void assertMalformed(String body, int line, String detail) throws IOException {
        CleanShutdownFile marker = new CleanShutdownFile(dir);
        Files.writeString(marker.file(), body);
        MalformedFileException e = assertThrows(MalformedFileException.class, marker::read);
        assertEquals("Malformed " + marker.file() + " at line " + line + ": " + detail, e.getMessage());
    }
}
