package io.krabka.plugin.rlmm.inmemory;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One JSON object of a snapshot file, read strictly: every field present and of its type, no other field. Every
 * error names the file and the path of the field, such as {@code partitions[0].segments[3].startOffset}.
 */
final class StrictJsonObject {

    private final JsonNode node;
    private final String path;
    private final Path file;

    private StrictJsonObject(JsonNode node, String path, Path file) {
        this.node = node;
        this.path = path;
        this.file = file;
    }

    /** The top-level object of a file. */
    static StrictJsonObject root(JsonNode node, Path file) throws InvalidSnapshotException {
        if (!node.isObject()) {
            throw new InvalidSnapshotException(file, "expected a JSON object at the top, found " + node.getNodeType());
        }
        return new StrictJsonObject(node, "", file);
    }

    /** Checks that the object has no fields but these; a missing one is reported when it is read. */
    void rejectOtherFields(String... names) throws InvalidSnapshotException {
        Set<String> unexpected = new TreeSet<>();
        node.properties().forEach(property -> unexpected.add(property.getKey()));
        unexpected.removeAll(Set.of(names));
        if (!unexpected.isEmpty()) {
            throw error(unexpected.iterator().next(), "unexpected field; expected only " + Arrays.toString(names));
        }
    }

    long longField(String name) throws InvalidSnapshotException {
        return longValue(name, field(name));
    }

    int intField(String name) throws InvalidSnapshotException {
        JsonNode value = field(name);
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw error(name, "expected a 32-bit whole number, found " + value);
        }
        return value.intValue();
    }

    boolean booleanField(String name) throws InvalidSnapshotException {
        JsonNode value = field(name);
        if (!value.isBoolean()) {
            throw error(name, "expected true or false, found " + value);
        }
        return value.booleanValue();
    }

    String textField(String name) throws InvalidSnapshotException {
        return textValue(name, field(name));
    }

    /** A text field converted by {@code parse}, whose {@link IllegalArgumentException} becomes the error. */
    <T> T parsedField(String name, Function<String, T> parse) throws InvalidSnapshotException {
        return parse(name, textField(name), parse);
    }

    Optional<Long> optionalLongField(String name) throws InvalidSnapshotException {
        JsonNode value = field(name);
        return value.isNull() ? Optional.empty() : Optional.of(longValue(name, value));
    }

    <T> Optional<T> optionalParsedField(String name, Function<String, T> parse) throws InvalidSnapshotException {
        JsonNode value = field(name);
        return value.isNull() ? Optional.empty() : Optional.of(parse(name, textValue(name, value), parse));
    }

    Optional<StrictJsonObject> optionalObjectField(String name) throws InvalidSnapshotException {
        JsonNode value = field(name);
        return value.isNull() ? Optional.empty() : Optional.of(object(name, value));
    }

    /** An object that must be there. */
    StrictJsonObject objectField(String name) throws InvalidSnapshotException {
        return object(name, field(name));
    }

    /** An array of objects. */
    List<StrictJsonObject> objectArray(String name) throws InvalidSnapshotException {
        List<StrictJsonObject> objects = new ArrayList<>();
        JsonNode array = array(name);
        for (int i = 0; i < array.size(); i++) {
            objects.add(object(name + "[" + i + "]", array.get(i)));
        }
        return objects;
    }

    /** An array of texts, each converted by {@code parse}. */
    <T> List<T> parsedArray(String name, Function<String, T> parse) throws InvalidSnapshotException {
        List<T> values = new ArrayList<>();
        JsonNode array = array(name);
        for (int i = 0; i < array.size(); i++) {
            String element = name + "[" + i + "]";
            values.add(parse(element, textValue(element, array.get(i)), parse));
        }
        return values;
    }

    /** An object used as a map to whole numbers, its keys converted by {@code parseKey}. */
    <K> Map<K, Long> longMap(String name, Function<String, K> parseKey) throws InvalidSnapshotException {
        JsonNode map = field(name);
        if (!map.isObject()) {
            throw error(name, "expected an object, found " + map.getNodeType());
        }
        Map<K, Long> values = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : map.properties()) {
            String element = name + "." + entry.getKey();
            values.put(parse(element, entry.getKey(), parseKey), longValue(element, entry.getValue()));
        }
        return values;
    }

    /**
     * Builds a value from the fields read; the {@link IllegalArgumentException} of a validating constructor becomes
     * an error about this object.
     */
    <T> T build(Supplier<T> constructor) throws InvalidSnapshotException {
        try {
            return constructor.get();
        } catch (IllegalArgumentException e) {
            throw new InvalidSnapshotException(file, (path.isEmpty() ? "" : path + ": ") + e.getMessage(), e);
        }
    }

    /** An error about a field of this object. */
    InvalidSnapshotException error(String name, String problem) {
        return new InvalidSnapshotException(file, fieldPath(name) + ": " + problem);
    }

    private JsonNode field(String name) throws InvalidSnapshotException {
        JsonNode value = node.get(name);
        if (value == null) {
            throw error(name, "missing");
        }
        return value;
    }

    private JsonNode array(String name) throws InvalidSnapshotException {
        JsonNode array = field(name);
        if (!array.isArray()) {
            throw error(name, "expected an array, found " + array.getNodeType());
        }
        return array;
    }

    private StrictJsonObject object(String name, JsonNode value) throws InvalidSnapshotException {
        if (!value.isObject()) {
            throw error(name, "expected an object, found " + value.getNodeType());
        }
        return new StrictJsonObject(value, fieldPath(name), file);
    }

    private long longValue(String name, JsonNode value) throws InvalidSnapshotException {
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw error(name, "expected a 64-bit whole number, found " + value);
        }
        return value.longValue();
    }

    private String textValue(String name, JsonNode value) throws InvalidSnapshotException {
        if (!value.isTextual()) {
            throw error(name, "expected a string, found " + value);
        }
        return value.textValue();
    }

    private <T> T parse(String name, String text, Function<String, T> parse) throws InvalidSnapshotException {
        try {
            return parse.apply(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidSnapshotException(file, fieldPath(name) + ": " + e.getMessage(), e);
        }
    }

    private String fieldPath(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }
}
