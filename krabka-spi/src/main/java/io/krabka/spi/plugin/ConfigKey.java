package io.krabka.spi.plugin;

import java.util.Objects;
import java.util.Optional;

/**
 * A setting a plugin takes: its key, type, default, documentation and validation. A key without a default is
 * required.
 *
 * @param name          the key, relative to the plugin's prefix ({@code dir} for {@code rsm.config.dir})
 * @param type          how the value is parsed
 * @param defaultValue  the value when none is given, already of {@code type}; empty for a required key
 * @param documentation what the setting does, for the configuration reference
 * @param validator     checks a parsed value beyond its type
 */
public record ConfigKey(
        String name, ConfigType type, Optional<Object> defaultValue, String documentation, ConfigValidator validator) {

    /** Validates the parts, and the default against the type and the validator. */
    public ConfigKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(documentation, "documentation");
        Objects.requireNonNull(validator, "validator");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a config key needs a name");
        }
        if (defaultValue.isPresent()) {
            Object parsed = type.parse(name, defaultValue.get());
            validator.ensureValid(name, parsed);
            defaultValue = Optional.of(parsed);
        }
    }

    /** A setting that must be given. */
    public static ConfigKey required(String name, ConfigType type, String documentation) {
        return new ConfigKey(name, type, Optional.empty(), documentation, ConfigValidator.any());
    }

    /** A setting with a default. */
    public static ConfigKey optional(String name, ConfigType type, Object defaultValue, String documentation) {
        return new ConfigKey(name, type, Optional.of(defaultValue), documentation, ConfigValidator.any());
    }

    /** This key with a validator. */
    public ConfigKey withValidator(ConfigValidator newValidator) {
        return new ConfigKey(name, type, defaultValue, documentation, newValidator);
    }

    /** Whether the setting must be given. */
    public boolean isRequired() {
        return defaultValue.isEmpty();
    }
}
