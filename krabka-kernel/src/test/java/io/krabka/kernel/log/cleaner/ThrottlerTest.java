package io.krabka.kernel.log.cleaner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The throttle on the cleaner's I/O, on a clock the test moves: it sleeps just long enough to keep the rate. */
class ThrottlerTest {

    private long nanos;
    private final List<Long> sleeps = new ArrayList<>();

    private Throttler throttler(double bytesPerSecond) {
        return new Throttler(bytesPerSecond, () -> nanos, ms -> {
            sleeps.add(ms);
            nanos += TimeUnit.MILLISECONDS.toNanos(ms);
        });
    }

    @Test
    void aRateAboveTheDesiredOneSleepsItBackToIt() {
        Throttler throttler = throttler(1_000_000);
        // 2 MB in the first 500 ms: 4 MB/s; back to 1 MB/s means 2 s in all, 1.5 s of sleep.
        nanos += TimeUnit.MILLISECONDS.toNanos(500);
        throttler.maybeThrottle(2_000_000);
        assertEquals(List.of(1_500L), sleeps);
    }

    @Test
    void nothingSleepsWithinACheckIntervalOrBelowTheRate() {
        Throttler throttler = throttler(1_000_000);
        nanos += TimeUnit.MILLISECONDS.toNanos(100);
        throttler.maybeThrottle(5_000_000);
        assertEquals(List.of(), sleeps, "not 300 ms yet");
        nanos += TimeUnit.MILLISECONDS.toNanos(10_000);
        throttler.maybeThrottle(1);
        assertEquals(List.of(), sleeps, "5 MB in 10 s is below 1 MB/s");
    }

    @Test
    void aNewRateHoldsFromTheNextCheck() {
        Throttler throttler = throttler(Double.MAX_VALUE);
        nanos += TimeUnit.MILLISECONDS.toNanos(400);
        throttler.maybeThrottle(100_000_000);
        assertEquals(List.of(), sleeps, "no limit");
        throttler.updateDesiredRatePerSec(10_000_000);
        nanos += TimeUnit.MILLISECONDS.toNanos(400);
        throttler.maybeThrottle(8_000_000);
        assertEquals(List.of(400L), sleeps);
    }
}
