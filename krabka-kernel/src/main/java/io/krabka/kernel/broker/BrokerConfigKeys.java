package io.krabka.kernel.broker;

import io.krabka.kernel.controller.TopicConfigDescriber;
import io.krabka.kernel.group.GroupConfigDefaults;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.config.ConfigSynonym;
import io.krabka.kernel.log.config.TopicConfigDef;
import io.krabka.kernel.log.config.TopicConfigs;
import io.krabka.kernel.security.SecurityConfigs;
import io.krabka.kernel.tiered.RemoteLogManagerConfig;
import io.krabka.kernel.transaction.TransactionCoordinatorConfig;
import io.krabka.spi.plugin.ConfigKey;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Every key a broker reads, by name, as a {@link ConfigKey} with its type, default and check: its own
 * ({@link BrokerConfigs}), the log manager's, the remote log manager's, the transaction coordinator's, the group
 * coordinator's bounds of group configs,
 * and the broker defaults of topic configs, each checked as the topic config it gives ({@code log.retention.hours}
 * as a {@code retention.ms}).
 */
final class BrokerConfigKeys {

    /** The keys, sorted by name. */
    static final SortedMap<String, ConfigKey> ALL = keys();

    private BrokerConfigKeys() {}

    /** The key of this name, if a broker reads one. */
    static Optional<ConfigKey> find(String name) {
        return Optional.ofNullable(ALL.get(name));
    }

    private static SortedMap<String, ConfigKey> keys() {
        SortedMap<String, ConfigKey> keys = new TreeMap<>();
        BrokerConfigs.ALL.forEach(key -> keys.put(key.name(), key));
        LogManagerConfig.KEYS.forEach(key -> keys.put(key.name(), key));
        RemoteLogManagerConfig.KEYS.forEach(key -> keys.put(key.name(), key));
        GroupConfigDefaults.KEYS.forEach(key -> keys.put(key.name(), key));
        TransactionCoordinatorConfig.KEYS.forEach(key -> keys.put(key.name(), key));
        SecurityConfigs.KEYS.forEach(key -> keys.put(key.name(), key));
        Map<String, String> defaults = TopicConfigDescriber.brokerKeyDefaults();
        for (TopicConfigDef def : TopicConfigs.ALL) {
            for (ConfigSynonym synonym : def.brokerSynonyms()) {
                keys.putIfAbsent(
                        synonym.name(),
                        new ConfigKey(
                                synonym.name(),
                                synonym.type(),
                                Optional.ofNullable(defaults.get(synonym.name())),
                                "The broker-wide default of the topic config " + def.name() + ".",
                                (name, value) -> def.parseSynonym(synonym, value)));
            }
        }
        return Collections.unmodifiableSortedMap(keys);
    }
}
