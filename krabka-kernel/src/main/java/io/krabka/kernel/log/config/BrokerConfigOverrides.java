package io.krabka.kernel.log.config;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The broker's settings with its dynamic configs over them, as Kafka's {@code DynamicBrokerConfig} lays them: the
 * static {@code server.properties}, the cluster-wide dynamic default over it, this broker's own dynamic configs over
 * both. A key set at a higher layer removes its synonyms below ({@code log.retention.hours} set dynamically wins over
 * a static {@code log.retention.ms}, though the latter ranks first among the synonyms of one layer).
 */
public final class BrokerConfigOverrides {

    private BrokerConfigOverrides() {}

    /**
     * The settings in force.
     *
     * @param staticConfigs    {@code server.properties}
     * @param clusterDefaults  the cluster-wide dynamic broker configs (the broker resource "")
     * @param perBrokerConfigs this broker's dynamic configs
     */
    public static Map<String, String> effective(
            Map<String, String> staticConfigs,
            Map<String, String> clusterDefaults,
            Map<String, String> perBrokerConfigs) {
        Map<String, String> props = new HashMap<>(staticConfigs);
        override(props, clusterDefaults);
        override(props, perBrokerConfigs);
        return props;
    }

    private static void override(Map<String, String> props, Map<String, String> overrides) {
        overrides.forEach((key, value) -> {
            synonyms(key).forEach(props::remove);
            props.put(key, value);
        });
    }

    /** The broker keys that set the same topic setting as {@code key}, itself included. */
    public static List<String> synonyms(String key) {
        for (TopicConfigDef def : TopicConfigs.ALL) {
            List<String> names =
                    def.brokerSynonyms().stream().map(ConfigSynonym::name).toList();
            if (!names.contains(key)) {
                continue;
            }
            // Kafka's brokerConfigSynonyms: log.flush.scheduler.interval.ms stands in for log.flush.interval.ms,
            // which does not stand in for it.
            return def == TopicConfigs.FLUSH_MS && !key.equals(names.getFirst()) ? List.of(key) : names;
        }
        return List.of(key);
    }
}
