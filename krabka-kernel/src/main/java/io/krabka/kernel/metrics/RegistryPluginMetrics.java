package io.krabka.kernel.metrics;

import io.krabka.spi.plugin.PluginMetrics;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A plugin's own metrics in the broker's registry, named {@code <group>:type=<type>,name=<name>,plugin=<plugin>}
 * (e.g. {@code kafka.log.remote:type=RemoteStorageManager,name=ManifestSealsPerSec,plugin=worm}), so they are on
 * JMX and {@code /metrics} with the broker's.
 *
 * @param registry the broker's registry
 * @param group    the JMX domain
 * @param type     the type, the extension point the plugin fills
 * @param plugin   the plugin's name
 */
public record RegistryPluginMetrics(MetricsRegistry registry, String group, String type, String plugin)
        implements PluginMetrics {

    /** Validates the parts. */
    public RegistryPluginMetrics {
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(plugin, "plugin");
    }

    @Override
    public Counter counter(String name) {
        Meter meter = registry.meter(name(name));
        return events -> {
            if (events < 0) {
                throw new IllegalArgumentException("a count cannot go down: " + events);
            }
            meter.mark(events);
        };
    }

    @Override
    public LatencyRecorder latency(String name) {
        Histogram histogram = registry.histogram(name(name));
        return nanos -> histogram.update(TimeUnit.NANOSECONDS.toMillis(nanos));
    }

    private MetricName name(String name) {
        return MetricName.of(group, type, name).tagged("plugin", plugin);
    }
}
