package io.krabka.archive.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.krabka.spi.common.Uuid;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * Compact JSON, as the original writes with {@code serde_json::to_vec}: no whitespace, fields in the order the
 * writer emits them.
 */
public final class CompactJson {

    private static final JsonFactory FACTORY = new JsonFactory();

    private CompactJson() {}

    /** What writes one document's JSON. */
    @FunctionalInterface
    public interface Writer {
        /** Writes the document. */
        void write(JsonGenerator json) throws IOException;
    }

    /** The bytes of the document {@code writer} writes. */
    public static byte[] write(Writer writer) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try (JsonGenerator json = FACTORY.createGenerator(out)) {
            writer.write(json);
        } catch (IOException e) {
            // Only the generator can fail here, and an in-memory stream never does.
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Writes a field whose value may be absent as serde writes an {@code Option}: null when absent. */
    public static void optionalString(JsonGenerator json, String name, Optional<String> value) throws IOException {
        if (value.isPresent()) {
            json.writeStringField(name, value.get());
        } else {
            json.writeNullField(name);
        }
    }

    /** Writes a UUID in the {@code uuid} crate's serde form: lowercase, hyphenated. */
    public static void uuid(JsonGenerator json, String name, Uuid uuid) throws IOException {
        json.writeStringField(name, Uuids.hyphenated(uuid));
    }

    /** Writes a {@code u64} held in a long's 64 bits. */
    public static void unsignedLong(JsonGenerator json, String name, long bits) throws IOException {
        json.writeFieldName(name);
        json.writeNumber(Long.toUnsignedString(bits));
    }
}
