package io.krabka.kernel.metrics;

import io.krabka.spi.plugin.PluginMetrics;
import java.util.LinkedHashMap;
import java.util.Objects;
import java.util.SequencedMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A plugin instance's own metrics in the broker's registry, named
 * {@code <group>:type=<type>,name=<name>,plugin=<plugin>[,<tag>=<value>...]} (e.g.
 * {@code kafka.log.remote:type=RemoteStorageManager,name=ManifestSealsPerSec,plugin=worm}), so they are on JMX and
 * {@code /metrics} with the broker's. {@link #close} removes every metric it (or a {@linkplain #tagged tagged} view
 * of it) published: the kernel closes it with the instance.
 */
public final class RegistryPluginMetrics implements PluginMetrics, AutoCloseable {

    private final MetricsRegistry registry;
    private final String group;
    private final String type;
    private final SequencedMap<String, String> tags;
    private final Set<MetricName> published;

    private RegistryPluginMetrics(
            MetricsRegistry registry,
            String group,
            String type,
            SequencedMap<String, String> tags,
            Set<MetricName> published) {
        this.registry = registry;
        this.group = group;
        this.type = type;
        this.tags = tags;
        this.published = published;
    }

    /**
     * The metrics of the plugin {@code plugin}.
     *
     * @param registry the broker's registry
     * @param group    the JMX domain, such as {@code kafka.log.remote}
     * @param type     the type, the extension point the plugin fills, such as {@code RemoteStorageManager}
     * @param plugin   the plugin's name
     */
    public static RegistryPluginMetrics of(MetricsRegistry registry, String group, String type, String plugin) {
        SequencedMap<String, String> tags = new LinkedHashMap<>();
        tags.put("plugin", Objects.requireNonNull(plugin, "plugin"));
        return new RegistryPluginMetrics(
                Objects.requireNonNull(registry, "registry"),
                Objects.requireNonNull(group, "group"),
                Objects.requireNonNull(type, "type"),
                tags,
                ConcurrentHashMap.newKeySet());
    }

    @Override
    public Counter counter(String name) {
        Meter meter = registry.meter(publish(name));
        return events -> {
            if (events < 0) {
                throw new IllegalArgumentException("a count cannot go down: " + events);
            }
            meter.mark(events);
        };
    }

    @Override
    public LatencyRecorder latency(String name) {
        Histogram histogram = registry.histogram(publish(name));
        return nanos -> histogram.update(TimeUnit.NANOSECONDS.toMillis(nanos));
    }

    @Override
    public Timer timer(String name) {
        io.krabka.kernel.metrics.Timer timer = registry.timer(publish(name));
        return nanos -> timer.update(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void gauge(String name, LongSupplier value) {
        Objects.requireNonNull(value, "value");
        registry.gauge(publish(name), value);
    }

    @Override
    public PluginMetrics tagged(String key, String value) {
        PluginMetrics.requireTagKey(key);
        Objects.requireNonNull(value, "value");
        SequencedMap<String, String> more = new LinkedHashMap<>(tags);
        more.put(key, value);
        return new RegistryPluginMetrics(registry, group, type, more, published);
    }

    private MetricName publish(String name) {
        MetricName full = new MetricName(group, type, PluginMetrics.requireMetricName(name), tags);
        published.add(full);
        return full;
    }

    /** Removes every metric published through these metrics or a tagged view of them. */
    @Override
    public void close() {
        published.forEach(registry::remove);
        published.clear();
    }
}
