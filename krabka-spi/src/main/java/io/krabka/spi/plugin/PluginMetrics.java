package io.krabka.spi.plugin;

/**
 * Where a plugin publishes its own metrics: the kernel names them under the plugin's group and exposes them with
 * its own (JMX, {@code /metrics}). Names are Kafka-style, in upper camel case ({@code ManifestSealsPerSec}).
 */
public interface PluginMetrics {

    /**
     * A count of events, published with its rates. Calling twice with one name gives the same counter.
     *
     * @param name the metric's name, in upper camel case
     * @return the counter
     */
    Counter counter(String name);

    /**
     * A distribution of durations, published in milliseconds. Calling twice with one name gives the same one.
     *
     * @param name the metric's name, in upper camel case
     * @return the recorder
     */
    LatencyRecorder latency(String name);

    /** A count that only grows. */
    interface Counter {
        /**
         * Adds {@code events}.
         *
         * @param events how many events happened, at least 0
         */
        void increment(long events);
    }

    /** Durations of one kind of operation. */
    interface LatencyRecorder {
        /**
         * Records one operation that took {@code nanos} nanoseconds.
         *
         * @param nanos how long the operation took, in nanoseconds
         */
        void record(long nanos);
    }
}
