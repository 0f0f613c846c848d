package io.krabka.kernel.replica;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.apache.kafka.common.protocol.Errors;

import io.krabka.kernel.log.BufferRecords;
import io.krabka.kernel.log.FetchDataInfo;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.Scheduler;

/**
 * A fetch waiting for its remote read (Kafka's {@code DelayedRemoteFetch}): answered when the read completes, with
 * the remote records for that partition and the local results read before for the others; or when
 * {@code remote.fetch.max.wait.ms} passes, with no records for that partition, the read being cancelled if it has
 * not started. Completes once.
 */
final class DelayedRemoteFetch {

    private final List<LogReadResult> localResults;
    private final LogReader.RemoteRead remoteRead;
    private final CompletableFuture<FetchDataInfo> remoteData;
    private final Consumer<DelayedRemoteFetch> beforeCompletion;
    private final CompletableFuture<List<LogReadResult>> response = new CompletableFuture<>();
    private final AtomicBoolean completed = new AtomicBoolean();
    private volatile ScheduledFuture<?> expiration;

    /**
     * A fetch whose partition at {@code remoteRead.index()} waits for {@code remoteData}.
     *
     * @param localResults     the results of every partition, that one with no records yet
     * @param beforeCompletion given this fetch once when it completes, before its response completes
     */
    DelayedRemoteFetch(List<LogReadResult> localResults, LogReader.RemoteRead remoteRead,
            CompletableFuture<FetchDataInfo> remoteData, Consumer<DelayedRemoteFetch> beforeCompletion) {
        this.localResults = List.copyOf(localResults);
        this.remoteRead = remoteRead;
        this.remoteData = remoteData;
        this.beforeCompletion = beforeCompletion;
    }

    CompletableFuture<List<LogReadResult>> response() {
        return response;
    }

    /** Starts the wait: the expiry on {@code scheduler}, and the answer when the read completes. */
    void start(Scheduler scheduler, long maxWaitMs) {
        try {
            ScheduledFuture<?> task = scheduler.scheduleOnce("delayed-remote-fetch-expiration", this::expire,
                    maxWaitMs);
            expiration = task;
            if (completed.get()) {
                task.cancel(false);
            }
        } catch (RejectedExecutionException e) {
            // Shutting down: answer with what is there.
            expire();
            return;
        }
        remoteData.whenComplete((data, error) -> complete(error == null ? withRemote(data) : failed(error)));
    }

    /** The wait passed, or the broker is stopping: answers without the remote records. */
    void expire() {
        if (complete(localResults)) {
            remoteData.cancel(false);
        }
    }

    private List<LogReadResult> withRemote(FetchDataInfo data) {
        LogReadResult placeholder = localResults.get(remoteRead.index());
        boolean readCommitted = remoteRead.fetch().isolation() == FetchIsolation.TXN_COMMITTED;
        LogReadResult result = new LogReadResult(placeholder.partition(), Errors.NONE,
                data.firstEntryIncomplete() ? BufferRecords.EMPTY : data.records(), placeholder.highWatermark(),
                placeholder.lastStableOffset(), placeholder.logStartOffset(),
                readCommitted ? Optional.of(data.abortedTransactions().orElse(List.of())) : Optional.empty(),
                Optional.of(data.fetchOffsetMetadata()));
        return replaced(result);
    }

    private List<LogReadResult> failed(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return replaced(LogReadResult.failed(localResults.get(remoteRead.index()).partition(),
                RemoteReads.forException(cause)));
    }

    private List<LogReadResult> replaced(LogReadResult remoteResult) {
        List<LogReadResult> results = new ArrayList<>(localResults);
        results.set(remoteRead.index(), remoteResult);
        return results;
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
