package io.krabka.kernel.broker;

import java.util.Set;

/**
 * A part of the broker that takes some dynamic broker configs without a restart (Kafka's
 * {@code BrokerReconfigurable}). It registers with {@link DynamicBrokerConfig#addReconfigurable}, which brings it up to
 * the configs in force at once, checks every later change of its keys with {@link #validateReconfiguration} before the
 * change is recorded, and calls {@link #reconfigure} once it is. The log cleaner registers one for
 * {@code log.cleaner.*}.
 */
public interface BrokerReconfigurable {

    /** The keys it takes: each one Krabka updates dynamically. */
    Set<String> reconfigurableConfigs();

    /**
     * Checks the broker's settings after a change of its keys, before the change is recorded.
     *
     * @throws io.krabka.spi.plugin.ConfigException saying why it cannot take them
     */
    void validateReconfiguration(BrokerConfig newConfig);

    /** Takes the broker's settings after a change of its keys. */
    void reconfigure(BrokerConfig oldConfig, BrokerConfig newConfig);
}
