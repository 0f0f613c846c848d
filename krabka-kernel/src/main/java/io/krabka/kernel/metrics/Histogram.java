package io.krabka.kernel.metrics;

import java.util.SequencedMap;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * A distribution of values, as Kafka's (Yammer 2.2) histograms: attributes {@code Count}, {@code Min}, {@code Max},
 * {@code Mean}, {@code StdDev} over every value since it was made, and {@code 50thPercentile}, {@code 75thPercentile},
 * {@code 95thPercentile}, {@code 98thPercentile}, {@code 99thPercentile}, {@code 999thPercentile} over a
 * {@linkplain DecayingReservoir decaying sample} of 1028 values, biased to the last minutes. Thread-safe.
 */
public final class Histogram implements Metric {

    private final DecayingReservoir reservoir;
    private long count;
    private long sum;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;
    // Welford's running mean and sum of squared deviations, as Yammer's: the variance without keeping the values.
    private double mean;
    private double squares;

    /** A histogram on the system's nanosecond clock. */
    public Histogram() {
        this(System::nanoTime, new SplittableRandom());
    }

    Histogram(LongSupplier nanoClock, RandomGenerator random) {
        this.reservoir = new DecayingReservoir(nanoClock, random);
    }

    /** Adds one value. */
    public synchronized void update(long value) {
        count++;
        sum += value;
        min = Math.min(min, value);
        max = Math.max(max, value);
        double deviation = value - mean;
        mean += deviation / count;
        squares += deviation * (value - mean);
        reservoir.update(value);
    }

    /** The values added. */
    public synchronized long count() {
        return count;
    }

    /** The statistics now. */
    synchronized Snapshot snapshot() {
        if (count == 0) {
            return new Snapshot(0, 0, 0, 0, 0, new long[0]);
        }
        double stdDev = count > 1 ? Math.sqrt(squares / (count - 1)) : 0.0;
        return new Snapshot(count, min, max, (double) sum / count, stdDev, reservoir.sortedValues());
    }

    @Override
    public SequencedMap<String, Number> attributes() {
        return snapshot().attributes(1);
    }
}
