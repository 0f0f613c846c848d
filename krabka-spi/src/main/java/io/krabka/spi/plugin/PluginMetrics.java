package io.krabka.spi.plugin;

/**
 * Where a plugin publishes its own metrics: the kernel names them under the plugin's group and exposes them with
 * its own (JMX, {@code /metrics}). Names are Kafka-style, in upper camel case ({@code ManifestSealsPerSec}).
 */
public interface PluginMetrics {

    /** A count of events, published with its rates. Calling twice with one name gives the same counter. */
    Counter counter(String name);

    /** A distribution of durations, published in milliseconds. Calling twice with one name gives the same one. */
    LatencyRecorder latency(String name);

    /** A count that only grows. */
    interface Counter {
        /** Adds {@code events}, at least 0. */
        void increment(long events);
    }

    /** Durations of one kind of operation. */
    interface LatencyRecorder {
        /** Records one operation that took {@code nanos} nanoseconds. */
        void record(long nanos);
    }
}
