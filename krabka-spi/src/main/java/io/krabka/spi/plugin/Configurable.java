package io.krabka.spi.plugin;

import java.util.Map;

/** A plugin instance that takes its settings once, after it is created and before it is used. */
public interface Configurable {

    /**
     * Applies the plugin's settings. The kernel passes the keys the provider declares in
     * {@link PluginProvider#configKeys()}, already checked and parsed by {@link PluginConfig#parse}, with defaults
     * filled in.
     *
     * @param configs the settings, by key relative to the plugin's prefix
     * @throws ConfigException if a setting is missing or invalid
     */
    void configure(Map<String, ?> configs);
}
