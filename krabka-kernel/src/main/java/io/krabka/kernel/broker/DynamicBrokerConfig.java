package io.krabka.kernel.broker;

import io.krabka.kernel.controller.ConfigurationValidator;
import io.krabka.kernel.log.config.BrokerConfigOverrides;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataPublisher;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.errors.InvalidRequestException;

/**
 * The broker's dynamic configs (Kafka's {@code DynamicBrokerConfig}), kept as {@code ConfigRecord}s of the broker
 * resource in the metadata log: this broker's own ("1") over the cluster-wide default ("") over
 * {@code server.properties}. As the controller's {@link ConfigurationValidator} of broker resources it refuses, with
 * Kafka's errors and messages, what Kafka refuses (read-only keys, security keys without a listener prefix,
 * per-broker keys at the cluster level, bad values) and, with its own, what Kafka changes but Krabka cannot; as a
 * {@link MetadataPublisher} it hands every committed change to the {@link BrokerReconfigurable}s whose keys it
 * touches. The topic defaults ({@code log.retention.ms}, {@code message.max.bytes}, ...) reach the logs through the
 * replica manager, which reads the same layers from the image.
 */
public final class DynamicBrokerConfig implements MetadataPublisher, ConfigurationValidator {

    private static final System.Logger LOG = System.getLogger(DynamicBrokerConfig.class.getName());

    private final BrokerConfig staticConfig;
    private final List<BrokerReconfigurable> reconfigurables = new CopyOnWriteArrayList<>();
    private volatile BrokerConfig current;
    private volatile Map<String, String> currentProps;

    /** The dynamic configs of a broker started with {@code staticConfig}; none until the first image. */
    public DynamicBrokerConfig(BrokerConfig staticConfig) {
        this.staticConfig = Objects.requireNonNull(staticConfig, "staticConfig");
        this.current = staticConfig;
        this.currentProps = staticConfig.originals();
    }

    /** The keys Krabka updates without a restart. */
    public static Set<String> dynamicKeys() {
        return DynamicBrokerConfigs.KRABKA_DYNAMIC;
    }

    /** The broker's settings in force. */
    public BrokerConfig currentConfig() {
        return current;
    }

    /** The broker's settings in force as text: what topic settings resolve their broker defaults from. */
    public Map<String, String> currentProps() {
        return currentProps;
    }

    /**
     * Registers a part that takes some dynamic configs, and brings it to the configs in force at once (its settings
     * were {@code server.properties}').
     *
     * @throws IllegalArgumentException if it names a key Krabka does not update dynamically
     */
    public synchronized void addReconfigurable(BrokerReconfigurable reconfigurable) {
        Set<String> keys = new TreeSet<>(reconfigurable.reconfigurableConfigs());
        keys.removeAll(DynamicBrokerConfigs.KRABKA_DYNAMIC);
        if (!keys.isEmpty()) {
            throw new IllegalArgumentException(
                    reconfigurable + " takes configs Krabka does not update dynamically: " + keys);
        }
        reconfigurables.add(reconfigurable);
        if (touches(reconfigurable, changed(staticConfig.originals(), currentProps))) {
            reconfigure(reconfigurable, staticConfig, current);
        }
    }

    @Override
    public String name() {
        return "DynamicBrokerConfig";
    }

    @Override
    public synchronized void onMetadataUpdate(MetadataImage previous, MetadataImage image) {
        Map<String, String> props = props(image, null, Map.of());
        Set<String> changed = changed(currentProps, props);
        if (changed.isEmpty()) {
            return;
        }
        BrokerConfig next;
        try {
            next = BrokerConfig.fromProps(props);
        } catch (ConfigException e) {
            // Kafka logs and keeps its settings when the dynamic configs it reads cannot apply.
            LOG.log(
                    System.Logger.Level.ERROR,
                    "The dynamic broker configs " + changed + " cannot apply: " + e.getMessage());
            return;
        }
        BrokerConfig old = current;
        current = next;
        currentProps = props;
        LOG.log(System.Logger.Level.INFO, "Dynamic broker configs changed: " + changed);
        for (BrokerReconfigurable reconfigurable : reconfigurables) {
            if (touches(reconfigurable, changed)) {
                reconfigure(reconfigurable, old, next);
            }
        }
    }

    @Override
    public Optional<ConfigKey> key(String name) {
        return BrokerConfigKeys.find(name);
    }

