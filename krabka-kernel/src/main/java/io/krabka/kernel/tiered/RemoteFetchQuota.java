package io.krabka.kernel.tiered;

import java.time.InstantSource;

/**
 * The broker-wide bound on bytes read from the remote tier per second (KIP-956,
 * {@code remote.log.manager.fetch.max.bytes.per.second}): the rate over the last {@code windowNum} windows of
 * {@code windowSizeSeconds}, as Kafka's quota sensor measures it. While the rate is above the bound, fetches skip
 * their remote reads. Thread-safe.
 */
final class RemoteFetchQuota {

    private final long maxBytesPerSecond;
    private final long windowMs;
    private final long[] windowStarts;
    private final long[] windowBytes;
    private final InstantSource time;

    RemoteFetchQuota(long maxBytesPerSecond, int windowNum, int windowSizeSeconds, InstantSource time) {
        this.maxBytesPerSecond = maxBytesPerSecond;
        this.windowMs = windowSizeSeconds * 1000L;
        this.windowStarts = new long[windowNum];
        this.windowBytes = new long[windowNum];
        this.time = time;
    }

    /** Counts bytes read now. */
    synchronized void record(long bytes) {
        long now = time.millis();
        int slot = slot(now);
        long start = now - now % windowMs;
        if (windowStarts[slot] != start) {
            windowStarts[slot] = start;
            windowBytes[slot] = 0;
        }
        windowBytes[slot] += bytes;
    }

    /** Whether the rate over the live windows is above the bound. */
    synchronized boolean isQuotaExceeded() {
        if (maxBytesPerSecond == Long.MAX_VALUE) {
            return false;
        }
        long now = time.millis();
        long oldest = now - now % windowMs - (windowStarts.length - 1) * windowMs;
        long bytes = 0;
        for (int i = 0; i < windowStarts.length; i++) {
            if (windowStarts[i] >= oldest) {
                bytes += windowBytes[i];
            }
        }
        double seconds = windowStarts.length * windowMs / 1000.0;
        return bytes / seconds > maxBytesPerSecond;
    }

    private int slot(long now) {
        return (int) ((now / windowMs) % windowStarts.length);
    }
}
