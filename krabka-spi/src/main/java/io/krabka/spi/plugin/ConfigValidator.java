package io.krabka.spi.plugin;

import java.util.List;
import java.util.Locale;

/** Checks a parsed setting beyond its type. */
@FunctionalInterface
public interface ConfigValidator {

    /**
     * Checks {@code value}, already parsed to its {@link ConfigType}.
     *
     * @throws ConfigException naming the key and why the value is wrong
     */
    void ensureValid(String key, Object value);

    /** Accepts anything. */
    static ConfigValidator any() {
        return (key, value) -> {};
    }

    /** A number at least {@code min}. */
    static ConfigValidator atLeast(long min) {
        return (key, value) -> {
            if (((Number) value).doubleValue() < min) {
                throw new ConfigException(key, value, "must be at least " + min);
            }
        };
    }

    /** A number from {@code min} to {@code max}, both inclusive. */
    static ConfigValidator between(long min, long max) {
        return (key, value) -> {
            double number = ((Number) value).doubleValue();
            if (number < min || number > max) {
                throw new ConfigException(key, value, "must be between " + min + " and " + max);
            }
        };
    }

    /** Text that is not blank. */
    static ConfigValidator nonBlank() {
        return (key, value) -> {
            if (value.toString().isBlank()) {
                throw new ConfigException(key, "\"\"", "must not be empty");
            }
        };
    }

    /** One of the given texts, compared without regard to case. */
    static ConfigValidator oneOf(String... allowed) {
        List<String> lower =
                List.of(allowed).stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
        return (key, value) -> {
            if (!lower.contains(value.toString().toLowerCase(Locale.ROOT))) {
                throw new ConfigException(key, value, "must be one of " + String.join(", ", allowed));
            }
        };
    }
}
