package io.krabka.kernel.metrics;

import java.util.LinkedHashMap;
import java.util.SequencedMap;

/** A metric the broker publishes: its JMX attributes, named as Kafka's (Yammer 2.2) metrics name theirs. */
public sealed interface Metric permits Meter, Gauge, Histogram, Timer {

    /** The attributes that are numbers and their current values, in a stable order: on JMX and {@code /metrics}. */
    SequencedMap<String, Number> attributes();

    /**
     * The attributes that are not numbers, as Yammer's JMX reporter gives them ({@code EventType}, {@code RateUnit},
     * {@code LatencyUnit}): on JMX only, since Prometheus samples are numbers.
     */
    default SequencedMap<String, Object> textAttributes() {
        return new LinkedHashMap<>();
    }
}
