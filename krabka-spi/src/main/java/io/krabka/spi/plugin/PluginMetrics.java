package io.krabka.spi.plugin;

import java.util.function.LongSupplier;

/**
 * Where a plugin publishes its own metrics: the kernel names them under the plugin and exposes them with its own, on
 * JMX and at {@code /metrics}. A metric of a remote storage manager named {@code CopyRetriesPerSec} of the plugin
 * {@code sample} is the MBean {@code kafka.log.remote:type=RemoteStorageManager,name=CopyRetriesPerSec,plugin=sample}
 * and the Prometheus series {@code kafka_log_remote_remotestoragemanager_copyretriespersec_count{plugin="sample"}};
 * the type is {@code RemoteLogMetadataManager} or {@code ObjectStore} for the other kinds. Names are Kafka-style, in
 * upper camel case: a letter, then letters and digits ({@code ManifestSealsPerSec}, {@code UploadTimeMs}).
 *
 * <p>The kernel implements this interface; plugins only call it. It is safe for use from any thread. Asking twice
 * for a metric of one name and kind gives the same metric; asking for a name that a metric of another kind holds
 * is refused.
 *
 * @see Monitorable
 */
public interface PluginMetrics {

    /**
     * A count of events, published as Kafka's {@code ...PerSec} meters are: {@code Count} and the mean, one-, five-
     * and fifteen-minute rates per second.
     *
     * @param name the metric's name
     * @return the counter of that name
     * @throws IllegalArgumentException if the name is not upper camel case, or another kind of metric holds it
     */
    Counter counter(String name);

    /**
     * A distribution of durations, published in milliseconds as a Kafka histogram: {@code Count}, {@code Min},
     * {@code Max}, {@code Mean}, {@code StdDev} and percentiles, over an exponentially decaying sample.
     *
     * @param name the metric's name
     * @return the recorder of that name
     * @throws IllegalArgumentException if the name is not upper camel case, or another kind of metric holds it
     */
    LatencyRecorder latency(String name);

    /**
     * Durations of an operation and the rate it happens at, published as Kafka's timers
     * ({@code ...RateAndTimeMs}): a latency's attributes in milliseconds and a counter's rates. Since SPI 1.3.
     *
     * @param name the metric's name
     * @return the timer of that name
     * @throws IllegalArgumentException if the name is not upper camel case, or another kind of metric holds it
     */
    Timer timer(String name);

    /**
     * Publishes a value read each time the metric is read (attribute {@code Value}), such as the bytes a plugin
     * holds in a buffer. Publishing a gauge under a name a gauge already has keeps the first. {@code value} must be
     * cheap and must not block: it runs on whichever thread reads the metrics. Since SPI 1.3.
     *
     * @param name  the metric's name
     * @param value reads the current value
     * @throws IllegalArgumentException if the name is not upper camel case, or another kind of metric holds it
     */
    void gauge(String name, LongSupplier value);

    /**
     * The same metrics with one more tag, such as {@code bucket=archive}: the tag follows {@code plugin} in the MBean's
     * name and is a label in Prometheus. Since SPI 1.3.
     *
     * @param key   the tag's key: lower camel case, not {@code type}, {@code name} or {@code plugin}
     * @param value the tag's value
     * @return the metrics under that tag; closing the plugin removes them too
     * @throws IllegalArgumentException if the key is not lower camel case or is one the kernel sets
     */
    PluginMetrics tagged(String key, String value);

    /**
     * Checks a metric's name as the kernel does: upper camel case, a letter, then letters and digits. Since SPI 1.3.
     *
     * @param name the name a plugin gives a metric
     * @return the name
     * @throws IllegalArgumentException if it is not such a name
     */
    static String requireMetricName(String name) {
        // Names are checked when a metric is registered, rarely: a pattern compiled each time costs nothing here.
        if (name == null || !name.matches("[A-Z][A-Za-z0-9]*")) {
            throw new IllegalArgumentException(
                    "not a metric name (upper camel case: a capital letter, then letters and digits): " + name);
        }
        return name;
    }

    /**
     * Checks a tag's key as the kernel does: lower camel case, and not one of the keys the kernel sets. Since SPI 1.3.
     *
     * @param key the key a plugin gives a tag
     * @return the key
     * @throws IllegalArgumentException if it is not such a key
     */
    static String requireTagKey(String key) {
        if (key == null
                || !key.matches("[a-z][A-Za-z0-9]*")
                || key.equals("type")
                || key.equals("name")
                || key.equals("plugin")) {
            throw new IllegalArgumentException("not a tag key (lower camel case, not type, name or plugin): " + key);
        }
        return key;
    }

    /** A count that only grows. */
    interface Counter {
        /**
         * Adds {@code events}.
         *
         * @param events how many events happened, at least 0
         * @throws IllegalArgumentException if {@code events} is negative
         */
        void increment(long events);
    }

    /** Durations of one kind of operation. */
    interface LatencyRecorder {
        /**
         * Records one operation.
         *
         * @param nanos how long it took, in nanoseconds
         */
        void record(long nanos);
    }

    /** Durations of one kind of operation, and how often it happens. Since SPI 1.3. */
    interface Timer {
        /**
         * Records one operation: one more event, and its duration.
         *
         * @param nanos how long it took, in nanoseconds
         */
        void record(long nanos);
    }
}
