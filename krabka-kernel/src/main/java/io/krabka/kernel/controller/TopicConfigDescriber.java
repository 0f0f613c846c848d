package io.krabka.kernel.controller;

import io.krabka.kernel.log.config.ConfigSynonym;
import io.krabka.kernel.log.config.TopicConfigDef;
import io.krabka.kernel.log.config.TopicConfigs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;

/**
 * A topic's configs as Kafka reports them: each value, where it comes from and its synonyms, resolved over the
 * topic's own configs, this broker's dynamic configs, the cluster's dynamic broker defaults, the static
 * {@code server.properties} and the defaults of the broker keys.
 */
public final class TopicConfigDescriber {

    // The defaults of the broker keys that back a topic config with several broker keys: only the last has one
    // (Kafka's log.roll.hours, log.roll.jitter.hours, log.flush.scheduler.interval.ms, log.retention.hours).
    private static final Map<String, String> LAST_SYNONYM_DEFAULTS = Map.of(
            "log.roll.hours",
            "168",
            "log.roll.jitter.hours",
            "0",
            "log.flush.scheduler.interval.ms",
            String.valueOf(Long.MAX_VALUE),
            "log.retention.hours",
            "168");

    private final Map<String, String> staticBrokerConfigs;
    private final Map<String, String> brokerDefaults;

    /** A describer over the broker's {@code server.properties}. */
    public TopicConfigDescriber(Map<String, String> staticBrokerConfigs) {
        this.staticBrokerConfigs = Map.copyOf(staticBrokerConfigs);
        this.brokerDefaults = brokerKeyDefaults();
    }

    /**
     * A topic config as reported.
     *
     * @param def      the config
     * @param value    its value as text
     * @param source   where the value comes from
     * @param synonyms every place that sets it, the one in force first, as DescribeConfigs lists them
     */
    public record DescribedConfig(TopicConfigDef def, String value, ConfigSource source, List<Synonym> synonyms) {
        /** Copies the synonyms. */
        public DescribedConfig {
            Objects.requireNonNull(def, "def");
            Objects.requireNonNull(source, "source");
            synonyms = List.copyOf(synonyms);
        }
    }

    /**
     * A place that sets a config.
     *
     * @param name   the key there
     * @param value  the value there, as text (null for a broker key without default)
     * @param source the place
     */
    public record Synonym(String name, String value, ConfigSource source) {}

    /**
     * Every topic config in Kafka's order as DescribeConfigs reports it (Kafka's {@code createTopicConfigEntry}):
     * the synonyms are the topic's own value, then each broker key that is set, this broker's dynamic configs first,
     * then the dynamic cluster default, then static, then the broker key's default, dropping those before the first
     * broker key (Kafka lists a {@code log.retention.hours} only under a set {@code log.retention.ms}); the source is
     * the first synonym's.
     *
     * @param topicConfigs          the topic's own configs
     * @param perBrokerConfigs      this broker's dynamic configs
     * @param dynamicClusterConfigs the cluster-wide dynamic broker configs
     */
    public List<DescribedConfig> describe(
            Map<String, String> topicConfigs,
            Map<String, String> perBrokerConfigs,
            Map<String, String> dynamicClusterConfigs) {
        List<DescribedConfig> configs = new ArrayList<>();
        for (TopicConfigDef def : TopicConfigs.ALL) {
            Resolved resolved = resolve(def, topicConfigs, perBrokerConfigs, dynamicClusterConfigs);
            List<Synonym> synonyms = new ArrayList<>();
            if (!def.brokerSynonyms().isEmpty()) {
                addSynonyms(synonyms, def, perBrokerConfigs, ConfigSource.DYNAMIC_BROKER_CONFIG);
                addSynonyms(synonyms, def, dynamicClusterConfigs, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
                addSynonyms(synonyms, def, staticBrokerConfigs, ConfigSource.STATIC_BROKER_CONFIG);
                addSynonyms(synonyms, def, brokerDefaults, ConfigSource.DEFAULT_CONFIG);
                String primary = def.brokerSynonyms().getFirst().name();
                while (!synonyms.isEmpty() && !synonyms.getFirst().name().equals(primary)) {
                    synonyms.removeFirst();
                }
            }
            if (topicConfigs.containsKey(def.name())) {
                synonyms.addFirst(new Synonym(def.name(), resolved.value, ConfigSource.TOPIC_CONFIG));
            }
            ConfigSource source = synonyms.isEmpty()
                    ? ConfigSource.DEFAULT_CONFIG
                    : synonyms.getFirst().source();
            configs.add(new DescribedConfig(def, resolved.value, source, synonyms));
        }
        return configs;
    }

    /**
     * Every topic config in Kafka's order with its effective value and source, as the CreateTopics answer has them
     * (Kafka's {@code resolveEffectiveTopicConfigs}): the topic's own value, else the first broker key set among this
     * broker's dynamic configs, else as a dynamic cluster default, else in {@code server.properties}, else the
     * default. No synonyms.
     */
    public List<DescribedConfig> effective(
            Map<String, String> topicConfigs,
            Map<String, String> perBrokerConfigs,
            Map<String, String> dynamicClusterConfigs) {
        return TopicConfigs.ALL.stream()
                .map(def -> {
                    Resolved resolved = resolve(def, topicConfigs, perBrokerConfigs, dynamicClusterConfigs);
                    return new DescribedConfig(def, resolved.value, resolved.source, List.of());
                })
                .toList();
    }

    private Resolved resolve(
            TopicConfigDef def,
            Map<String, String> topicConfigs,
            Map<String, String> perBrokerConfigs,
            Map<String, String> dynamicClusterConfigs) {
        String own = topicConfigs.get(def.name());
        if (own != null) {
            return new Resolved(def.toText(def.parse(own)), ConfigSource.TOPIC_CONFIG);
        }
        for (var layer : List.of(
                Map.entry(perBrokerConfigs, ConfigSource.DYNAMIC_BROKER_CONFIG),
                Map.entry(dynamicClusterConfigs, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG),
                Map.entry(staticBrokerConfigs, ConfigSource.STATIC_BROKER_CONFIG))) {
            for (ConfigSynonym synonym : def.brokerSynonyms()) {
                String raw = layer.getKey().get(synonym.name());
                if (raw != null) {
                    return new Resolved(def.toText(def.parseSynonym(synonym, raw)), layer.getValue());
                }
            }
        }
        return new Resolved(def.toText(def.defaultValue()), ConfigSource.DEFAULT_CONFIG);
    }

    private static void addSynonyms(
            List<Synonym> synonyms, TopicConfigDef def, Map<String, String> layer, ConfigSource source) {
        for (ConfigSynonym synonym : def.brokerSynonyms()) {
            String value = layer.get(synonym.name());
            if (value != null) {
                synonyms.add(new Synonym(synonym.name(), value, source));
            }
        }
    }

    /** Kafka's defaults of the broker keys behind topic configs, as text. */
    public static Map<String, String> brokerKeyDefaults() {
        Map<String, String> defaults = new HashMap<>(LAST_SYNONYM_DEFAULTS);
        for (TopicConfigDef def : TopicConfigs.ALL) {
            if (def.brokerSynonyms().size() == 1) {
                defaults.put(def.brokerSynonyms().getFirst().name(), def.toText(def.defaultValue()));
            }
        }
        return Map.copyOf(defaults);
    }

    private record Resolved(String value, ConfigSource source) {}
}
