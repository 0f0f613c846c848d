package io.krabka.kernel.broker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The broker's settings as they are given: a {@code server.properties} file and {@code KEY=VALUE} overrides, layered
 * as Kafka's {@code kafka-server-start.sh FILE --override KEY=VALUE} layers them (a later layer wins).
 */
public final class ServerProperties {

    private ServerProperties() {}

    /**
     * A properties file, read as Kafka reads {@code server.properties} ({@link Properties#load(InputStream)}:
     * ISO 8859-1, with {@code \}-escapes).
     *
     * @throws IOException if it cannot be read
     */
    public static Map<String, String> read(Path file) throws IOException {
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            props.load(in);
        }
        Map<String, String> values = new LinkedHashMap<>();
        props.stringPropertyNames().stream().sorted().forEach(key -> values.put(key, props.getProperty(key)));
        return values;
    }

    /**
     * One override, {@code KEY=VALUE}: the value is everything after the first {@code =}, and may be empty.
     *
     * @throws BrokerConfigException naming the override, if there is no {@code =} or no key
     */
    public static Map.Entry<String, String> parseOverride(String text) {
        int equals = text.indexOf('=');
        if (equals <= 0 || text.substring(0, equals).isBlank()) {
            throw new BrokerConfigException("--override", text, "expected KEY=VALUE");
        }
        return Map.entry(text.substring(0, equals).trim(), text.substring(equals + 1));
    }

    /** The layers merged, each key from the last layer that has it. */
    public static Map<String, String> layered(List<Map<String, String>> lowestFirst) {
        Map<String, String> merged = new LinkedHashMap<>();
        for (Map<String, String> layer : lowestFirst) {
            merged.putAll(layer);
        }
        return merged;
    }
}
