package io.krabka.kernel.broker;

import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import java.util.Objects;
import java.util.Set;

/**
 * {@code producer.id.expiration.ms} without a restart (Kafka's {@code DynamicProducerStateManagerConfig}): the
 * setting every log's producer state shares, so the next expiry check of each uses it.
 */
final class DynamicProducerStateManagerConfig implements BrokerReconfigurable {

    private final LogManager logManager;

    DynamicProducerStateManagerConfig(LogManager logManager) {
        this.logManager = Objects.requireNonNull(logManager, "logManager");
    }

    @Override
    public Set<String> reconfigurableConfigs() {
        return Set.of(LogManagerConfig.PRODUCER_ID_EXPIRATION_MS.name());
    }

    @Override
    public void validateReconfiguration(BrokerConfig newConfig) {
        // The key's own check (at least 1) is all Kafka makes.
    }

    @Override
    public void reconfigure(BrokerConfig oldConfig, BrokerConfig newConfig) {
        logManager
                .producerStateManagerConfig()
                .setProducerIdExpirationMs(newConfig.logManagerConfig().producerIdExpirationMs());
    }

    @Override
    public String toString() {
        return "DynamicProducerStateManagerConfig";
    }
}
