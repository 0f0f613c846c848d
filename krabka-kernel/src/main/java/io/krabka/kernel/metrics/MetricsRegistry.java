package io.krabka.kernel.metrics;

import java.lang.management.ManagementFactory;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanRegistrationException;
import javax.management.MBeanServer;
import javax.management.NotCompliantMBeanException;

/**
 * The broker's metrics by name, each published as a JMX MBean under Kafka's object name (when the registry has an
 * MBean server) and all of them in Prometheus' text format ({@link #prometheusText}). Metrics are created on first
 * use and live until removed or the registry closes.
 */
public final class MetricsRegistry implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(MetricsRegistry.class.getName());

    private final ConcurrentSkipListMap<String, Registered> metrics = new ConcurrentSkipListMap<>();
    private final Optional<MBeanServer> server;

    private record Registered(MetricName name, Metric metric) {}

    private MetricsRegistry(Optional<MBeanServer> server) {
        this.server = server;
    }

    /** A registry publishing on the platform MBean server, as a broker's. */
    public static MetricsRegistry jmx() {
        return new MetricsRegistry(Optional.of(ManagementFactory.getPlatformMBeanServer()));
    }

    /** A registry publishing nowhere but {@link #prometheusText}, for components running without a broker. */
    public static MetricsRegistry unpublished() {
        return new MetricsRegistry(Optional.empty());
    }

    /** The meter of that name, of "events", created on first use. */
    public Meter meter(MetricName name) {
        return meter(name, "events");
    }

    /** The meter of that name, of {@code eventType} (Yammer's {@code EventType}, such as "requests"), created on first use. */
    public Meter meter(MetricName name, String eventType) {
        return (Meter) getOrCreate(name, () -> new Meter(eventType), Meter.class);
    }

    /**
     * Publishes a meter of {@code eventType} (such as "bytes", as Kafka's {@code BytesPerSec} meters) following a count
     * kept elsewhere, unless one is there already.
     */
    public void meter(MetricName name, String eventType, LongSupplier count) {
        getOrCreate(name, () -> Meter.following(eventType, count), Meter.class);
    }

    /** The histogram of that name, created on first use. */
    public Histogram histogram(MetricName name) {
        return (Histogram) getOrCreate(name, Histogram::new, Histogram.class);
    }

    /** The timer of that name (durations in milliseconds, calls per second), created on first use. */
    public Timer timer(MetricName name) {
        return (Timer) getOrCreate(name, Timer::new, Timer.class);
    }

    /** Publishes a gauge under that name, unless one is there already. */
    public void gauge(MetricName name, LongSupplier value) {
        getOrCreate(name, () -> new Gauge(value), Gauge.class);
    }

    /** Removes one metric. */
    public void remove(MetricName name) {
        Registered removed = metrics.remove(key(name));
        if (removed != null) {
            server.ifPresent(s -> unregister(s, name));
        }
    }

    private Metric getOrCreate(MetricName name, Supplier<Metric> create, Class<? extends Metric> kind) {
        Registered registered = metrics.computeIfAbsent(key(name), k -> {
            Registered created = new Registered(name, create.get());
            server.ifPresent(s -> register(s, created));
            return created;
        });
        if (!kind.isInstance(registered.metric())) {
            throw new IllegalArgumentException(name.objectName() + " is a "
                    + registered.metric().getClass().getSimpleName() + ", not a " + kind.getSimpleName());
        }
        return registered.metric();
    }

    private static void register(MBeanServer server, Registered registered) {
        try {
            server.registerMBean(
                    new MetricMBean(registered.metric()), registered.name().objectName());
        } catch (InstanceAlreadyExistsException | MBeanRegistrationException | NotCompliantMBeanException e) {
            // Another registry in this JVM (a test's second broker) holds the name: the metric still counts.
            LOG.log(System.Logger.Level.DEBUG, "metric " + registered.name().objectName() + " not on JMX: " + e);
        }
    }

    private static void unregister(MBeanServer server, MetricName name) {
        try {
            server.unregisterMBean(name.objectName());
        } catch (InstanceNotFoundException | MBeanRegistrationException e) {
            LOG.log(System.Logger.Level.DEBUG, "metric " + name.objectName() + " was not on JMX: " + e);
        }
    }

    private static String key(MetricName name) {
        return name.objectName().getCanonicalName();
    }

    /**
     * Every metric in Prometheus' text exposition format (0.0.4): a family per attribute, such as
     * {@code kafka_server_brokertopicmetrics_remotecopybytespersec_count}, with its {@code # HELP} and {@code # TYPE}
     * lines and a sample per tag set ({@link PrometheusText}).
     */
    public String prometheusText() {
        PrometheusText text = new PrometheusText();
        metrics.values().forEach(registered -> text.add(registered.name(), registered.metric()));
        return text.text();
    }

    /** Removes every metric (and its MBean). */
    @Override
    public void close() {
        metrics.values().stream().map(Registered::name).toList().forEach(this::remove);
    }
}
