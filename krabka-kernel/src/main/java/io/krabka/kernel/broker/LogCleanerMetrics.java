package io.krabka.kernel.broker;

import io.krabka.kernel.log.cleaner.LogCleaner;
import io.krabka.kernel.metrics.MetricName;
import io.krabka.kernel.metrics.MetricsRegistry;
import java.nio.file.Path;
import java.util.List;

/**
 * The log cleaner's gauges under Kafka's names: {@code kafka.log:type=LogCleaner} (buffer utilization, recopy
 * share, clean time, compaction delay, dead threads) and {@code kafka.log:type=LogCleanerManager} (uncleanable
 * partitions and bytes of each log directory, the dirtiest share, the time since a thread last chose a log).
 * Registered once the cleaner runs, as Kafka registers them with it; they read the cleaner's current threads, so a
 * reconfiguration keeps them.
 */
final class LogCleanerMetrics {

    private LogCleanerMetrics() {}

    static void register(MetricsRegistry metrics, LogCleaner cleaner, List<Path> logDirs) {
        metrics.gauge(cleaner("max-buffer-utilization-percent"), cleaner::maxBufferUtilizationPercent);
        metrics.gauge(cleaner("cleaner-recopy-percent"), cleaner::cleanerRecopyPercent);
        metrics.gauge(cleaner("max-clean-time-secs"), cleaner::maxCleanTimeSecs);
        metrics.gauge(cleaner("max-compaction-delay-secs"), cleaner::maxCompactionDelaySecs);
        metrics.gauge(cleaner("DeadThreadCount"), cleaner::deadThreadCount);
        for (Path logDir : logDirs) {
            String tag = logDir.toAbsolutePath().toString();
            metrics.gauge(
                    manager("uncleanable-partitions-count").tagged("logDirectory", tag),
                    () -> cleaner.uncleanablePartitionsCount(logDir));
            metrics.gauge(
                    manager("uncleanable-bytes").tagged("logDirectory", tag), () -> cleaner.uncleanableBytes(logDir));
        }
        metrics.gauge(manager("max-dirty-percent"), cleaner::maxDirtyPercent);
        metrics.gauge(manager("time-since-last-run-ms"), cleaner::timeSinceLastRunMs);
    }

    private static MetricName cleaner(String name) {
        return MetricName.of("kafka.log", "LogCleaner", name);
    }

    private static MetricName manager(String name) {
        return MetricName.of("kafka.log", "LogCleanerManager", name);
    }
}
