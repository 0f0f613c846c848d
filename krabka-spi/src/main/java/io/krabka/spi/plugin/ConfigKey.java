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

    /**
     * A setting that must be given.
     *
     * @param name          the key, relative to the plugin's prefix
     * @param type          how the value is parsed
     * @param documentation what the setting does
     * @return the key, with no validation beyond its type
     */
    public static ConfigKey required(String name, ConfigType type, String documentation) {
        return new ConfigKey(name, type, Optional.empty(), documentation, ConfigValidator.any());
    }

    /**
     * A setting with a default.
     *
     * @param name          the key, relative to the plugin's prefix
     * @param type          how the value is parsed
     * @param defaultValue  the value when none is given, in any form {@code type} parses
     * @param documentation what the setting does
     * @return the key, with no validation beyond its type
     */
    public static ConfigKey optional(String name, ConfigType type, Object defaultValue, String documentation) {
        return new ConfigKey(name, type, Optional.of(defaultValue), documentation, ConfigValidator.any());
    }

    /**
     * This key with a validator.
     *
     * @param newValidator checks a parsed value beyond its type, replacing this key's validator
     * @return a copy of this key with the validator
     */
    public ConfigKey withValidator(ConfigValidator newValidator) {
        return new ConfigKey(name, type, defaultValue, documentation, newValidator);
    }

    /** {@return whether the setting must be given} */
    public boolean isRequired() {
        return defaultValue.isEmpty();
    }
}
