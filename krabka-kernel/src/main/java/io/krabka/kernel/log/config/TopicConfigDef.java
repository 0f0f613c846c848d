package io.krabka.kernel.log.config;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import java.util.List;
import java.util.Objects;

/**
 * A topic setting: its key (name, type, default, documentation, validator) and the broker settings that give it a
 * broker-wide default, highest precedence first.
 *
 * @param key            the setting; every topic setting has a default
 * @param brokerSynonyms the broker keys, highest precedence first; none for a setting only a topic sets
 */
public record TopicConfigDef(ConfigKey key, List<ConfigSynonym> brokerSynonyms) {

    /** Checks the parts. */
    public TopicConfigDef {
        Objects.requireNonNull(key, "key");
        if (key.isRequired()) {
            throw new IllegalArgumentException("topic setting " + key.name() + " needs a default");
        }
        brokerSynonyms = List.copyOf(brokerSynonyms);
    }

    /** The setting's name. */
    public String name() {
        return key.name();
    }

    /** The default, of the setting's type. */
    public Object defaultValue() {
        return key.defaultValue().orElseThrow();
    }

    /**
     * The value {@code raw} (text, or a value of the setting's type) gives the setting.
     *
     * @throws ConfigException naming the setting, if the value is not of its type or not valid
     */
    public Object parse(Object raw) {
        return check(key.type().parse(name(), listItems(key.type(), raw)));
    }

    /**
     * The value a broker synonym's {@code raw} value gives the setting: parsed as the broker key's type, converted,
     * and checked as the setting's.
     *
     * @throws ConfigException naming the broker key, if the value is not of its type or gives an invalid value
     */
    public Object parseSynonym(ConfigSynonym synonym, Object raw) {
        Object value = synonym.converter().apply(synonym.type().parse(synonym.name(), listItems(synonym.type(), raw)));
        try {
            return check(value);
        } catch (ConfigException e) {
            throw new ConfigException(
                    synonym.name(), raw, "as the broker default of " + name() + ": " + e.getMessage());
        }
    }

    /** Kafka's text of a value of this setting: lists comma-separated. */
    public String toText(Object value) {
        return value instanceof List<?> list
                ? String.join(",", list.stream().map(String::valueOf).toList())
                : String.valueOf(value);
    }

    private Object check(Object parsed) {
        Object value = parsed;
        if (key.validator() instanceof Validators.ValidList && parsed instanceof List<?> items) {
            value = items.stream().distinct().toList(); // Kafka drops repeats before its check rejects them
        }
        key.validator().ensureValid(name(), value);
        return value;
    }

    /**
     * Text split into items as Kafka splits it, keeping empty items ({@code "delete,"}) for the validator to
     * reject: {@link ConfigType#LIST}'s own split drops trailing ones.
     */
    private static Object listItems(ConfigType type, Object raw) {
        if (type == ConfigType.LIST && raw instanceof String text && !text.isBlank()) {
            return List.of(text.trim().split("\\s*,\\s*", -1));
        }
        return raw;
    }
}
