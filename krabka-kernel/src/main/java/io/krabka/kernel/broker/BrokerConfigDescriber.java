package io.krabka.kernel.broker;

import io.krabka.kernel.controller.TopicConfigDescriber;
import io.krabka.kernel.controller.TopicConfigDescriber.Synonym;
import io.krabka.kernel.log.config.BrokerConfigOverrides;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;

/**
 * A broker resource's configs as Kafka's {@code ConfigHelper.createBrokerConfigEntry} reports them. This broker
 * ("1"): every key it reads, its value and synonyms from this broker's dynamic configs, the cluster's dynamic
 * defaults, {@code server.properties} and the key's default, in that order, read-only unless Krabka updates it
 * dynamically. The cluster default (""): the dynamic defaults set, each with itself alone as synonym.
 */
final class BrokerConfigDescriber {

    /**
     * A broker config as reported.
     *
     * @param name          the key
     * @param value         its value as text; null when it has none, or when it is sensitive
     * @param source        where the value comes from
     * @param synonyms      the places that set it or a key it stands in for
     * @param type          its type; null for a key Krabka does not know
     * @param readOnly      whether Krabka refuses to change it dynamically
     * @param documentation what it does; null for a key Krabka does not know
     */
    record Entry(
            String name,
            String value,
            ConfigSource source,
            List<Synonym> synonyms,
            ConfigType type,
            boolean readOnly,
            String documentation) {
        /** Copies the synonyms. */
        Entry {
            Objects.requireNonNull(name, "name");
            synonyms = List.copyOf(synonyms);
        }

        /** Whether its value is kept from view: a password, or a key of a type Krabka does not know (Kafka's). */
        boolean sensitive() {
            return type == null || type == ConfigType.PASSWORD;
        }
    }

    private final Map<String, String> staticConfigs;
    private final Map<String, String> defaults;

    BrokerConfigDescriber(Map<String, String> staticConfigs) {
        this.staticConfigs = Map.copyOf(staticConfigs);
        this.defaults = defaults();
    }

    /** This broker's configs, sorted by name. */
    List<Entry> describe(Map<String, String> perBrokerConfigs, Map<String, String> clusterDefaults) {
        List<Entry> entries = new ArrayList<>();
        BrokerConfigKeys.ALL.forEach((name, key) -> {
            List<Synonym> synonyms = new ArrayList<>();
            List<String> names = BrokerConfigOverrides.synonyms(name);
            for (var layer : List.of(
                    Map.entry(perBrokerConfigs, ConfigSource.DYNAMIC_BROKER_CONFIG),
                    Map.entry(clusterDefaults, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG),
                    Map.entry(staticConfigs, ConfigSource.STATIC_BROKER_CONFIG),
                    Map.entry(defaults, ConfigSource.DEFAULT_CONFIG))) {
                for (String synonym : names) {
                    String value = layer.getKey().get(synonym);
                    if (value != null) {
                        synonyms.add(new Synonym(synonym, value, layer.getValue()));
                    }
                }
            }
            // Kafka lists a key's synonyms from the key itself on: log.retention.hours, not log.retention.ms.
            while (!synonyms.isEmpty() && !synonyms.getFirst().name().equals(name)) {
                synonyms.removeFirst();
            }
            String value = synonyms.isEmpty() ? null : synonyms.getFirst().value();
            ConfigSource source = synonyms.isEmpty()
                    ? ConfigSource.DEFAULT_CONFIG
                    : synonyms.getFirst().source();
            entries.add(entry(name, key, value, source, synonyms));
        });
        return entries;
    }

    /** The cluster's dynamic default configs, sorted by name. */
    List<Entry> describeDefault(Map<String, String> clusterDefaults) {
        return new java.util.TreeMap<>(clusterDefaults)
                .entrySet().stream()
                        .map(config -> entry(
                                config.getKey(),
                                BrokerConfigKeys.find(config.getKey()).orElse(null),
                                config.getValue(),
                                ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
                                List.of(new Synonym(
                                        config.getKey(),
                                        config.getValue(),
                                        ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG))))
                        .toList();
    }

    private static Entry entry(String name, ConfigKey key, String value, ConfigSource source, List<Synonym> synonyms) {
        return new Entry(
                name,
                value,
                source,
                synonyms,
                key == null ? null : key.type(),
                !DynamicBrokerConfigs.KRABKA_DYNAMIC.contains(name),
                key == null ? null : key.documentation());
    }

    // Each key's default as Kafka writes it; the topic defaults' as Kafka gives them (none for log.retention.ms).
    private static Map<String, String> defaults() {
        Map<String, String> defaults = new HashMap<>();
        BrokerConfigKeys.ALL.forEach(
                (name, key) -> key.defaultValue().ifPresent(value -> defaults.put(name, text(value))));
        defaults.putAll(TopicConfigDescriber.brokerKeyDefaults());
        return Map.copyOf(defaults);
    }

    private static String text(Object value) {
        return value instanceof List<?> list
                ? String.join(",", list.stream().map(String::valueOf).toList())
                : String.valueOf(value);
    }
}
