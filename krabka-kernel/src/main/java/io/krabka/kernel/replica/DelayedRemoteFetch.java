package io.krabka.kernel.replica;

import io.krabka.kernel.log.BufferRecords;
import io.krabka.kernel.log.FetchDataInfo;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.scheduler.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.kafka.common.protocol.Errors;

/**
 * A fetch waiting for its remote reads (Kafka's {@code DelayedRemoteFetch}): answered when every read completes, with
 * the remote records of those partitions and the local results read before for the others; or when
 * {@code remote.fetch.max.wait.ms} passes, with the reads that completed by then and no records for the others, whose
 * reads are cancelled if they have not started. Completes once.
 */
final class DelayedRemoteFetch {

    private final List<LogReadResult> localResults;
    private final List<LogReader.RemoteRead> remoteReads;
    private final List<CompletableFuture<FetchDataInfo>> remoteData;
    private final Consumer<DelayedRemoteFetch> beforeCompletion;
    private final CompletableFuture<List<LogReadResult>> response = new CompletableFuture<>();
    private final AtomicBoolean completed = new AtomicBoolean();
    private volatile ScheduledFuture<?> expiration;

    /**
     * A fetch whose partitions at the {@code remoteReads}' indexes wait for the {@code remoteData} in the same order.
     *
     * @param localResults     the results of every partition, those with no records yet
     * @param beforeCompletion given this fetch once when it completes, before its response completes
     */
    DelayedRemoteFetch(
            List<LogReadResult> localResults,
            List<LogReader.RemoteRead> remoteReads,
            List<CompletableFuture<FetchDataInfo>> remoteData,
            Consumer<DelayedRemoteFetch> beforeCompletion) {
        if (remoteReads.size() != remoteData.size() || remoteReads.isEmpty()) {
            throw new IllegalArgumentException(remoteReads.size() + " remote reads, " + remoteData.size() + " results");
        }
        this.localResults = List.copyOf(localResults);
        this.remoteReads = List.copyOf(remoteReads);
        this.remoteData = List.copyOf(remoteData);
        this.beforeCompletion = beforeCompletion;
    }

    CompletableFuture<List<LogReadResult>> response() {
        return response;
    }

    /** Starts the wait: the expiry on {@code scheduler}, and the answer when the reads complete. */
    void start(Scheduler scheduler, long maxWaitMs) {
        try {
            ScheduledFuture<?> task =
                    scheduler.scheduleOnce("delayed-remote-fetch-expiration", this::expire, maxWaitMs);
            expiration = task;
            if (completed.get()) {
                task.cancel(false);
            }
        } catch (RejectedExecutionException e) {
            // Shutting down: answer with what is there.
            expire();
            return;
        }
        CompletableFuture.allOf(remoteData.toArray(new CompletableFuture<?>[0]))
                .whenComplete((done, error) -> complete(results()));
    }

    /** The wait passed, or the broker is stopping: answers with the reads done by now. */
    void expire() {
        if (complete(results())) {
            remoteData.forEach(data -> data.cancel(false));
        }
    }

    // Each remote partition as its read ended: records, an error, or (not done yet) none.
    private List<LogReadResult> results() {
        List<LogReadResult> results = new ArrayList<>(localResults);
        for (int i = 0; i < remoteReads.size(); i++) {
            CompletableFuture<FetchDataInfo> data = remoteData.get(i);
            if (!data.isDone()) {
                continue;
            }
            LogReader.RemoteRead remoteRead = remoteReads.get(i);
            LogReadResult placeholder = localResults.get(remoteRead.index());
            LogReadResult result;
            try {
                result = withRemote(placeholder, remoteRead, data.join());
            } catch (CompletionException | CancellationException e) {
                result = LogReadResult.failed(
                        placeholder.partition(),
                        RemoteReads.forException(
                                e instanceof CompletionException && e.getCause() != null ? e.getCause() : e));
            }
            results.set(remoteRead.index(), result);
        }
        return results;
    }

    private static LogReadResult withRemote(
            LogReadResult placeholder, LogReader.RemoteRead remoteRead, FetchDataInfo data) {
        boolean readCommitted = remoteRead.fetch().isolation() == FetchIsolation.TXN_COMMITTED;
        return new LogReadResult(
                placeholder.partition(),
                Errors.NONE,
                data.firstEntryIncomplete() ? BufferRecords.EMPTY : data.records(),
                placeholder.highWatermark(),
                placeholder.lastStableOffset(),
                placeholder.logStartOffset(),
                readCommitted ? Optional.of(data.abortedTransactions().orElse(List.of())) : Optional.empty(),
                Optional.of(data.fetchOffsetMetadata()));
    }

    private boolean complete(List<LogReadResult> results) {
        if (!completed.compareAndSet(false, true)) {
            return false;
        }
        ScheduledFuture<?> task = expiration;
        if (task != null) {
            task.cancel(false);
        }
        beforeCompletion.accept(this);
        response.complete(results);
        return true;
    }
}
