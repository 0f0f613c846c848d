package io.krabka.kernel.metrics;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * A sample of at most 1028 values, biased to the last five minutes or so, as the reservoir of Kafka's histograms and
 * timers (Yammer 2.2's exponentially decaying sample): forward-decaying priority sampling (Cormode, Shkapenyuk,
 * Srivastava and Xu, "Forward Decay: A Practical Time Decay Model for Streaming Systems", ICDE 2009). A value seen
 * {@code t} seconds after the landmark gets the priority {@code exp(alpha t) / u}, {@code u} uniform in (0, 1]; the
 * sample keeps the values of the highest priorities. With {@code alpha} 0.015 a value's weight halves every 46
 * seconds, so a shift in the distribution shows within minutes while a quiet period keeps the last values.
 *
 * <p>Not thread-safe: its histogram's lock guards it.
 */
final class DecayingReservoir {

    /** Yammer's default size: a 99.9% confidence level with a 5% margin of error for a normal distribution. */
    static final int SIZE = 1028;

    /** Yammer's default decay, per second. */
    static final double ALPHA = 0.015;

    /**
     * The landmark moves every hour, as Yammer's: {@code exp(alpha t)} passes a double's range after about 13 hours,
     * and an hour keeps the weights below {@code exp(54)}.
     */
    static final long RESCALE_NANOS = TimeUnit.HOURS.toNanos(1);

    private static final long SECOND_NANOS = TimeUnit.SECONDS.toNanos(1);

    // A binary min-heap on priority: the root is the value the next higher priority displaces. Unlike Yammer's map
    // keyed by priority, two values of the same priority are both kept.
    private final double[] priorities = new double[SIZE];
    private final long[] values = new long[SIZE];
    private final LongSupplier nanoClock;
    private final RandomGenerator random;
    private int size;
    private long landmarkNanos;
    private long nextRescaleNanos;

    DecayingReservoir(LongSupplier nanoClock, RandomGenerator random) {
        this.nanoClock = nanoClock;
        this.random = random;
        this.landmarkNanos = nanoClock.getAsLong();
        this.nextRescaleNanos = landmarkNanos + RESCALE_NANOS;
    }

    /** Offers one value, seen now. */
    void update(long value) {
        long now = nanoClock.getAsLong();
        // Only an update rescales, as Yammer's: a histogram nobody updates keeps reporting its last sample.
        if (now - nextRescaleNanos >= 0) {
            rescale(now);
        }
        // Whole seconds since the landmark, as Yammer weighs (it reads its clock in seconds).
        long seconds = (now - landmarkNanos) / SECOND_NANOS;
        double priority = Math.exp(ALPHA * seconds) / (1.0 - random.nextDouble());
        if (size < SIZE) {
            priorities[size] = priority;
            values[size] = value;
            siftUp(size++);
        } else if (priority > priorities[0]) {
            priorities[0] = priority;
            values[0] = value;
            siftDown(0);
        }
    }

    /** The values in the sample, sorted. */
    long[] sortedValues() {
        long[] sorted = Arrays.copyOf(values, size);
        Arrays.sort(sorted);
        return sorted;
    }

    /** The values in the sample. */
    int size() {
        return size;
    }

    /**
     * Moves the landmark to now, by whole seconds, and scales every priority down by the weight of the seconds it
     * moved: the order of priorities, and so the sample and its heap, stay as they were.
     */
    private void rescale(long now) {
        long seconds = (now - landmarkNanos) / SECOND_NANOS;
        landmarkNanos += seconds * SECOND_NANOS;
        nextRescaleNanos = now + RESCALE_NANOS;
        double factor = Math.exp(-ALPHA * seconds);
        for (int i = 0; i < size; i++) {
            priorities[i] *= factor;
        }
    }

    private void siftUp(int index) {
        while (index > 0) {
            int parent = (index - 1) / 2;
            if (priorities[parent] <= priorities[index]) {
                return;
            }
            swap(parent, index);
            index = parent;
        }
    }

    private void siftDown(int index) {
        while (true) {
            int smallest = index;
            for (int child = 2 * index + 1; child <= 2 * index + 2 && child < size; child++) {
                if (priorities[child] < priorities[smallest]) {
                    smallest = child;
                }
            }
            if (smallest == index) {
                return;
            }
            swap(smallest, index);
            index = smallest;
        }
    }

    private void swap(int a, int b) {
        double priority = priorities[a];
        priorities[a] = priorities[b];
        priorities[b] = priority;
        long value = values[a];
        values[a] = values[b];
        values[b] = value;
    }

    /** The lowest priority kept, for tests of the rescale. */
    double lowestPriority() {
        return size == 0 ? Double.NaN : priorities[0];
    }
}
