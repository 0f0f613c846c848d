package io.krabka.spi.plugin;

import java.io.Serial;

/** A setting that is missing, unknown, of the wrong type or out of range. The message names the key. */
public class ConfigException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * A problem with a setting, described by a message that names the key and why.
     *
     * @param message what is wrong, naming the key
     */
    public ConfigException(String message) {
        super(message);
    }

    /**
     * A problem with the value of {@code key}.
     *
     * @param key   the setting's key
     * @param value the value given
     * @param why   what is wrong with it
     */
    public ConfigException(String key, Object value, String why) {
        super("invalid value " + value + " for " + key + ": " + why);
    }
}
