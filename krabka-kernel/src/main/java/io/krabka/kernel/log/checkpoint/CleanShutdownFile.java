package io.krabka.kernel.log.checkpoint;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Kafka's {@code .kafka_cleanshutdown} marker in a log directory: there, the logs were closed cleanly and need no
 * recovery. Kafka 3.7 and later write a JSON body with the broker epoch (KIP-966), {@code {"version":0,
 * "brokerEpoch":<epoch>}}; earlier versions wrote an empty file. Kafka writes it in place; this writes it to a
 * temporary file and renames it, so a crash cannot leave a torn marker.
 */
public final class CleanShutdownFile {

    /** The file's name in a log directory. */
    public static final String CLEAN_SHUTDOWN_FILE_NAME = ".kafka_cleanshutdown";

    /** The body's version Kafka writes. */
    public static final int CURRENT_VERSION = 0;

    private static final JsonFactory JSON = new JsonFactory();

    private final Path file;

    /** The marker in {@code logDir}. */
    public CleanShutdownFile(Path logDir) {
        this.file = logDir.resolve(CLEAN_SHUTDOWN_FILE_NAME);
    }

    /** The file. */
    public Path file() {
        return file;
    }

    /** Marks the directory cleanly shut down by a broker of {@code brokerEpoch}, durably. */
    public void write(long brokerEpoch) throws IOException {
        String body = "{\"version\":" + CURRENT_VERSION + ",\"brokerEpoch\":" + brokerEpoch + "}";
        AtomicFileWriter.write(file, body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The broker epoch the marker holds: none for an empty marker (written before KIP-966) or one whose epoch is
     * null or absent. Other fields are ignored, as Kafka does.
     *
     * @throws java.nio.file.NoSuchFileException if there is no marker
     * @throws MalformedFileException            naming the file and line, if the body is not such JSON
     */
    public OptionalLong read() throws IOException {
        String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        if (text.isBlank()) {
            return OptionalLong.empty();
        }
        try (JsonParser parser = JSON.createParser(text)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw malformed(parser, "not a JSON object");
            }
            OptionalLong brokerEpoch = OptionalLong.empty();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (field.equals("brokerEpoch")
                        && value == JsonToken.VALUE_NUMBER_INT
                        && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
                    brokerEpoch = OptionalLong.of(parser.getLongValue());
                } else if (field.equals("brokerEpoch") && value != JsonToken.VALUE_NULL) {
                    throw malformed(parser, "brokerEpoch is not a 64-bit integer: " + parser.getText());
                }
                parser.skipChildren();
            }
            if (parser.nextToken() != null) {
                throw malformed(parser, "text after the JSON object");
            }
            return brokerEpoch;
        } catch (JsonProcessingException e) {
            throw new MalformedFileException(
                    file.toString(),
                    e.getLocation() == null ? 1 : e.getLocation().getLineNr(),
                    e.getOriginalMessage());
        }
    }

    /** Whether the marker exists. */
    public boolean exists() {
        return Files.exists(file);
    }

    /** Removes the marker, if there is one: done when the logs are opened, before anything is written. */
    public void delete() throws IOException {
        Files.deleteIfExists(file);
    }

    private MalformedFileException malformed(JsonParser parser, String detail) {
        return new MalformedFileException(
                file.toString(), parser.currentLocation().getLineNr(), detail);
    }

    @Override
    public String toString() {
        return "CleanShutdownFile(file=" + file + ")";
    }
}
