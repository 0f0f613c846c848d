package io.krabka.kernel.metrics;

import java.util.LinkedHashMap;
import java.util.SequencedMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * A count of events and their rates per second (attributes {@code Count}, {@code MeanRate}, {@code OneMinuteRate},
 * {@code FiveMinuteRate}, {@code FifteenMinuteRate}): Kafka's {@code ...PerSec} meters, with the same exponentially
 * weighted moving averages over 5-second ticks.
 */
public final class Meter implements Metric {

    private static final long TICK_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final LongAdder count = new LongAdder();
    private final LongSupplier nanoClock;
    private final long startNanos;
    private final MovingAverage[] averages = {new MovingAverage(1), new MovingAverage(5), new MovingAverage(15)};
    private long uncounted;
    private long lastTickNanos;

    /** A meter on the system's nanosecond clock. */
    public Meter() {
        this(System::nanoTime);
    }

    Meter(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
        this.lastTickNanos = startNanos;
    }

    /** Counts {@code events} more. */
    public void mark(long events) {
        count.add(events);
        synchronized (this) {
            tickIfDue();
            uncounted += events;
        }
    }

    /** The events counted since the start. */
    public long count() {
        return count.sum();
    }

    @Override
    public synchronized SequencedMap<String, Number> attributes() {
        tickIfDue();
        long elapsed = nanoClock.getAsLong() - startNanos;
        SequencedMap<String, Number> attributes = new LinkedHashMap<>();
        attributes.put("Count", count());
        attributes.put("MeanRate", elapsed <= 0 ? 0.0 : count() * 1e9 / elapsed);
        attributes.put("OneMinuteRate", averages[0].perSecond());
        attributes.put("FiveMinuteRate", averages[1].perSecond());
        attributes.put("FifteenMinuteRate", averages[2].perSecond());
        return attributes;
    }

    private void tickIfDue() {
        long now = nanoClock.getAsLong();
        while (now - lastTickNanos >= TICK_NANOS) {
            for (MovingAverage average : averages) {
                average.tick(uncounted);
            }
            uncounted = 0;
            lastTickNanos += TICK_NANOS;
        }
    }

    /** An exponentially weighted moving average of the events per tick, over {@code minutes}. */
    private static final class MovingAverage {
        private final double alpha;
        private double ratePerNano = -1;

        MovingAverage(int minutes) {
            this.alpha = 1 - Math.exp(-5.0 / 60 / minutes);
        }

        void tick(long events) {
            double instant = (double) events / TICK_NANOS;
            ratePerNano = ratePerNano < 0 ? instant : ratePerNano + alpha * (instant - ratePerNano);
        }

        double perSecond() {
            return Math.max(0, ratePerNano) * 1e9;
        }
    }
}
