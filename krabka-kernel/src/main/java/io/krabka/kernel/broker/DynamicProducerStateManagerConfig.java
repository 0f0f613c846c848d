package io.krabka.kernel.broker;

import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import java.util.Objects;
import java.util.Set;

/**
 * {@code producer.id.expiration.ms} and {@code transaction.partition.verification.enable} without a restart
 * (Kafka's {@code DynamicProducerStateManagerConfig}): settings every log's producer state shares, so the next
 * expiry check and the next transactional append of each use them.
 */
final class DynamicProducerStateManagerConfig implements BrokerReconfigurable {

    private final LogManager logManager;

    DynamicProducerStateManagerConfig(LogManager logManager) {
        this.logManager = Objects.requireNonNull(logManager, "logManager");
    }

    @Override
    public Set<String> reconfigurableConfigs() {
        return Set.of(
                LogManagerConfig.PRODUCER_ID_EXPIRATION_MS.name(),
                LogManagerConfig.TRANSACTION_PARTITION_VERIFICATION_ENABLE.name());
    }

    @Override
    public void validateReconfiguration(BrokerConfig newConfig) {
        // The keys' own checks are all Kafka makes.
    }

    @Override
    public void reconfigure(BrokerConfig oldConfig, BrokerConfig newConfig) {
        var producerState = logManager.producerStateManagerConfig();
        producerState.setProducerIdExpirationMs(newConfig.logManagerConfig().producerIdExpirationMs());
        producerState.setTransactionVerificationEnabled(
                newConfig.logManagerConfig().transactionVerificationEnabled());
    }

    @Override
    public String toString() {
        return "DynamicProducerStateManagerConfig";
    }
}
