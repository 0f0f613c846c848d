package io.krabka.kernel.log.config;

import io.krabka.spi.plugin.ConfigKey;
import java.util.Map;

/** Reads one broker setting from {@code server.properties}-style settings, as the broker's config records do. */
public final class ConfigValues {

    private ConfigValues() {}

    /**
     * The key's value in {@code props}, parsed as its type and checked; its default when absent.
     *
     * @throws io.krabka.spi.plugin.ConfigException naming the key, for a value of the wrong type or range
     * @throws java.util.NoSuchElementException     if the key is absent and has no default
     */
    public static Object value(Map<String, ?> props, ConfigKey key) {
        Object raw = props.get(key.name());
        Object value =
                raw == null ? key.defaultValue().orElseThrow() : key.type().parse(key.name(), raw);
        key.validator().ensureValid(key.name(), value);
        return value;
    }
}
