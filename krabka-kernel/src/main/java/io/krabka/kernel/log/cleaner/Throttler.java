package io.krabka.kernel.log.cleaner;

import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * Holds the bytes the cleaner threads read and write together to {@code log.cleaner.io.max.bytes.per.second} on
 * average, as Kafka's {@code Throttler}: each thread reports what it did; once per check interval, a rate above
 * the desired one puts the reporting thread to sleep until the average is back, the other threads waiting behind
 * it.
 */
final class Throttler {

    private static final long CHECK_INTERVAL_MS = 300;

    private final LongSupplier nanoTime;
    private final LongConsumer sleepMs;
    private final long checkIntervalNs = TimeUnit.MILLISECONDS.toNanos(CHECK_INTERVAL_MS);
    private volatile double desiredRatePerSec;
    private long periodStartNs;
    private double observedSoFar;

    /**
     * @param nanoTime the clock
     * @param sleepMs  sleeps the calling thread, interruptibly or not
     */
    Throttler(double desiredRatePerSec, LongSupplier nanoTime, LongConsumer sleepMs) {
        this.desiredRatePerSec = desiredRatePerSec;
        this.nanoTime = nanoTime;
        this.sleepMs = sleepMs;
        this.periodStartNs = nanoTime.getAsLong();
    }

    /** The rate held to. */
    double desiredRatePerSec() {
        return desiredRatePerSec;
    }

    /** Holds to a new rate from the next check on. */
    void updateDesiredRatePerSec(double rate) {
        desiredRatePerSec = rate;
    }

    /** Reports {@code observed} bytes; may sleep. */
    synchronized void maybeThrottle(double observed) {
        double rate = desiredRatePerSec;
        observedSoFar += observed;
        long elapsedNs = nanoTime.getAsLong() - periodStartNs;
        if (elapsedNs > checkIntervalNs && observedSoFar > 0) {
            double ratePerSec = observedSoFar * TimeUnit.SECONDS.toNanos(1) / elapsedNs;
            if (ratePerSec > rate) {
                long sleepTime = Math.round(observedSoFar / (rate / 1000) - TimeUnit.NANOSECONDS.toMillis(elapsedNs));
                if (sleepTime > 0) {
                    sleepMs.accept(sleepTime);
                }
            }
            periodStartNs = nanoTime.getAsLong();
            observedSoFar = 0;
        }
    }
}
