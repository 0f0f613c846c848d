package io.krabka.kernel.replica;

import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.LogOffsetMetadata;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.apache.kafka.common.protocol.Errors;

/**
 * A fetch waiting for data (Kafka's {@code DelayedFetch}): completed by the first append that brings the
 * partitions' readable bytes to the fetch's minimum, or makes a partition fail (its deletion, a new leader epoch),
 * or at its maximum wait with whatever is there. An append costs each waiting fetch a comparison of offsets and
 * file positions, not a read: the partitions are read again only to answer. Completes once.
 */
final class DelayedFetch {

    /** How far a fetch may read in a partition now; throws for a partition the fetch can no longer read. */
    @FunctionalInterface
    interface EndOffsets {
        LogOffsetMetadata endOffset(FetchPartition partition, FetchIsolation isolation) throws IOException;
    }

    private final FetchParams params;
    private final List<FetchPartition> partitions = new ArrayList<>();
    private final List<Optional<LogOffsetMetadata>> startOffsets = new ArrayList<>();
    private final Function<List<FetchPartition>, List<LogReadResult>> reader;
    private final EndOffsets endOffsets;
    private final CompletableFuture<List<LogReadResult>> response = new CompletableFuture<>();
    private final AtomicBoolean completed = new AtomicBoolean();
    private volatile ScheduledFuture<?> expiration;
    private volatile Runnable beforeCompletion = () -> {};

    /**
     * A fetch that read {@code firstRead} and found too little.
     *
     * @param reader reads the partitions to answer
     */
    DelayedFetch(
            FetchParams params,
            List<LogReadResult> firstRead,
            Function<List<FetchPartition>, List<LogReadResult>> reader,
            EndOffsets endOffsets) {
        this.params = params;
        for (LogReadResult result : firstRead) {
            partitions.add(result.partition());
            startOffsets.add(result.fetchOffsetMetadata());
        }
        this.reader = reader;
        this.endOffsets = endOffsets;
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

    /** Whether the fetch has been answered. */
    boolean isCompleted() {
        return completed.get();
    }

    /** Runs {@code action} when the fetch completes, before its response does. */
    void beforeCompletion(Runnable action) {
        beforeCompletion = action;
    }

    void expireAfter(ScheduledFuture<?> task) {
        expiration = task;
        if (completed.get()) {
            task.cancel(false);
        }
    }

    /** Completes the fetch if it may be answered now (Kafka's {@code tryComplete}); returns whether it did. */
    boolean tryComplete() {
        if (completed.get()) {
            return false;
        }
        Optional<Boolean> enough = enoughReadable();
        if (enough.isEmpty()) {
            // A position not known without a lookup: read, and answer if the read satisfies the fetch.
            List<LogReadResult> results = reader.apply(partitions);
            return satisfied(params, results) && complete(results);
        }
        return enough.get() && complete(reader.apply(partitions));
    }

    /** The maximum wait passed: answers with what is readable now. */
    boolean expire() {
        return !completed.get() && complete(reader.apply(partitions));
    }

    /**
     * Kafka's cases: a partition the fetch can no longer read (gone, fenced), an end offset below the fetch offset
     * (truncation) or on a newer segment, answer at once; otherwise the bytes between the fetch position and the
     * end position, at most the partition's limit, count toward {@code minBytes}. Empty when a position is unknown.
     */
    private Optional<Boolean> enoughReadable() {
        long accumulated = 0;
        for (int i = 0; i < partitions.size(); i++) {
            Optional<LogOffsetMetadata> start = startOffsets.get(i);
            LogOffsetMetadata end;
            try {
                end = endOffsets.endOffset(partitions.get(i), params.isolation());
            } catch (IOException | RuntimeException e) {
                return Optional.of(true);
            }
            if (start.isEmpty() || start.get().messageOffsetOnly() || end.messageOffsetOnly()) {
                return Optional.empty();
            }
            LogOffsetMetadata fetchOffset = start.get();
            if (fetchOffset.messageOffset() > end.messageOffset()
                    || (fetchOffset.messageOffset() < end.messageOffset()
                            && fetchOffset.segmentBaseOffset() < end.segmentBaseOffset())) {
                return Optional.of(true);
            }
            if (fetchOffset.messageOffset() < end.messageOffset()) {
                accumulated += Math.min(
                        end.relativePositionInSegment() - fetchOffset.relativePositionInSegment(),
                        partitions.get(i).maxBytes());
            }
        }
        return Optional.of(accumulated >= params.minBytes());
    }

    private boolean complete(List<LogReadResult> results) {
        if (!completed.compareAndSet(false, true)) {
            return false;
        }
        ScheduledFuture<?> task = expiration;
        if (task != null) {
            task.cancel(false);
        }
        beforeCompletion.run();
        response.complete(results);
        return true;
    }

    /** Kafka's conditions to answer a read at once: enough bytes, or a partition that failed. */
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
