package io.krabka.kernel.log.config;

import static io.krabka.kernel.log.config.TopicConfigs.CLEANUP_POLICY;
import static io.krabka.kernel.log.config.TopicConfigs.LOCAL_RETENTION_BYTES;
import static io.krabka.kernel.log.config.TopicConfigs.LOCAL_RETENTION_MS;
import static io.krabka.kernel.log.config.TopicConfigs.MAX_COMPACTION_LAG_MS;
import static io.krabka.kernel.log.config.TopicConfigs.MIN_COMPACTION_LAG_MS;
import static io.krabka.kernel.log.config.TopicConfigs.REMOTE_COPY_LAG_BYTES;
import static io.krabka.kernel.log.config.TopicConfigs.REMOTE_COPY_LAG_MS;
import static io.krabka.kernel.log.config.TopicConfigs.REMOTE_LOG_DELETE_ON_DISABLE;
import static io.krabka.kernel.log.config.TopicConfigs.REMOTE_STORAGE_ENABLE;
import static io.krabka.kernel.log.config.TopicConfigs.RETENTION_BYTES;
import static io.krabka.kernel.log.config.TopicConfigs.RETENTION_MS;

import io.krabka.spi.plugin.ConfigException;
import java.util.List;

/** Kafka's rules between topic settings, in the order Kafka checks them; each error names the key at fault. */
final class TopicConfigRules {

    private TopicConfigRules() {}

    /**
     * Kafka's checks of a topic's settings on CreateTopics and AlterConfigs.
     *
     * @param wasRemoteStorageEnabled whether the topic had {@code remote.storage.enable} before (false for a new one)
     */
    static void checkTopic(LogConfig config, boolean remoteLogStorageSystemEnabled, boolean wasRemoteStorageEnabled) {
        checkCompactionLags(config);
        if (config.remoteStorageEnable()) {
            if (!remoteLogStorageSystemEnabled) {
                throw new ConfigException(
                        REMOTE_STORAGE_ENABLE.name(),
                        true,
                        "tiered storage is disabled on the broker "
                                + "(remote.log.storage.system.enable=false), so no topic can have remote log storage");
            }
            List<?> policy = (List<?>) config.value(CLEANUP_POLICY);
            if (!policy.isEmpty() && !policy.equals(List.of("delete"))) {
                throw new ConfigException(
                        CLEANUP_POLICY.name(),
                        config.entry(CLEANUP_POLICY).valueText(),
                        "remote log storage supports only cleanup.policy=delete or an empty list");
            }
            checkLocalRetention(config, RETENTION_BYTES, LOCAL_RETENTION_BYTES);
            checkLocalRetention(config, RETENTION_MS, LOCAL_RETENTION_MS);
            checkCopyLag(config, REMOTE_COPY_LAG_BYTES, config.localRetentionBytes(), LOCAL_RETENTION_BYTES);
            checkCopyLag(config, REMOTE_COPY_LAG_MS, config.localRetentionMs(), LOCAL_RETENTION_MS);
            if (config.remoteLogCopyDisable()) {
                checkSameRetention(config, RETENTION_BYTES, LOCAL_RETENTION_BYTES);
                checkSameRetention(config, RETENTION_MS, LOCAL_RETENTION_MS);
            }
        } else if (wasRemoteStorageEnabled && !config.remoteLogDeleteOnDisable()) {
            throw new ConfigException(
                    REMOTE_STORAGE_ENABLE.name(),
                    false,
                    "turning remote storage off needs "
                            + REMOTE_LOG_DELETE_ON_DISABLE.name()
                            + "=true, which deletes the tiered data; to keep it read-only, "
                            + "set remote.storage.enable=true and remote.log.copy.disable=true instead");
        }
    }

    /** Kafka's checks of the broker's own defaults at startup. */
    static void checkBrokerDefaults(LogConfig config, boolean remoteLogStorageSystemEnabled) {
        checkCompactionLags(config);
        if (remoteLogStorageSystemEnabled) {
            checkLocalRetention(config, RETENTION_BYTES, LOCAL_RETENTION_BYTES);
            checkLocalRetention(config, RETENTION_MS, LOCAL_RETENTION_MS);
        }
    }

    private static void checkCompactionLags(LogConfig config) {
        if (config.minCompactionLagMs() > config.maxCompactionLagMs()) {
            throw new ConfigException(
                    MIN_COMPACTION_LAG_MS.name(),
                    config.minCompactionLagMs(),
                    "must not be more than " + MAX_COMPACTION_LAG_MS.name() + " (" + config.maxCompactionLagMs() + ")");
        }
    }

    /** A local retention of -2 follows the total; with a limited total it must be limited and not larger. */
    private static void checkLocalRetention(LogConfig config, TopicConfigDef total, TopicConfigDef local) {
        long totalValue = (Long) config.value(total);
        long localValue = (Long) config.value(local);
        if (totalValue <= -1 || localValue == -2) {
            return;
        }
        if (localValue == -1) {
            throw new ConfigException(
                    local.name(), localValue, "must not be -1 as " + total.name() + " is " + totalValue);
        }
        if (localValue > totalValue) {
            throw new ConfigException(
                    local.name(), localValue, "must not be more than " + total.name() + " (" + totalValue + ")");
        }
    }

    private static void checkCopyLag(LogConfig config, TopicConfigDef lag, long effectiveLocal, TopicConfigDef local) {
        long lagValue = (Long) config.value(lag);
        if (lagValue > 0 && effectiveLocal >= 0 && lagValue > effectiveLocal) {
            throw new ConfigException(
                    lag.name(),
                    lagValue,
                    "must not be more than " + local.name() + " (effective value " + effectiveLocal + ")");
        }
    }

    private static void checkSameRetention(LogConfig config, TopicConfigDef total, TopicConfigDef local) {
        long localValue = (Long) config.value(local);
        if (localValue != -2 && localValue != (Long) config.value(total)) {
            throw new ConfigException(
                    local.name(),
                    localValue,
                    "must equal " + total.name() + " when remote.log.copy.disable "
                            + "is true: nothing more is copied to remote storage");
        }
    }
}
