package io.krabka.kernel.tiered;

import io.krabka.kernel.log.FetchDataInfo;
import io.krabka.kernel.log.TimestampAndOffset;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;

/**
 * Runs remote reads off the request threads, as Kafka's {@code RemoteLogManager.asyncRead} and
 * {@code asyncOffsetRead} on its reader pool: at most {@code remote.log.reader.threads} at once (virtual threads
 * behind a semaphore), at most {@code remote.log.reader.max.pending.tasks} more waiting, further reads refused.
 * Counts fetch reads, bytes, errors and latency in {@link RemoteFetchMetrics} and the bytes against the fetch quota
 * (KIP-956). Thread-safe.
 */
public final class AsyncRemoteLogReader implements AutoCloseable {

    /** A read of the remote tier. */
    @FunctionalInterface
    private interface RemoteRead<T> {
        T read() throws RemoteStorageException, IOException;
    }

    private final RemoteLogReader reader;
    private final RemoteReadConfig config;
    private final RemoteFetchMetrics metrics;
    private final RLMQuotaManager quota;
    private final Semaphore running;
    private final Semaphore admitted;
    private final ExecutorService executor = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("remote-log-reader-", 0).factory());

    /**
     * A pool over {@code reader}.
     *
     * @param time the clock of the fetch quota's windows
     */
    public AsyncRemoteLogReader(
            RemoteLogReader reader, RemoteReadConfig config, RemoteFetchMetrics metrics, InstantSource time) {
        this.reader = Objects.requireNonNull(reader, "reader");
        this.config = Objects.requireNonNull(config, "config");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.quota = new RLMQuotaManager(
                config.fetchMaxBytesPerSecond(),
                config.fetchQuotaWindowNum(),
                config.fetchQuotaWindowSizeSeconds(),
                time);
        this.running = new Semaphore(config.readerThreads());
        this.admitted = new Semaphore(config.readerThreads() + config.readerMaxPendingTasks());
    }

    /** The settings. */
    public RemoteReadConfig config() {
        return config;
    }

    /** The counters of the reads. */
    public RemoteFetchMetrics metrics() {
        return metrics;
    }

    /** Whether the remote fetch quota is used up: fetches then skip their remote reads, as Kafka's do. */
    public boolean isFetchQuotaExceeded() {
        return quota.isQuotaExceeded();
    }

    /**
     * Reads records on the pool. The future fails with what {@link RemoteLogReader#read} throws; cancelling it
     * before the read starts skips the read.
     *
     * @throws RejectedExecutionException if as many reads wait as allowed, or the pool is closed
     */
    public CompletableFuture<FetchDataInfo> asyncRead(RemoteStorageFetchInfo fetch, UnifiedLog log) {
        String topic = fetch.topicIdPartition().topic();
        return submit(fetch.topicIdPartition(), () -> {
            metrics.recordRequest(topic);
            long start = System.nanoTime();
            try {
                FetchDataInfo data = reader.read(fetch, log);
                int bytes = data.records().sizeInBytes();
                metrics.recordBytes(topic, bytes);
                quota.record(bytes);
                return data;
            } catch (RemoteStorageException | IOException | RuntimeException e) {
                metrics.recordError(topic);
                throw e;
            } finally {
                // Counted before the fetch is answered, so an answered fetch is always in the counts.
                metrics.recordLatency(topic, System.nanoTime() - start);
            }
        });
    }

    /**
     * Searches the remote tier for the first record at or after {@code timestamp} on the pool, as Kafka's
     * {@code asyncOffsetRead}; the caller bounds its wait by {@link RemoteReadConfig#listOffsetsTimeoutMs()}.
     *
     * @throws RejectedExecutionException if as many reads wait as allowed, or the pool is closed
     * @see RemoteLogReader#findOffsetByTimestamp
     */
    public CompletableFuture<Optional<TimestampAndOffset>> asyncFindOffsetByTimestamp(
            TopicIdPartition partition, long timestamp, long startingOffset, UnifiedLog log) {
        return submit(partition, () -> reader.findOffsetByTimestamp(partition, timestamp, startingOffset, log));
    }

    private <T> CompletableFuture<T> submit(TopicIdPartition partition, RemoteRead<T> read) {
        if (!admitted.tryAcquire()) {
            throw new RejectedExecutionException("remote.log.reader.max.pending.tasks ("
                    + config.readerMaxPendingTasks() + ") remote reads already wait; refused a read of " + partition);
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            executor.execute(() -> run(read, result));
        } catch (RejectedExecutionException e) {
            admitted.release();
            throw e;
        }
        return result;
    }

    private <T> void run(RemoteRead<T> read, CompletableFuture<T> result) {
        try {
            running.acquireUninterruptibly();
            try {
                if (!result.isDone()) {
                    result.complete(read.read());
                }
            } catch (RemoteStorageException | IOException | RuntimeException e) {
                result.completeExceptionally(e);
            } finally {
                running.release();
            }
        } finally {
            admitted.release();
        }
    }

    /** Refuses new reads; reads under way finish. */
    @Override
    public void close() {
        executor.shutdown();
    }
}
