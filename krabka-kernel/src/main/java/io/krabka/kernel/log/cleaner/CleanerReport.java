package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.UnifiedLog;
import java.util.Locale;

/** The summary a cleaner thread logs after cleaning a log, with Kafka's lines. */
final class CleanerReport {

    private static final double MB = 1024 * 1024;

    private CleanerReport() {}

    static String describe(int id, UnifiedLog log, long from, long to, CleanerStats stats) {
        double elapsed = stats.elapsedSecs();
        double index = stats.elapsedIndexSecs();
        double read = stats.bytesRead / MB;
        double mapRead = stats.mapBytesRead / MB;
        return String.format(
                Locale.ROOT,
                "%n\tLog cleaner thread %d cleaned log %s (dirty section = [%d, %d])%n"
                        + "\t%,.1f MB of log processed in %,.1f seconds (%,.1f MB/sec).%n"
                        + "\tIndexed %,.1f MB in %.1f seconds (%,.1f Mb/sec, %.1f%% of total time)%n"
                        + "\tBuffer utilization: %.1f%%%n"
                        + "\tCleaned %,.1f MB in %.1f seconds (%,.1f Mb/sec, %.1f%% of total time)%n"
                        + "\tStart size: %,.1f MB (%,d messages)%n"
                        + "\tEnd size: %,.1f MB (%,d messages)%n"
                        + "\t%.1f%% size reduction (%.1f%% fewer messages)%n",
                id,
                log.topicPartition(),
                from,
                to,
                read,
                elapsed,
                read / elapsed,
                mapRead,
                index,
                mapRead / index,
                100 * index / elapsed,
                100 * stats.bufferUtilization,
                read,
                elapsed - index,
                read / (elapsed - index),
                100 * (elapsed - index) / elapsed,
                read,
                stats.messagesRead,
                stats.bytesWritten / MB,
                stats.messagesWritten,
                100.0 * (1.0 - (double) stats.bytesWritten / stats.bytesRead),
                100.0 * (1.0 - (double) stats.messagesWritten / stats.messagesRead));
    }
}
