package io.krabka.kernel.tiered;

import java.time.InstantSource;
import java.util.Arrays;

/**
 * The broker-wide copy quota of tiered storage (KIP-956, Kafka's {@code RLMQuotaManager}): the bytes copied are
 * counted in {@code windowNum} windows of {@code windowSizeSeconds}; the quota is exceeded while the rate over the
 * windows kept is above {@code maxBytesPerSecond}. A copy task checks it before each segment and stops its run
 * while it is exceeded; the next run goes on.
 *
 * <p>Thread-safe.
 */
final class RLMQuotaManager {

    private final long maxBytesPerSecond;
    private final long windowSizeMs;
    private final long[] windowBytes;
    private final long[] windowStartMs;
    private final InstantSource time;

    RLMQuotaManager(long maxBytesPerSecond, int windowNum, int windowSizeSeconds, InstantSource time) {
        if (maxBytesPerSecond < 1 || windowNum < 1 || windowSizeSeconds < 1) {
            throw new IllegalArgumentException("invalid quota: " + maxBytesPerSecond + " bytes/s over " + windowNum
                    + " windows of " + windowSizeSeconds + " s");
        }
        this.maxBytesPerSecond = maxBytesPerSecond;
        this.windowSizeMs = windowSizeSeconds * 1000L;
        this.windowBytes = new long[windowNum];
        this.windowStartMs = new long[windowNum];
        Arrays.fill(windowStartMs, Long.MIN_VALUE);
        this.time = time;
    }

    /** Counts {@code bytes} copied now. */
    synchronized void record(long bytes) {
        long now = time.millis();
        int window = window(now);
        windowBytes[window] += bytes;
    }

    /** Whether the copy rate is above the quota. */
    synchronized boolean isQuotaExceeded() {
        if (maxBytesPerSecond == Long.MAX_VALUE) {
            return false;
        }
        long now = time.millis();
        window(now);
        long total = 0;
        long oldestStart = now;
        for (int i = 0; i < windowBytes.length; i++) {
            if (windowStartMs[i] != Long.MIN_VALUE) {
                total += windowBytes[i];
                oldestStart = Math.min(oldestStart, windowStartMs[i]);
            }
        }
        // As Kafka's Rate: over at least all windows but the current one, so that one burst is not a huge rate.
        long elapsedMs = Math.max(now - oldestStart, (windowBytes.length - 1) * windowSizeMs);
        return elapsedMs > 0 && total * 1000.0 / elapsedMs > maxBytesPerSecond;
    }

    // The window of now, reset if it held an older period; windows older than all kept are reset too.
    private int window(long now) {
        long period = Math.floorDiv(now, windowSizeMs);
        int index = (int) Math.floorMod(period, (long) windowBytes.length);
        long start = period * windowSizeMs;
        if (windowStartMs[index] != start) {
            windowStartMs[index] = start;
            windowBytes[index] = 0;
        }
        long oldestKept = start - (windowBytes.length - 1) * windowSizeMs;
        for (int i = 0; i < windowBytes.length; i++) {
            if (windowStartMs[i] != Long.MIN_VALUE && windowStartMs[i] < oldestKept) {
                windowStartMs[i] = Long.MIN_VALUE;
                windowBytes[i] = 0;
            }
        }
        return index;
    }
}
