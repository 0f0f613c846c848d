package io.krabka.kernel.log.config;

import java.util.List;
import java.util.Objects;

/**
 * A topic setting's value and where it came from, for DescribeConfigs.
 *
 * @param def      the setting
 * @param value    its value, of the setting's type
 * @param source   where the value came from
 * @param synonyms every place that sets it, highest precedence first, the one in force first: the topic's own
 *                 value, each broker synonym that is set, and the default
 */
public record ConfigEntry(TopicConfigDef def, Object value, ConfigSource source, List<Synonym> synonyms) {

    /**
     * One place that sets a topic setting.
     *
     * @param name   the key there: the topic setting's name for the topic's value and the default, the broker key
     *               for a broker synonym
     * @param value  the value there, as text in the key's own unit ({@code log.retention.hours} in hours)
     * @param source the place
     */
    public record Synonym(String name, String value, ConfigSource source) {

        /** Checks the parts. */
        public Synonym {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(source, "source");
        }
    }

    /** Checks the parts. */
    public ConfigEntry {
        Objects.requireNonNull(def, "def");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(source, "source");
        synonyms = List.copyOf(synonyms);
    }

    /** The setting's name. */
    public String name() {
        return def.name();
    }

    /** The value as Kafka writes it: lists comma-separated. */
    public String valueText() {
        return def.toText(value);
    }
}
