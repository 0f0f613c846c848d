package io.krabka.kernel.metrics;

import java.util.LinkedHashMap;
import java.util.SequencedMap;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * The durations of calls and their rate, as Kafka's (Yammer 2.2) timers such as
 * {@code RemoteLogReaderFetchRateAndTimeMs}: a {@link Histogram} of the durations in nanoseconds whose attributes are
 * given in milliseconds ({@code Count}, {@code Min}, {@code Max}, {@code Mean}, {@code StdDev}, {@code 50thPercentile}
 * to {@code 999thPercentile}), and a {@link Meter} of the calls per second ({@code MeanRate}, {@code OneMinuteRate},
 * {@code FiveMinuteRate}, {@code FifteenMinuteRate}); on JMX also {@code EventType} "calls", {@code RateUnit}
 * SECONDS and {@code LatencyUnit} MILLISECONDS. Thread-safe.
 */
public final class Timer implements Metric {

    private static final double NANOS_PER_MILLI = TimeUnit.MILLISECONDS.toNanos(1);

    private final Histogram durations;
    private final Meter calls;

    /** A timer on the system's nanosecond clock. */
    public Timer() {
        this(System::nanoTime, new SplittableRandom());
    }

    Timer(LongSupplier nanoClock, RandomGenerator random) {
        this.durations = new Histogram(nanoClock, random);
        this.calls = new Meter("calls", null, nanoClock);
    }

    /** Adds the duration of one call; a negative one is ignored, as Yammer's timer ignores it. */
    public void update(long duration, TimeUnit unit) {
        if (duration >= 0) {
            durations.update(unit.toNanos(duration));
            calls.mark(1);
        }
    }

    /** Adds the duration of one call, in nanoseconds. */
    public void update(long nanos) {
        update(nanos, TimeUnit.NANOSECONDS);
    }

    /** The calls timed. */
    public long count() {
        return durations.count();
    }

    @Override
    public SequencedMap<String, Number> attributes() {
        SequencedMap<String, Number> attributes = durations.snapshot().attributes(NANOS_PER_MILLI);
        // The meter's rates; its Count is the histogram's, as every call is both.
        calls.attributes().forEach((name, value) -> attributes.putIfAbsent(name, value));
        return attributes;
    }

    @Override
    public SequencedMap<String, Object> textAttributes() {
        SequencedMap<String, Object> attributes = new LinkedHashMap<>(calls.textAttributes());
        attributes.put("LatencyUnit", TimeUnit.MILLISECONDS);
        return attributes;
    }
}
