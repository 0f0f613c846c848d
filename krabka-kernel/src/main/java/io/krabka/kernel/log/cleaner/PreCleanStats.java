package io.krabka.kernel.log.cleaner;

/**
 * What a choice of the log to clean found, Kafka's {@code PreCleanStats}: the longest a log has waited past its
 * {@code max.compaction.lag.ms} ({@code max-compaction-delay-secs}), how many logs waited, how many could be
 * cleaned.
 */
final class PreCleanStats {

    long maxCompactionDelayMs;
    int delayedPartitions;
    int cleanablePartitions;

    void updateMaxCompactionDelay(long delayMs) {
        maxCompactionDelayMs = Math.max(maxCompactionDelayMs, delayMs);
        if (delayMs > 0) {
            delayedPartitions++;
        }
    }

    void recordCleanablePartitions(int count) {
        cleanablePartitions = count;
    }
}
