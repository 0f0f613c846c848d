package io.krabka.kernel.metrics;

import java.util.LinkedHashMap;
import java.util.Objects;
import java.util.SequencedMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * A count of events and their rates per second (attributes {@code Count}, {@code MeanRate}, {@code OneMinuteRate},
 * {@code FiveMinuteRate}, {@code FifteenMinuteRate}; on JMX also {@code EventType}, such as "bytes" or "requests",
 * and {@code RateUnit} SECONDS): Kafka's (Yammer 2.2) {@code ...PerSec} meters, with the same exponentially weighted
 * moving averages over 5-second ticks. It counts what it is {@linkplain #mark marked} with, or follows a count kept
 * elsewhere ({@link #following}).
 */
public final class Meter implements Metric {

    private static final long TICK_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final String eventType;
    private final LongAdder marked = new LongAdder();
    private final LongSupplier count;
    private final LongSupplier nanoClock;
    private final long startNanos;
    private final long startCount;
    private final MovingAverage[] averages = {new MovingAverage(1), new MovingAverage(5), new MovingAverage(15)};
    private long countAtLastTick;
    private long lastTickNanos;

    /** A meter of its own marks of {@code eventType} (such as "requests"), on the system's nanosecond clock. */
    public Meter(String eventType) {
        this(eventType, null, System::nanoTime);
    }

    /** A meter of {@code eventType} following {@code count}, a count that only grows, kept by its owner. */
    public static Meter following(String eventType, LongSupplier count) {
        return new Meter(eventType, count, System::nanoTime);
    }

    Meter(String eventType, LongSupplier count, LongSupplier nanoClock) {
        this.eventType = Objects.requireNonNull(eventType, "eventType");
        this.count = count == null ? marked::sum : count;
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
        this.startCount = this.count.getAsLong();
        this.countAtLastTick = startCount;
        this.lastTickNanos = startNanos;
    }

    /** Counts {@code events} more; for a meter of its own marks. */
    public void mark(long events) {
        synchronized (this) {
            tickIfDue();
        }
        marked.add(events);
    }

    /** The events counted. */
    public long count() {
        return count.getAsLong();
    }

    @Override
    public synchronized SequencedMap<String, Number> attributes() {
        tickIfDue();
        long elapsed = nanoClock.getAsLong() - startNanos;
        SequencedMap<String, Number> attributes = new LinkedHashMap<>();
        attributes.put("Count", count());
        attributes.put("MeanRate", elapsed <= 0 ? 0.0 : (count() - startCount) * 1e9 / elapsed);
        attributes.put("OneMinuteRate", averages[0].perSecond());
        attributes.put("FiveMinuteRate", averages[1].perSecond());
        attributes.put("FifteenMinuteRate", averages[2].perSecond());
        return attributes;
    }

    @Override
    public SequencedMap<String, Object> textAttributes() {
        SequencedMap<String, Object> attributes = new LinkedHashMap<>();
        attributes.put("EventType", eventType);
        // A TimeUnit, as Yammer's MBean returns: a JMX client reading it as one gets one.
        attributes.put("RateUnit", TimeUnit.SECONDS);
        return attributes;
    }

    private void tickIfDue() {
        long now = nanoClock.getAsLong();
        if (now - lastTickNanos < TICK_NANOS) {
            return;
        }
        // Ticks are taken when the meter is read or marked: the events since the last tick are spread evenly over
        // the ticks due, so a meter read once a minute still rates a steady flow steadily.
        long ticks = (now - lastTickNanos) / TICK_NANOS;
        long events = count() - countAtLastTick;
        countAtLastTick += events;
        for (long tick = 0; tick < ticks; tick++) {
            for (MovingAverage average : averages) {
                average.tick((double) events / ticks);
            }
        }
        lastTickNanos += ticks * TICK_NANOS;
    }

    /** An exponentially weighted moving average of the events per tick, over {@code minutes}. */
    private static final class MovingAverage {
        private final double alpha;
        private double ratePerNano = -1;

        MovingAverage(int minutes) {
            this.alpha = 1 - Math.exp(-5.0 / 60 / minutes);
        }

        void tick(double events) {
            double instant = events / TICK_NANOS;
            ratePerNano = ratePerNano < 0 ? instant : ratePerNano + alpha * (instant - ratePerNano);
        }

        double perSecond() {
            return Math.max(0, ratePerNano) * 1e9;
        }
    }
}
