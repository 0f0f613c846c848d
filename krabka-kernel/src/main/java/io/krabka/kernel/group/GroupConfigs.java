package io.krabka.kernel.group;

import io.krabka.kernel.controller.ConfigurationValidator;
import io.krabka.kernel.controller.TopicConfigDescriber.Synonym;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;

/**
 * Kafka 4.4's group configs ({@code GroupConfig}), set per group with IncrementalAlterConfigs on a GROUP resource and
 * kept as {@code ConfigRecord}s in the metadata log: checked as Kafka checks them, against the bounds the broker's
 * {@link GroupConfigDefaults} set, with Kafka's messages; described with the broker key each takes its default from.
 * They govern the consumer (KIP-848), share and streams group protocols; a classic group, as on Kafka, takes its
 * timeouts from its members' JoinGroup requests.
 */
public final class GroupConfigs implements ConfigurationValidator {

    private final GroupConfigDefaults defaults;

    /** The group configs with the defaults and bounds of the broker's {@code server.properties}. */
    public GroupConfigs(GroupConfigDefaults defaults) {
        this.defaults = Objects.requireNonNull(defaults, "defaults");
    }

    /**
     * A group config as DescribeConfigs reports it (Kafka's {@code createGroupConfigEntry}).
     *
     * @param name          the config
     * @param value         its value in force, as text
     * @param source        where the value comes from: the group, the broker's {@code server.properties}, a default
     * @param synonyms      the group's own value, then the broker key's (static, then default) or the default
     * @param type          its type
     * @param documentation Kafka's documentation of it
     */
    public record Entry(
            String name,
            String value,
            ConfigSource source,
            List<Synonym> synonyms,
            ConfigType type,
            String documentation) {
        /** Copies the synonyms. */
        public Entry {
            synonyms = List.copyOf(synonyms);
        }
    }

    /** Every group config, with its type, own default and documentation, in Kafka's order. */
    public static List<ConfigKey> configKeys() {
        return GroupConfigDef.ALL.stream().map(GroupConfigs::configKey).toList();
    }

    @Override
    public Optional<ConfigKey> key(String name) {
        return GroupConfigDef.find(name).map(GroupConfigs::configKey);
    }

    private static ConfigKey configKey(GroupConfigDef def) {
        return new ConfigKey(
                def.name(),
                def.type(),
                Optional.ofNullable(def.defaultValue()),
                def.documentation(),
                (key, value) -> {});
    }

    /**
     * Checks a group's configs after a change, as Kafka's {@code GroupConfig.validate}: known names, each value of
     * its type and range, within the broker's bounds, a session longer than the heartbeat interval.
     *
     * @throws InvalidConfigurationException with Kafka's message
     */
    @Override
    public void validate(MetadataImage image, String group, Map<String, String> proposed) {
        for (String name : new TreeMap<>(proposed).keySet()) {
            if (GroupConfigDef.find(name).isEmpty()) {
                throw new InvalidConfigurationException("Unknown group config name: " + name);
            }
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (GroupConfigDef def : GroupConfigDef.ALL) {
            String raw = proposed.get(def.name());
            if (raw != null) {
                values.put(def.name(), def.parse(raw));
            }
        }
        new GroupConfigBounds(defaults).check(values);
    }

    /** Every group config but Kafka's internal ones, as DescribeConfigs reports it for a group with these configs. */
    public List<Entry> describe(Map<String, String> groupConfigs) {
        List<Entry> entries = new ArrayList<>();
        for (GroupConfigDef def : GroupConfigDef.ALL) {
            if (def.internal()) {
                continue;
            }
            String own = groupConfigs.get(def.name());
            String value = own != null ? ownText(def, own) : defaultText(def);
            List<Synonym> synonyms = new ArrayList<>();
            if (own != null) {
                synonyms.add(new Synonym(def.name(), value, ConfigSource.GROUP_CONFIG));
            }
            String brokerKey = def.brokerSynonym();
            if (brokerKey != null) {
                defaults.staticValue(brokerKey)
                        .ifPresent(raw -> synonyms.add(new Synonym(brokerKey, raw, ConfigSource.STATIC_BROKER_CONFIG)));
                synonyms.add(new Synonym(
                        brokerKey,
                        GroupConfigDef.text(GroupConfigDefaults.key(brokerKey)
                                .orElseThrow()
                                .defaultValue()
                                .orElseThrow()),
                        ConfigSource.DEFAULT_CONFIG));
            } else {
                synonyms.add(
                        new Synonym(def.name(), GroupConfigDef.text(def.defaultValue()), ConfigSource.DEFAULT_CONFIG));
            }
            entries.add(new Entry(
                    def.name(), value, synonyms.getFirst().source(), synonyms, def.type(), def.documentation()));
        }
        return entries;
    }

    // A value a Kafka-written log holds that does not parse is reported as it is.
    private static String ownText(GroupConfigDef def, String raw) {
        try {
            return GroupConfigDef.text(def.parse(raw));
        } catch (InvalidConfigurationException | ConfigException e) {
            return raw;
        }
    }

    // The broker key's value in force, else the config's own default.
    private String defaultText(GroupConfigDef def) {
        if (def.brokerSynonym() == null) {
            return GroupConfigDef.text(def.defaultValue());
        }
        Object brokerValue = defaults.value(def.brokerSynonym());
        // streams.assignor.name defaults to the first of the broker's assignors.
        if (def.type() != ConfigType.LIST && brokerValue instanceof List<?> list) {
            return list.isEmpty() ? null : String.valueOf(list.getFirst());
        }
        return GroupConfigDef.text(brokerValue);
    }
}
