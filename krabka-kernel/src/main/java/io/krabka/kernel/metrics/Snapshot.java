package io.krabka.kernel.metrics;

import java.util.LinkedHashMap;
import java.util.SequencedMap;

/**
 * A histogram's statistics at one moment: count, minimum, maximum, mean and standard deviation over every value since
 * it was made, and the sorted values of its decaying sample for the percentiles, as Yammer 2.2 computes them.
 *
 * @param count  the values added
 * @param min    the least, 0 with none
 * @param max    the greatest, 0 with none
 * @param mean   their mean, 0 with none
 * @param stdDev their sample standard deviation (divided by {@code count - 1}), 0 with fewer than two
 * @param sample the sample's values, sorted
 */
record Snapshot(long count, double min, double max, double mean, double stdDev, long[] sample) {

    /** Yammer's percentile attributes and their quantiles, in its order. */
    private static final SequencedMap<String, Double> PERCENTILES = new LinkedHashMap<>();

    static {
        PERCENTILES.put("50thPercentile", 0.5);
        PERCENTILES.put("75thPercentile", 0.75);
        PERCENTILES.put("95thPercentile", 0.95);
        PERCENTILES.put("98thPercentile", 0.98);
        PERCENTILES.put("99thPercentile", 0.99);
        PERCENTILES.put("999thPercentile", 0.999);
    }

    Snapshot {
        sample = sample.clone();
    }

    /**
     * The value at quantile {@code q} of the sample, interpolated as Yammer 2.2's snapshot does: at the position
     * {@code q (n + 1)} counted from 1, linearly between the values either side; the least value below position 1,
     * the greatest from position {@code n}; 0 for an empty sample.
     */
    double quantile(double q) {
        if (q < 0 || q > 1 || Double.isNaN(q)) {
            throw new IllegalArgumentException(q + " is not in [0, 1]");
        }
        int n = sample.length;
        if (n == 0) {
            return 0.0;
        }
        double position = q * (n + 1);
        if (position < 1) {
            return sample[0];
        }
        if (position >= n) {
            return sample[n - 1];
        }
        int below = (int) position;
        double lower = sample[below - 1];
        double upper = sample[below];
        return lower + (position - below) * (upper - lower);
    }

    /**
     * Yammer's histogram attributes: {@code Count}, then {@code Min} to {@code 999thPercentile} divided by
     * {@code unit} (1 for a histogram, the nanoseconds of a millisecond for a timer of nanoseconds).
     */
    SequencedMap<String, Number> attributes(double unit) {
        SequencedMap<String, Number> attributes = new LinkedHashMap<>();
        attributes.put("Count", count);
        attributes.put("Min", min / unit);
        attributes.put("Max", max / unit);
        attributes.put("Mean", mean / unit);
        attributes.put("StdDev", stdDev / unit);
        PERCENTILES.forEach((name, q) -> attributes.put(name, quantile(q) / unit));
        return attributes;
    }
}
