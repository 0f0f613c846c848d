package io.krabka.kernel.tiered;

/**
 * The settings of reads from the remote tier, under Kafka's broker keys.
 *
 * @param readerThreads              {@code remote.log.reader.threads}: remote reads running at once, at least 1
 * @param readerMaxPendingTasks      {@code remote.log.reader.max.pending.tasks}: reads waiting for a thread
 *                                   before more are refused, at least 1
 * @param fetchMaxWaitMs             {@code remote.fetch.max.wait.ms}: how long a fetch waits for its remote read
 *                                   before answering without it, at least 1
 * @param fetchMaxBytesPerSecond     {@code remote.log.manager.fetch.max.bytes.per.second} (KIP-956), at least 1
 * @param fetchQuotaWindowNum        {@code remote.log.manager.fetch.quota.window.num}, at least 1
 * @param fetchQuotaWindowSizeSeconds {@code remote.log.manager.fetch.quota.window.size.seconds}, at least 1
 * @param listOffsetsTimeoutMs       {@code remote.list.offsets.request.timeout.ms}: how long a ListOffsets lookup
 *                                   may search the remote tier before it fails with REQUEST_TIMED_OUT, at least 1
 */
public record RemoteReadConfig(
        int readerThreads,
        int readerMaxPendingTasks,
        long fetchMaxWaitMs,
        long fetchMaxBytesPerSecond,
        int fetchQuotaWindowNum,
        int fetchQuotaWindowSizeSeconds,
        long listOffsetsTimeoutMs) {

    /** Kafka's defaults: 10 threads, 100 pending reads, 500 ms, no quota, 11 windows of 1 second, 30 s. */
    public static final RemoteReadConfig DEFAULTS = new RemoteReadConfig(10, 100, 500, Long.MAX_VALUE, 11, 1, 30_000);

    /** Checks the bounds. */
    public RemoteReadConfig {
        if (readerThreads < 1
                || readerMaxPendingTasks < 1
                || fetchMaxWaitMs < 1
                || fetchMaxBytesPerSecond < 1
                || fetchQuotaWindowNum < 1
                || fetchQuotaWindowSizeSeconds < 1
                || listOffsetsTimeoutMs < 1) {
            throw new IllegalArgumentException("remote read settings must be at least 1: " + this);
        }
    }
}
