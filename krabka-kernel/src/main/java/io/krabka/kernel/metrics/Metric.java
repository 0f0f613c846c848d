package io.krabka.kernel.metrics;

import java.util.SequencedMap;

/** A metric the broker publishes: its JMX attributes, named as Kafka's (Yammer) metrics name theirs. */
public sealed interface Metric permits Meter, Gauge, Histogram, Timer {

    /** The attributes and their current values, in a stable order; numbers only. */
    SequencedMap<String, Number> attributes();
}
