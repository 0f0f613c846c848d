package io.krabka.archive.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.krabka.archive.DocumentKind;
import io.krabka.archive.MalformedDocumentException;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A JSON object read as the original's serde structs read theirs: {@code deny_unknown_fields}, every field
 * present unless it is optional, no coercion between types (a string is never a number, a float never an
 * integer), integers in their Rust type's range, duplicate keys refused. Every error is a
 * {@link MalformedDocumentException} that names the field by its path.
 */
public final class StrictJsonObject {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    /** The {@code uuid} crate's serde form: lowercase, hyphenated. */
    private static final Pattern HYPHENATED_UUID =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private final DocumentKind document;
    private final String path;
    private final JsonNode node;

    private StrictJsonObject(DocumentKind document, String path, JsonNode node) {
        this.document = document;
        this.path = path;
        this.node = node;
    }

    /**
     * The top-level object of a JSON document.
     *
     * @throws MalformedDocumentException if the bytes are not one JSON object
     */
    public static StrictJsonObject parse(DocumentKind document, byte[] json) throws MalformedDocumentException {
        JsonNode root;
        try (JsonParser parser = MAPPER.createParser(json)) {
            root = MAPPER.readTree(parser);
            if (root != null && parser.nextToken() != null) {
                throw new MalformedDocumentException(document, "trailing characters after the JSON object");
            }
        } catch (JsonProcessingException e) {
            throw new MalformedDocumentException(document, "not JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new MalformedDocumentException(document, "not JSON: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new MalformedDocumentException(document, "not a JSON object");
        }
        return new StrictJsonObject(document, "", root);
    }

    /**
     * Checks that the object has no field but these, as serde's {@code deny_unknown_fields} does.
     *
     * @throws MalformedDocumentException naming the first unknown field
     */
    public StrictJsonObject allowOnly(Set<String> names) throws MalformedDocumentException {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!names.contains(name)) {
                throw malformed(name, "unknown field");
            }
        }
        return this;
    }

    /** Whether the object has a field of this name, null or not. */
    public boolean has(String name) {
        return node.has(name);
    }

    /** A string field. */
    public String string(String name) throws MalformedDocumentException {
        JsonNode value = required(name);
        if (!value.isTextual()) {
            throw malformed(name, "not a string");
        }
        return value.textValue();
    }

    /** An optional string field: absent or null is empty, as serde reads an {@code Option<String>}. */
    public Optional<String> optionalString(String name) throws MalformedDocumentException {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw malformed(name, "not a string or null");
        }
        return Optional.of(value.textValue());
    }

    /** A boolean field. */
    public boolean bool(String name) throws MalformedDocumentException {
        JsonNode value = required(name);
        if (!value.isBoolean()) {
            throw malformed(name, "not a boolean");
        }
        return value.booleanValue();
    }

    /** A boolean field that may be absent ({@code #[serde(default)]}); null is still an error, as in serde. */
    public boolean boolOrDefault(String name, boolean absent) throws MalformedDocumentException {
        return node.has(name) ? bool(name) : absent;
    }

    /** An {@code i16} field. */
    public short int16(String name) throws MalformedDocumentException {
        return (short) integer(name, Short.MIN_VALUE, Short.MAX_VALUE, "a 16-bit integer");
    }

    /** An {@code i32} field. */
    public int int32(String name) throws MalformedDocumentException {
        return (int) integer(name, Integer.MIN_VALUE, Integer.MAX_VALUE, "a 32-bit integer");
    }

    /** A {@code u32} field. */
    public long uint32(String name) throws MalformedDocumentException {
        return integer(name, 0, 0xFFFF_FFFFL, "an unsigned 32-bit integer");
    }

    /** An {@code i64} field. */
    public long int64(String name) throws MalformedDocumentException {
        return integer(name, Long.MIN_VALUE, Long.MAX_VALUE, "a 64-bit integer");
    }

    /** A {@code u64} field, as the long of the same 64 bits (read it with {@link Long#toUnsignedString}). */
    public long uint64(String name) throws MalformedDocumentException {
        JsonNode value = required(name);
        if (!value.isIntegralNumber()) {
            throw malformed(name, "not an unsigned 64-bit integer");
        }
        BigInteger number = value.bigIntegerValue();
        if (number.signum() < 0 || number.compareTo(U64_MAX) > 0) {
            throw malformed(name, "not an unsigned 64-bit integer: " + number);
        }
        return number.longValue();
    }

    /** A UUID field in the {@code uuid} crate's serde form, lowercase and hyphenated; nothing else is read. */
    public Uuid uuid(String name) throws MalformedDocumentException {
        String text = string(name);
        if (!HYPHENATED_UUID.matcher(text).matches()) {
            throw malformed(name, "not a lowercase hyphenated UUID: \"" + text + "\"");
        }
        UUID uuid = UUID.fromString(text);
        return new Uuid(uuid.getMostSignificantBits(), uuid.getLeastSignificantBits());
    }

    /** A field of exactly 32 bytes in hex (64 digits, either case): a chain head, a SHA-256 digest. */
    public byte[] hex32(String name) throws MalformedDocumentException {
        String text = string(name);
        try {
            return Hex.decode32(text);
        } catch (IllegalArgumentException e) {
            throw malformed(name, e.getMessage());
        }
    }

    /** An optional 32-byte hex field: absent or null is empty. */
    public Optional<byte[]> optionalHex32(String name) throws MalformedDocumentException {
        JsonNode value = node.get(name);
        return value == null || value.isNull() ? Optional.empty() : Optional.of(hex32(name));
    }

    /** A field of any number of bytes in hex (an even number of digits, either case). */
    public byte[] hex(String name) throws MalformedDocumentException {
        String text = string(name);
        try {
            return Hex.decode(text);
        } catch (IllegalArgumentException e) {
            throw malformed(name, e.getMessage());
        }
    }

    /** An object field. */
    public StrictJsonObject object(String name) throws MalformedDocumentException {
        JsonNode value = required(name);
        if (!value.isObject()) {
            throw malformed(name, "not an object");
        }
        return new StrictJsonObject(document, childPath(name), value);
    }

    /** An optional object field ({@code Option<Struct>}): absent or null is empty. */
    public Optional<StrictJsonObject> optionalObject(String name) throws MalformedDocumentException {
        JsonNode value = node.get(name);
        return value == null || value.isNull() ? Optional.empty() : Optional.of(object(name));
    }

    /** An array field whose every element is an object. */
    public List<StrictJsonObject> objects(String name) throws MalformedDocumentException {
        JsonNode value = required(name);
        if (!value.isArray()) {
            throw malformed(name, "not an array");
        }
        List<StrictJsonObject> elements = new ArrayList<>(value.size());
        for (int i = 0; i < value.size(); i++) {
            JsonNode element = value.get(i);
            String elementPath = childPath(name) + "[" + i + "]";
            if (!element.isObject()) {
                throw new MalformedDocumentException(document, elementPath + ": not an object");
            }
            elements.add(new StrictJsonObject(document, elementPath, element));
        }
        return elements;
    }

    /**
     * An object field read as a map whose values are {@code i64}s, in the document's order; the caller reads the
     * keys (serde writes a map's integer keys as decimal strings).
     */
    public Map<String, Long> int64Map(String name) throws MalformedDocumentException {
        StrictJsonObject map = object(name);
        Map<String, Long> entries = new LinkedHashMap<>();
        for (Iterator<String> it = map.node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            entries.put(key, map.int64(key));
        }
        return entries;
    }

    /** An error about a field of this object, with the field's path. */
    public MalformedDocumentException malformed(String name, String detail) {
        return new MalformedDocumentException(document, childPath(name) + ": " + detail);
    }

    private long integer(String name, long min, long max, String what) throws MalformedDocumentException {
        JsonNode value = required(name);
        if (!value.isIntegralNumber()) {
            throw malformed(name, "not " + what);
        }
        if (!value.canConvertToLong() || value.longValue() < min || value.longValue() > max) {
            throw malformed(name, "not " + what + ": " + value.bigIntegerValue());
        }
        return value.longValue();
    }

    private JsonNode required(String name) throws MalformedDocumentException {
        JsonNode value = node.get(name);
        if (value == null) {
            throw malformed(name, "missing field");
        }
        if (value.isNull()) {
            throw malformed(name, "null where a value is required");
        }
        return value;
    }

    private String childPath(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }
}
