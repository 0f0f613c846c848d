package io.krabka.kernel.metrics;

import java.util.LinkedHashMap;
import java.util.SequencedMap;
import java.util.concurrent.TimeUnit;

/**
 * Durations of an operation and how often it happens, as Kafka's {@code ...RateAndTimeMs} timers: a histogram's
 * attributes in milliseconds and a meter's rates.
 */
public final class Timer implements Metric {
    private final Meter meter = new Meter();
    private final Histogram histogram = new Histogram();

    /** Records one operation that took {@code duration}. */
    public void update(long duration, TimeUnit unit) {
        meter.mark(1);
        histogram.update(unit.toMillis(duration));
    }

    @Override
    public SequencedMap<String, Number> attributes() {
        SequencedMap<String, Number> attributes = new LinkedHashMap<>(histogram.attributes());
        attributes.putAll(meter.attributes());
        return attributes;
    }
}
