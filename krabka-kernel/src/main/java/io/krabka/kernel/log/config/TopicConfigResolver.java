package io.krabka.kernel.log.config;

import io.krabka.spi.plugin.ConfigException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Gives each topic setting its value: the topic's own, else the first broker synonym the broker sets, else the
 * default. A {@code null} value counts as not set.
 */
final class TopicConfigResolver {

    private TopicConfigResolver() {}

    /**
     * Every topic setting's entry, in {@link TopicConfigs#ALL}'s order.
     *
     * @param brokerProps    the broker's settings; keys that are no topic setting's synonym are ignored
     * @param topicOverrides the topic's own settings
     * @throws ConfigException naming the key, for an unknown topic setting or an invalid value
     */
    static Map<String, ConfigEntry> resolve(Map<String, ?> brokerProps, Map<String, ?> topicOverrides) {
        Set<String> unknown = new TreeSet<>(topicOverrides.keySet());
        TopicConfigs.ALL.forEach(def -> unknown.remove(def.name()));
        if (!unknown.isEmpty()) {
            throw new ConfigException(
                    "Unknown topic config name" + (unknown.size() > 1 ? "s: " : ": ") + String.join(", ", unknown));
        }
        Map<String, ConfigEntry> entries = new LinkedHashMap<>();
        for (TopicConfigDef def : TopicConfigs.ALL) {
            entries.put(def.name(), resolve(def, brokerProps, topicOverrides.get(def.name())));
        }
        return entries;
    }

    private static ConfigEntry resolve(TopicConfigDef def, Map<String, ?> brokerProps, Object override) {
        List<ConfigEntry.Synonym> synonyms = new ArrayList<>();
        Object value = null;
        ConfigSource source = ConfigSource.DEFAULT_CONFIG;
        if (override != null) {
            value = def.parse(override);
            source = ConfigSource.DYNAMIC_TOPIC_CONFIG;
            synonyms.add(new ConfigEntry.Synonym(def.name(), def.toText(value), source));
        }
        for (ConfigSynonym synonym : def.brokerSynonyms()) {
            Object raw = brokerProps.get(synonym.name());
            if (raw == null) {
                continue;
            }
            Object brokerValue = def.parseSynonym(synonym, raw); // checked even when a higher one wins, as Kafka does
            if (value == null) {
                value = brokerValue;
                source = ConfigSource.STATIC_BROKER_CONFIG;
            }
            synonyms.add(
                    new ConfigEntry.Synonym(synonym.name(), def.toText(raw).trim(), ConfigSource.STATIC_BROKER_CONFIG));
        }
        synonyms.add(new ConfigEntry.Synonym(def.name(), def.toText(def.defaultValue()), ConfigSource.DEFAULT_CONFIG));
        return new ConfigEntry(def, value == null ? def.defaultValue() : value, source, synonyms);
    }
}
