package io.krabka.kernel.plugin;

import io.krabka.spi.plugin.PluginMetrics;
import java.util.function.LongSupplier;

/** Plugin metrics that publish nowhere: every metric accepted, its name checked as a published one's, and dropped. */
final class UnpublishedPluginMetrics implements PluginMetrics {

    @Override
    public Counter counter(String name) {
        PluginMetrics.requireMetricName(name);
        return events -> {
            if (events < 0) {
                throw new IllegalArgumentException("a count cannot go down: " + events);
            }
        };
    }

    @Override
    public LatencyRecorder latency(String name) {
        PluginMetrics.requireMetricName(name);
        return nanos -> {};
    }

    @Override
    public Timer timer(String name) {
        PluginMetrics.requireMetricName(name);
        return nanos -> {};
    }

    @Override
    public void gauge(String name, LongSupplier value) {
        PluginMetrics.requireMetricName(name);
    }

    @Override
    public PluginMetrics tagged(String key, String value) {
        PluginMetrics.requireTagKey(key);
        return this;
    }
}
