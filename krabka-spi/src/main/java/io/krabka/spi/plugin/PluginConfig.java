package io.krabka.spi.plugin;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A plugin's settings, checked against its {@link ConfigKey}s: every key known, every value of its type and
 * valid, every default filled in.
 *
 * @param keys   the keys the plugin declares
 * @param values every declared key to its parsed value
 */
public record PluginConfig(List<ConfigKey> keys, Map<String, Object> values) {

    /** Freezes the parts. */
    public PluginConfig {
        keys = List.copyOf(keys);
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /**
     * Checks and parses raw settings. Values may be text or already of their type.
     *
     * @param keys the keys the plugin declares, each once
     * @param raw  the settings given, by key relative to the plugin's prefix
     * @return the settings, parsed, with every default filled in
     * @throws IllegalArgumentException if {@code keys} declares a key twice
     * @throws ConfigException for an unknown key (a misspelt one would otherwise be silently ignored), a missing
     *                         required key, or an invalid value
     */
    public static PluginConfig parse(List<ConfigKey> keys, Map<String, ?> raw) {
        Map<String, ConfigKey> byName = keys.stream()
                .collect(Collectors.toMap(
                        ConfigKey::name,
                        key -> key,
                        (a, b) -> {
                            throw new IllegalArgumentException("config key declared twice: " + a.name());
                        },
                        LinkedHashMap::new));
        Set<String> unknown = new TreeSet<>(raw.keySet());
        unknown.removeAll(byName.keySet());
        if (!unknown.isEmpty()) {
            throw new ConfigException("unknown setting" + (unknown.size() > 1 ? "s " : " ") + String.join(", ", unknown)
                    + "; known: " + String.join(", ", byName.keySet()));
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (ConfigKey key : byName.values()) {
            Object given = raw.get(key.name());
            if (given == null) {
                values.put(
                        key.name(),
                        key.defaultValue()
                                .orElseThrow(() -> new ConfigException(
                                        "missing required setting " + key.name() + ": " + key.documentation())));
                continue;
            }
            Object parsed = key.type().parse(key.name(), given);
            key.validator().ensureValid(key.name(), parsed);
            values.put(key.name(), parsed);
        }
        return new PluginConfig(keys, values);
    }

    /**
     * The value of a STRING or PASSWORD key.
     *
     * @param key the key, as declared
     * @return its value, given or default
     * @throws ConfigException if the plugin declares no such key
     */
    public String getString(String key) {
        return (String) get(key);
    }

    /**
     * The value of an INT key.
     *
     * @param key the key, as declared
     * @return its value, given or default
     * @throws ConfigException if the plugin declares no such key
     */
    public int getInt(String key) {
        return (Integer) get(key);
    }

    /**
     * The value of a LONG key.
     *
     * @param key the key, as declared
     * @return its value, given or default
     * @throws ConfigException if the plugin declares no such key
     */
    public long getLong(String key) {
        return (Long) get(key);
    }

    /**
     * The value of a DOUBLE key.
     *
     * @param key the key, as declared
     * @return its value, given or default
     * @throws ConfigException if the plugin declares no such key
     */
    public double getDouble(String key) {
        return (Double) get(key);
    }

    /**
     * The value of a BOOLEAN key.
     *
     * @param key the key, as declared
     * @return its value, given or default
     * @throws ConfigException if the plugin declares no such key
     */
    public boolean getBoolean(String key) {
        return (Boolean) get(key);
    }

    /**
     * The value of a LIST key.
     *
     * @param key the key, as declared
     * @return its value, given or default
     * @throws ConfigException if the plugin declares no such key
     */
    @SuppressWarnings("unchecked")
    public List<String> getList(String key) {
        return (List<String>) get(key);
    }

    private Object get(String key) {
        if (!values.containsKey(key)) {
            throw new ConfigException("not a declared setting: " + key);
        }
        return Objects.requireNonNull(values.get(key));
    }

    /** The settings with passwords hidden. */
    @Override
    public String toString() {
        Set<String> hidden = keys.stream()
                .filter(k -> k.type() == ConfigType.PASSWORD)
                .map(ConfigKey::name)
                .collect(Collectors.toSet());
        return values.entrySet().stream()
                .map(e -> e.getKey() + "=" + (hidden.contains(e.getKey()) ? "[hidden]" : e.getValue()))
                .collect(Collectors.joining(", ", "PluginConfig[", "]"));
    }
}
