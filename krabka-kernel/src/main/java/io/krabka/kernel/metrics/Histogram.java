package io.krabka.kernel.metrics;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.SequencedMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A distribution of values, such as remote fetch latencies in milliseconds (attributes {@code Count}, {@code Min},
 * {@code Max}, {@code Mean}, {@code 50thPercentile}, {@code 95thPercentile}, {@code 99thPercentile},
 * {@code 999thPercentile}, as Kafka's histograms and timers): percentiles over a uniform sample of 1028 values, as
 * Yammer's default reservoir size.
 */
public final class Histogram implements Metric {

    private static final int RESERVOIR_SIZE = 1028;

    private final long[] reservoir = new long[RESERVOIR_SIZE];
    private long count;
    private long sum;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;

    /** Adds one value. */
    public synchronized void update(long value) {
        count++;
        sum += value;
        min = Math.min(min, value);
        max = Math.max(max, value);
        if (count <= RESERVOIR_SIZE) {
            reservoir[(int) count - 1] = value;
        } else {
            // Vitter's algorithm R: each value seen so far stays in the sample with the same probability.
            long slot = ThreadLocalRandom.current().nextLong(count);
            if (slot < RESERVOIR_SIZE) {
                reservoir[(int) slot] = value;
            }
        }
    }

    /** The values added. */
    public synchronized long count() {
        return count;
    }

    @Override
    public synchronized SequencedMap<String, Number> attributes() {
        long[] sample = Arrays.copyOf(reservoir, (int) Math.min(count, RESERVOIR_SIZE));
        Arrays.sort(sample);
        SequencedMap<String, Number> attributes = new LinkedHashMap<>();
        attributes.put("Count", count);
        attributes.put("Min", count == 0 ? 0 : min);
        attributes.put("Max", count == 0 ? 0 : max);
        attributes.put("Mean", count == 0 ? 0.0 : (double) sum / count);
        attributes.put("50thPercentile", quantile(sample, 0.5));
        attributes.put("95thPercentile", quantile(sample, 0.95));
        attributes.put("99thPercentile", quantile(sample, 0.99));
        attributes.put("999thPercentile", quantile(sample, 0.999));
        return attributes;
    }

    private static double quantile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0.0;
        }
        int index = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.clamp(index, 0, sorted.length - 1)];
    }
}
