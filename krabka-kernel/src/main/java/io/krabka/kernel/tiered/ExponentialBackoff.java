package io.krabka.kernel.tiered;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Kafka's {@code ExponentialBackoff}: the wait before the next attempt after {@code attempts} failures in a row,
 * {@code initialMs × 2^(attempts-1)} up to {@code maxMs}, spread by a random {@code ±jitter} fraction so that
 * partitions failing together do not retry together.
 *
 * @param initialMs {@code remote.log.manager.task.retry.backoff.ms}
 * @param maxMs     {@code remote.log.manager.task.retry.backoff.max.ms}
 * @param jitter    {@code remote.log.manager.task.retry.jitter}, from 0 to 1
 */
record ExponentialBackoff(long initialMs, long maxMs, double jitter) {

    ExponentialBackoff {
        if (initialMs < 0 || maxMs < initialMs || !(jitter >= 0 && jitter <= 1)) {
            throw new IllegalArgumentException(
                    "invalid backoff: initial " + initialMs + " ms, max " + maxMs + " ms, jitter " + jitter);
        }
    }

    /** The wait after {@code attempts} (at least 1) failures in a row. */
    long backoffMs(int attempts) {
        double exp = Math.min((double) maxMs, initialMs * Math.pow(2, Math.max(0, attempts - 1)));
        double random = jitter == 0 ? 1 : ThreadLocalRandom.current().nextDouble(1 - jitter, 1 + jitter);
        return (long) Math.min((double) maxMs, exp * random);
    }
}
