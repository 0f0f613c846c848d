package io.krabka.kernel.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HistogramTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final AtomicLong nanos = new AtomicLong();

    @Test
    void attributesAreYammersWithMinMaxMeanAndStdDevOverEveryValue() {
        Histogram histogram = new Histogram(nanos::get, new SplittableRandom(1));
        for (int value = 1; value <= 1000; value++) {
            histogram.update(value);
        }
        var attributes = histogram.attributes();
        assertEquals(
                List.of(
                        "Count",
                        "Min",
                        "Max",
                        "Mean",
                        "StdDev",
                        "50thPercentile",
                        "75thPercentile",
                        "95thPercentile",
                        "98thPercentile",
                        "99thPercentile",
                        "999thPercentile"),
                List.copyOf(attributes.keySet()));
        assertEquals(1000L, attributes.get("Count"));
        assertEquals(1.0, attributes.get("Min"));
        assertEquals(1000.0, attributes.get("Max"));
        assertEquals(500.5, attributes.get("Mean").doubleValue(), 1e-9);
        // The sample standard deviation of 1..n is sqrt(n (n + 1) / 12).
        assertEquals(Math.sqrt(1000 * 1001 / 12.0), attributes.get("StdDev").doubleValue(), 1e-9);
        // All 1000 values are in the sample: the percentiles are Yammer's interpolation at q (n + 1).
        assertEquals(500.5, attributes.get("50thPercentile").doubleValue(), 1e-9);
        assertEquals(750.75, attributes.get("75thPercentile").doubleValue(), 1e-9);
        assertEquals(950.95, attributes.get("95thPercentile").doubleValue(), 1e-9);
        assertEquals(980.98, attributes.get("98thPercentile").doubleValue(), 1e-9);
        assertEquals(990.99, attributes.get("99thPercentile").doubleValue(), 1e-9);
        assertEquals(999.999, attributes.get("999thPercentile").doubleValue(), 1e-9);
    }

    @Test
    void anEmptyHistogramIsAllZeros() {
        var attributes = new Histogram().attributes();
        assertEquals(0L, attributes.get("Count"));
        attributes.values().stream().skip(1).forEach(value -> assertEquals(0.0, value));
    }

    @Test
    void quantilesInterpolateAsYammersSnapshot() {
        // Yammer 2.2's SnapshotTest sample: 5, 1, 2, 3, 4.
        Snapshot snapshot = new Snapshot(5, 1, 5, 3, 0, new long[] {1, 2, 3, 4, 5});
        assertEquals(1.0, snapshot.quantile(0.0), "below position 1: the least");
        assertEquals(1.0, snapshot.quantile(0.1));
        assertEquals(1.2, snapshot.quantile(0.2), 1e-9, "position 1.2: a fifth of the way from 1 to 2");
        assertEquals(3.0, snapshot.quantile(0.5));
        assertEquals(4.5, snapshot.quantile(0.75), 1e-9);
        assertEquals(5.0, snapshot.quantile(0.95), "from position n: the greatest");
        assertEquals(5.0, snapshot.quantile(0.999));
        assertEquals(5.0, snapshot.quantile(1.0));
        assertEquals(0.0, new Snapshot(0, 0, 0, 0, 0, new long[0]).quantile(0.5));
        assertThrows(IllegalArgumentException.class, () -> snapshot.quantile(1.5));
    }

    @Test
    void recentValuesDominateThePercentilesAfterAShift() {
        Histogram histogram = new Histogram(nanos::get, new SplittableRandom(7));
        updateEachTenthOfASecond(histogram, 1000, 600);
        assertEquals(1000.0, histogram.attributes().get("50thPercentile"));
        updateEachTenthOfASecond(histogram, 10, 300);
        var attributes = histogram.attributes();
        // Five minutes after the shift, the 6,000 older values weigh about 1% of the sample: a uniform sample would
        // still give 1000 at the median, two thirds of the values being older.
        assertEquals(10.0, attributes.get("50thPercentile"));
        assertEquals(10.0, attributes.get("95thPercentile"));
        // Min, Max and Mean stay over every value, as Yammer's.
        assertEquals((6000 * 1000 + 3000 * 10) / 9000.0, attributes.get("Mean").doubleValue(), 1e-9);
        assertEquals(1000.0, attributes.get("Max"));
    }

    @Test
    void oldValuesDecayOutOfTheSample() {
        DecayingReservoir reservoir = new DecayingReservoir(nanos::get, new SplittableRandom(11));
        for (int i = 0; i < 6000; i++) {
            reservoir.update(1000);
            nanos.addAndGet(SECOND / 10);
        }
        for (int i = 0; i < 18_000; i++) {
            reservoir.update(10);
            nanos.addAndGet(SECOND / 10);
        }
        long[] sample = reservoir.sortedValues();
        assertEquals(DecayingReservoir.SIZE, sample.length);
        assertEquals(10, sample[sample.length - 1], "half an hour on, no older value is left");
    }

    @Test
    void aRescaleChangesNoChoiceOfTheSample() {
        // Two reservoirs whose landmarks are half an hour apart rescale at different times; the priorities differ by
        // a constant factor, so a rescale that kept the order keeps the two samples the same.
        DecayingReservoir early = new DecayingReservoir(nanos::get, new SplittableRandom(3));
        nanos.set(TimeUnit.MINUTES.toNanos(30));
        DecayingReservoir late = new DecayingReservoir(nanos::get, new SplittableRandom(3));
        for (int second = 0; second < 3 * 3600; second++) {
            early.update(second);
            late.update(second);
            if (second % 1200 == 0) {
                assertArrayEquals(early.sortedValues(), late.sortedValues(), "at second " + second);
            }
            nanos.addAndGet(SECOND);
        }
        assertArrayEquals(early.sortedValues(), late.sortedValues());
    }

    @Test
    void theRescaleKeepsPrioritiesInRangeForDays() {
        DecayingReservoir reservoir = new DecayingReservoir(nanos::get, new SplittableRandom(5));
        long day = TimeUnit.DAYS.toSeconds(1);
        for (long second = 0; second < 2 * day; second++) {
            reservoir.update(second);
            nanos.addAndGet(SECOND);
        }
        // Without rescaling, exp(0.015 t) is infinite after 13 hours and the sample stops taking values.
        double lowest = reservoir.lowestPriority();
        assertTrue(lowest > 0 && Double.isFinite(lowest), "priority " + lowest);
        long[] sample = reservoir.sortedValues();
        long median = sample[sample.length / 2];
        assertTrue(median > 2 * day - 3600, "the median is of the last hour: " + median);
        assertTrue(Arrays.stream(sample).allMatch(value -> value > 2 * day - 3 * 3600), Arrays.toString(sample));
    }

    private void updateEachTenthOfASecond(Histogram histogram, long value, int seconds) {
        for (int i = 0; i < seconds * 10; i++) {
            histogram.update(value);
            nanos.addAndGet(SECOND / 10);
        }
    }
}
