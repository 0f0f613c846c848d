package io.krabka.kernel.metrics;

import java.util.LinkedHashMap;
import java.util.SequencedMap;
import java.util.function.LongSupplier;

/** A value read when asked (attribute {@code Value}), such as the bytes not yet copied to the remote tier. */
public record Gauge(LongSupplier value) implements Metric {

    @Override
    public SequencedMap<String, Number> attributes() {
        SequencedMap<String, Number> attributes = new LinkedHashMap<>();
        attributes.put("Value", value.getAsLong());
        return attributes;
    }
}
