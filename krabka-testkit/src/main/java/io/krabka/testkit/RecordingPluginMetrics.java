package io.krabka.testkit;

import io.krabka.spi.plugin.PluginMetrics;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Plugin metrics for a plugin's own tests: what the plugin publishes is kept here to be asserted on, and names are
 * checked as the kernel checks them, so a name the broker would refuse fails the test. Hand it to a
 * {@link io.krabka.spi.plugin.Monitorable} instance with {@code withPluginMetrics}, or return it from a test's
 * {@link io.krabka.spi.storage.RemoteStorageContext}.
 *
 * <p>A metric is known by its name and its tags, written {@code Name} or {@code Name,key=value,...} in the order the
 * tags were added, as the kernel orders them after {@code plugin}.
 */
public final class RecordingPluginMetrics implements PluginMetrics {

    private final String tags;
    private final Map<String, Recorded> metrics;

    /** Empty metrics. */
    public RecordingPluginMetrics() {
        this("", new ConcurrentHashMap<>());
    }

    private RecordingPluginMetrics(String tags, Map<String, Recorded> metrics) {
        this.tags = tags;
        this.metrics = metrics;
    }

    private enum Kind {
        COUNTER,
        LATENCY,
        TIMER,
        GAUGE
    }

    /** One metric: its kind, the events or operations recorded, their total nanoseconds, or its gauge. */
    private record Recorded(Kind kind, AtomicLong events, AtomicLong nanos, LongSupplier gauge) {}

    @Override
    public Counter counter(String name) {
        Recorded counter = register(name, Kind.COUNTER, null);
        return events -> {
            if (events < 0) {
                throw new IllegalArgumentException("a count cannot go down: " + events);
            }
            counter.events().addAndGet(events);
        };
    }

    @Override
    public LatencyRecorder latency(String name) {
        Recorded latency = register(name, Kind.LATENCY, null);
        return nanos -> record(latency, nanos);
    }

    @Override
    public Timer timer(String name) {
        Recorded timer = register(name, Kind.TIMER, null);
        return nanos -> record(timer, nanos);
    }

    @Override
    public void gauge(String name, LongSupplier value) {
        register(name, Kind.GAUGE, Objects.requireNonNull(value, "value"));
    }

    @Override
    public PluginMetrics tagged(String key, String value) {
        PluginMetrics.requireTagKey(key);
        return new RecordingPluginMetrics(tags + "," + key + "=" + Objects.requireNonNull(value, "value"), metrics);
    }

    /** The events counted by a counter, or the operations a latency recorder or a timer recorded; 0 if none. */
    public long count(String metric) {
        Recorded recorded = metrics.get(metric);
        return recorded == null || recorded.kind() == Kind.GAUGE
                ? 0
                : recorded.events().get();
    }

    /** The total nanoseconds a latency recorder or a timer recorded; 0 if none. */
    public long totalNanos(String metric) {
        Recorded recorded = metrics.get(metric);
        return recorded == null ? 0 : recorded.nanos().get();
    }

    /** A gauge's value as it reads now, if one of that name is published. */
    public Optional<Long> gauge(String metric) {
        Recorded recorded = metrics.get(metric);
        return recorded == null || recorded.kind() != Kind.GAUGE
                ? Optional.empty()
                : Optional.of(recorded.gauge().getAsLong());
    }

    /** Every metric published, as {@code Name[,key=value...]}. */
    public Set<String> names() {
        return Set.copyOf(metrics.keySet());
    }

    private Recorded register(String name, Kind kind, LongSupplier gauge) {
        String metric = PluginMetrics.requireMetricName(name) + tags;
        Recorded recorded =
                metrics.computeIfAbsent(metric, m -> new Recorded(kind, new AtomicLong(), new AtomicLong(), gauge));
        if (recorded.kind() != kind) {
            throw new IllegalArgumentException(metric + " is a " + recorded.kind() + ", not a " + kind);
        }
        return recorded;
    }

    private static void record(Recorded recorded, long nanos) {
        recorded.events().incrementAndGet();
        recorded.nanos().addAndGet(nanos);
    }
}
