package io.krabka.spi.plugin;

import java.util.List;
import java.util.Locale;

/** Checks a parsed setting beyond its type. */
@FunctionalInterface
public interface ConfigValidator {

    /**
     * Checks {@code value}, already parsed to its {@link ConfigType}.
     *
     * @param key   the setting's key, for messages
     * @param value the parsed value
     * @throws ConfigException naming the key and why the value is wrong
     */
    void ensureValid(String key, Object value);

    /** {@return a validator that accepts anything} */
    static ConfigValidator any() {
        return (key, value) -> {};
    }

    /**
     * A number at least {@code min}.
     *
     * @param min the smallest valid number
     * @return the validator
     */
    static ConfigValidator atLeast(long min) {
        return (key, value) -> {
            if (((Number) value).doubleValue() < min) {
                throw new ConfigException(key, value, "must be at least " + min);
            }
        };
    }

    /**
     * A number from {@code min} to {@code max}, both inclusive.
     *
     * @param min the smallest valid number
     * @param max the largest valid number
     * @return the validator
     */
    static ConfigValidator between(long min, long max) {
        return (key, value) -> {
            double number = ((Number) value).doubleValue();
            if (number < min || number > max) {
                throw new ConfigException(key, value, "must be between " + min + " and " + max);
            }
        };
    }

    /** {@return a validator of text that is not blank} */
    static ConfigValidator nonBlank() {
        return (key, value) -> {
            if (value.toString().isBlank()) {
                throw new ConfigException(key, "\"\"", "must not be empty");
            }
        };
    }

    /**
     * One of the given texts, compared without regard to case.
     *
     * @param allowed the valid texts
     * @return the validator
     */
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