    /**
     * Checks a broker resource's dynamic configs after a change, in Kafka's order: read-only keys, security keys
     * without a listener prefix, each value, per-broker keys at the cluster level; then Krabka's refusals; then the
     * settings as a whole and each reconfigurable's own check of them.
     */
    @Override
    public void validate(MetadataImage image, String resourceName, Map<String, String> proposed) {
        Set<String> keys = new TreeSet<>(proposed.keySet());
        Set<String> known = new TreeSet<>(keys);
        known.retainAll(BrokerConfigKeys.ALL.keySet());
        refuse(minus(known, DynamicBrokerConfigs.KAFKA_DYNAMIC), "Cannot update these configs dynamically");
        refuse(
                retain(keys, DynamicBrokerConfigs.SECURITY),
                "These security configs can be dynamically updated only per-listener using the listener prefix");
        known.forEach(key -> checkValue(key, proposed.get(key)));
        if (resourceName.isEmpty()) {
            refuse(
                    DynamicBrokerConfigs.perBroker(keys),
                    "Cannot update these configs at default cluster level, broker id must be specified");
        }
        refuse(minus(keys, BrokerConfigKeys.ALL.keySet()), "Krabka does not support these configs");
        Set<String> unsupported = minus(known, DynamicBrokerConfigs.KRABKA_DYNAMIC);
        if (!unsupported.isEmpty()) {
            throw new InvalidRequestException("Krabka cannot update these configs dynamically: " + unsupported
                    + "; set them in server.properties and restart the broker");
        }
        Map<String, String> props = props(image, resourceName, proposed);
        BrokerConfig next;
        try {
            next = BrokerConfig.fromProps(props);
        } catch (ConfigException e) {
            throw new InvalidRequestException(e.getMessage());
        }
        Set<String> changed = changed(currentProps, props);
        for (BrokerReconfigurable reconfigurable : reconfigurables) {
            if (touches(reconfigurable, changed)) {
                try {
                    reconfigurable.validateReconfiguration(next);
                } catch (ConfigException e) {
                    // Kafka's words for a change a part of the broker refuses.
                    throw new InvalidRequestException("Invalid value org.apache.kafka.common.config.ConfigException: "
                            + e.getMessage() + " for configuration Invalid dynamic configuration");
                }
            }
        }
    }

    // The settings with the image's dynamic configs, those of the resource changed (if not null) replaced.
    private Map<String, String> props(MetadataImage image, String changedResource, Map<String, String> proposed) {
        Map<String, String> clusterDefaults = "".equals(changedResource) ? proposed : image.brokerConfigs();
        Map<String, String> perBroker = String.valueOf(staticConfig.nodeId()).equals(changedResource)
                ? proposed
                : image.perBrokerConfig(staticConfig.nodeId());
        return BrokerConfigOverrides.effective(
                staticConfig.originals(), applicable(clusterDefaults), applicable(perBroker));
    }

    // A metadata log written by Kafka may hold keys Krabka does not apply: they are left out, as Kafka leaves out
    // the non-dynamic ones it reads.
    private static Map<String, String> applicable(Map<String, String> configs) {
        Map<String, String> applicable = new HashMap<>(configs);
        applicable.keySet().retainAll(DynamicBrokerConfigs.KRABKA_DYNAMIC);
        return applicable;
    }

    private static void checkValue(String key, String raw) {
        ConfigKey configKey = BrokerConfigKeys.find(key).orElseThrow();
        Object parsed;
        try {
            parsed = configKey.type().parse(key, raw);
        } catch (ConfigException e) {
            throw new InvalidRequestException("Invalid value " + raw + " for configuration " + key + ": "
                    + switch (configKey.type()) {
                        case BOOLEAN -> "Expected value to be either true or false";
                        default -> "Not a number of type " + configKey.type();
                    });
        }
        try {
            configKey.validator().ensureValid(key, parsed);
        } catch (ConfigException e) {
            throw new InvalidRequestException(e.getMessage());
        }
    }

    private static void refuse(Set<String> keys, String why) {
        if (!keys.isEmpty()) {
            throw new InvalidRequestException(why + ": " + keys);
        }
    }

    private static Set<String> minus(Set<String> keys, Set<String> removed) {
        Set<String> left = new TreeSet<>(keys);
        left.removeAll(removed);
        return left;
    }

    private static Set<String> retain(Set<String> keys, Set<String> kept) {
        Set<String> left = new TreeSet<>(keys);
        left.retainAll(kept);
        return left;
    }

    private static Set<String> changed(Map<String, String> before, Map<String, String> after) {
        Set<String> changed = new HashSet<>();
        after.forEach((key, value) -> {
            if (!value.equals(before.get(key))) {
                changed.add(key);
            }
        });
        before.keySet().stream().filter(key -> !after.containsKey(key)).forEach(changed::add);
        return changed;
    }

    private static boolean touches(BrokerReconfigurable reconfigurable, Set<String> changed) {
        return reconfigurable.reconfigurableConfigs().stream().anyMatch(changed::contains);
    }

    private static void reconfigure(BrokerReconfigurable reconfigurable, BrokerConfig old, BrokerConfig next) {
        try {
            reconfigurable.reconfigure(old, next);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "Reconfiguring " + reconfigurable + " failed", e);
        }
    }

    @Override
    public String toString() {
        return "DynamicBrokerConfig(node " + staticConfig.nodeId() + ", " + reconfigurables.size()
                + " reconfigurables)";
    }
}
