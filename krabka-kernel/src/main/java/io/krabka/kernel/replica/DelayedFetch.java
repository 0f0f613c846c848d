package io.krabka.kernel.replica;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import org.apache.kafka.common.protocol.Errors;

/**
 * A fetch waiting for data (Kafka's {@code DelayedFetch}): completed by the first append that brings the
 * partitions' readable bytes to the fetch's minimum (or makes a partition fail, as its deletion does), or at its
 * maximum wait with whatever is there. Completes once.
 */
final class DelayedFetch {

    private final FetchParams params;
    private final List<FetchPartition> partitions;
    private final Function<List<FetchPartition>, List<LogReadResult>> reader;
    private final CompletableFuture<List<LogReadResult>> response = new CompletableFuture<>();
    private final AtomicBoolean completed = new AtomicBoolean();
    private volatile ScheduledFuture<?> expiration;

    DelayedFetch(FetchParams params, List<FetchPartition> partitions,
            Function<List<FetchPartition>, List<LogReadResult>> reader) {
        this.params = params;
        this.partitions = List.copyOf(partitions);
        this.reader = reader;
    }

    List<FetchPartition> partitions() {
        return partitions;
    }

    long maxWaitMs() {
        return params.maxWaitMs();
    }

    CompletableFuture<List<LogReadResult>> response() {
        return response;
    }

    boolean isCompleted() {
        return completed.get();
    }

    void expireAfter(ScheduledFuture<?> task) {
        expiration = task;
        if (completed.get()) {
            task.cancel(false);
        }
    }

    /** Reads again; completes if the fetch is satisfied now. Returns whether it completed the fetch. */
    boolean tryComplete() {
        if (completed.get()) {
            return false;
        }
        List<LogReadResult> results = reader.apply(partitions);
        return satisfied(params, results) && complete(results);
    }

    /** The maximum wait passed: answers with what is readable now. */
    boolean expire() {
        return !completed.get() && complete(reader.apply(partitions));
    }

    private boolean complete(List<LogReadResult> results) {
        if (!completed.compareAndSet(false, true)) {
            return false;
        }
        ScheduledFuture<?> task = expiration;
        if (task != null) {
            task.cancel(false);
        }
        response.complete(results);
        return true;
    }

    /** Kafka's conditions to answer at once: enough bytes, or a partition that failed. */
    static boolean satisfied(FetchParams params, List<LogReadResult> results) {
        long bytes = 0;
        for (LogReadResult result : results) {
            if (result.error() != Errors.NONE) {
                return true;
            }
            bytes += result.records().sizeInBytes();
        }
        return bytes >= params.minBytes();
    }
}
