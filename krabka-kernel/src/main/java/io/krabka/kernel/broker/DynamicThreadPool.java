package io.krabka.kernel.broker;

import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.scheduler.KafkaScheduler;
import io.krabka.spi.plugin.ConfigException;
import java.util.Objects;
import java.util.Set;

/**
 * The broker's thread pools Kafka resizes without a restart ({@code DynamicThreadPool}): {@code background.threads}
 * (the scheduler), {@code num.recovery.threads.per.data.dir} (the threads that close the logs at shutdown) and
 * {@code num.io.threads}, which is only recorded: Krabka handles each request on a virtual thread and has no pool to
 * resize, but takes the key as Kafka does, so that a tool that tunes it works. A new count is at least half and at most
 * twice the one in force, as Kafka has it.
 */
final class DynamicThreadPool implements BrokerReconfigurable {

    private final KafkaScheduler scheduler;
    private final LogManager logManager;
    private volatile int ioThreads;

    DynamicThreadPool(KafkaScheduler scheduler, LogManager logManager, int ioThreads) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.logManager = Objects.requireNonNull(logManager, "logManager");
        this.ioThreads = ioThreads;
    }

    @Override
    public Set<String> reconfigurableConfigs() {
        return Set.of(
                BrokerConfigs.BACKGROUND_THREADS.name(),
                LogManagerConfig.NUM_RECOVERY_THREADS_PER_DATA_DIR.name(),
                BrokerConfigs.NUM_IO_THREADS.name());
    }

    @Override
    public void validateReconfiguration(BrokerConfig newConfig) {
        check(BrokerConfigs.BACKGROUND_THREADS.name(), newConfig.backgroundThreads(), scheduler.threads());
        check(
                LogManagerConfig.NUM_RECOVERY_THREADS_PER_DATA_DIR.name(),
                newConfig.logManagerConfig().numRecoveryThreadsPerDataDir(),
                logManager.numRecoveryThreadsPerDataDir());
        check(BrokerConfigs.NUM_IO_THREADS.name(), newConfig.numIoThreads(), ioThreads);
    }

    @Override
    public void reconfigure(BrokerConfig oldConfig, BrokerConfig newConfig) {
        if (newConfig.backgroundThreads() != scheduler.threads()) {
            scheduler.resizeThreadPool(newConfig.backgroundThreads());
        }
        int recoveryThreads = newConfig.logManagerConfig().numRecoveryThreadsPerDataDir();
        if (recoveryThreads != logManager.numRecoveryThreadsPerDataDir()) {
            logManager.resizeRecoveryThreadPool(recoveryThreads);
        }
        ioThreads = newConfig.numIoThreads();
    }

    // Kafka's words.
    private static void check(String key, int next, int current) {
        if (next == current) {
            return;
        }
        String failed = "Dynamic thread count update validation failed for " + key + "=" + next;
        if (next <= 0) {
            throw new ConfigException(failed + ", value should be at least 1");
        }
        if (next < current / 2) {
            throw new ConfigException(failed + ", value should be at least half the current value " + current);
        }
        if (next > current * 2) {
            throw new ConfigException(
                    failed + ", value should not be greater than double the current value " + current);
        }
    }

    @Override
    public String toString() {
        return "DynamicThreadPool";
    }
}
