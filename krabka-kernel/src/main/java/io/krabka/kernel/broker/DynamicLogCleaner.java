package io.krabka.kernel.broker;

import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.cleaner.CleanerConfig;
import java.util.Objects;
import java.util.Set;

/**
 * The log cleaner's {@code log.cleaner.*} settings (and {@code message.max.bytes}, its buffers' bound) without a
 * restart, as Kafka's {@code LogCleaner} takes them: its threads replaced by as many with the new settings, at least
 * half and at most twice as many as run. Without a cleaner ({@code log.cleaner.enable=false}) the settings are only
 * recorded.
 */
final class DynamicLogCleaner implements BrokerReconfigurable {

    private final LogManager logManager;

    DynamicLogCleaner(LogManager logManager) {
        this.logManager = Objects.requireNonNull(logManager, "logManager");
    }

    @Override
    public Set<String> reconfigurableConfigs() {
        return CleanerConfig.RECONFIGURABLE_CONFIGS;
    }

    @Override
    public void validateReconfiguration(BrokerConfig newConfig) {
        logManager
                .cleaner()
                .ifPresent(cleaner -> cleaner.validateReconfiguration(
                        newConfig.logManagerConfig().cleanerConfig()));
    }

    @Override
    public void reconfigure(BrokerConfig oldConfig, BrokerConfig newConfig) {
        var cleaner = logManager.cleaner();
        if (cleaner.isEmpty()) {
            return;
        }
        try {
            cleaner.get().reconfigure(newConfig.logManagerConfig().cleanerConfig());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while replacing the log cleaner's threads", e);
        }
    }

    @Override
    public String toString() {
        return "DynamicLogCleaner";
    }
}
