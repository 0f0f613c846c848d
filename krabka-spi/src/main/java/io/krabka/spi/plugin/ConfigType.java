package io.krabka.spi.plugin;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The type of a setting, and how its text form is parsed. */
public enum ConfigType {
    /** {@code true} or {@code false}, any case. */
    BOOLEAN,
    /** A 32-bit integer. */
    INT,
    /** A 64-bit integer. */
    LONG,
    /** A double-precision number. */
    DOUBLE,
    /** Any text. */
    STRING,
    /** Comma-separated text, trimmed, as a {@code List<String>}; blank gives an empty list. */
    LIST,
    /** Text that is never shown: {@link PluginConfig} hides it in messages and in {@code toString}. */
    PASSWORD;

    /**
     * The value of {@code raw} as this type. Text is parsed; a value already of the right Java type is kept.
     *
     * @param key the setting's key, for messages
     * @param raw the value given: text, or a value of this type's Java type
     * @return the value as this type's Java type ({@code Boolean}, {@code Integer}, {@code Long}, {@code Double},
     *     {@code String} or {@code List<String>})
     * @throws ConfigException if the value is not of this type
     */
    public Object parse(String key, Object raw) {
        if (raw == null) {
            throw new ConfigException("missing value for " + key);
        }
        return switch (this) {
            case BOOLEAN ->
                switch (raw) {
                    case Boolean b -> b;
                    case String s when s.trim().equalsIgnoreCase("true") -> true;
                    case String s when s.trim().equalsIgnoreCase("false") -> false;
                    default -> throw wrongType(key, raw);
                };
            case INT ->
                switch (raw) {
                    case Integer i -> i;
                    case String s -> parseNumber(key, s, Integer::parseInt);
                    default -> throw wrongType(key, raw);
                };
            case LONG ->
                switch (raw) {
                    case Long l -> l;
                    case Integer i -> i.longValue();
                    case String s -> parseNumber(key, s, Long::parseLong);
                    default -> throw wrongType(key, raw);
                };
            case DOUBLE ->
                switch (raw) {
                    case Double d -> d;
                    case Number n -> n.doubleValue();
                    case String s -> parseNumber(key, s, Double::parseDouble);
                    default -> throw wrongType(key, raw);
                };
            case STRING, PASSWORD ->
                switch (raw) {
                    case String s -> s.trim();
                    default -> throw wrongType(key, raw);
                };
            case LIST ->
                switch (raw) {
                    case List<?> list -> list.stream().map(String::valueOf).toList();
                    case String s when s.isBlank() -> List.of();
                    case String s ->
                        Arrays.stream(s.split(",")).map(String::trim).toList();
                    default -> throw wrongType(key, raw);
                };
        };
    }

    private ConfigException wrongType(String key, Object raw) {
        return new ConfigException(
                key, this == PASSWORD ? "[hidden]" : raw, "expected " + name().toLowerCase(Locale.ROOT));
    }

    private <N> N parseNumber(String key, String text, java.util.function.Function<String, N> parser) {
        try {
            return parser.apply(text.trim());
        } catch (NumberFormatException e) {
            throw wrongType(key, text);
        }
    }
}
