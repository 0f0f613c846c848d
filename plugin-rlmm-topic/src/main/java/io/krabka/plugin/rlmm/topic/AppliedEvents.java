package io.krabka.plugin.rlmm.topic;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * How far the consumer has applied each metadata partition, and the futures of writes waiting to be applied. A
 * write is done once the consumer has applied its event, as in Kafka, whose writes wait to be consumed; here the
 * future also carries the outcome, so an event the cache refused (an invalid transition, an unknown segment)
 * fails the write that produced it.
 */
final class AppliedEvents {

    // Refusals of events no write was waiting for yet; a write learns its offset just after the broker acked it,
    // and the consumer may apply the event first. Bounded, as most are other brokers' events nobody waits for.
    private static final int REMEMBERED_REFUSALS = 1_000;

    private final Map<Integer, Long> nextOffsets = new HashMap<>();
    private final Map<Integer, NavigableMap<Long, CompletableFuture<Void>>> waiting = new HashMap<>();
    private final Map<Event, Exception> refusals = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Event, Exception> eldest) {
            return size() > REMEMBERED_REFUSALS;
        }
    };

    /** Starts a metadata partition at {@code nextOffset}, the first offset the consumer will apply. */
    synchronized void start(int partition, long nextOffset) {
        nextOffsets.put(partition, nextOffset);
        complete(partition);
    }

    /** Records that the event at {@code offset} was applied, or refused with {@code refusal} (null if applied). */
    synchronized void applied(int partition, long offset, Exception refusal) {
        nextOffsets.put(partition, offset + 1);
        NavigableMap<Long, CompletableFuture<Void>> futures = waiting.get(partition);
        CompletableFuture<Void> writer = futures == null ? null : futures.remove(offset);
        if (writer != null) {
            if (refusal == null) {
                writer.complete(null);
            } else {
                writer.completeExceptionally(refusal);
            }
        } else if (refusal != null) {
            refusals.put(new Event(partition, offset), refusal);
        }
        complete(partition);
    }

    /** The next offset the consumer applies in {@code partition}, or -1 if it has not started it. */
    synchronized long nextOffset(int partition) {
        return nextOffsets.getOrDefault(partition, -1L);
    }

    /** A future done once the event at {@code offset} of {@code partition} is applied, failed if it was refused. */
    synchronized CompletableFuture<Void> whenApplied(int partition, long offset) {
        if (nextOffsets.getOrDefault(partition, -1L) > offset) {
            Exception refusal = refusals.remove(new Event(partition, offset));
            return refusal == null ? CompletableFuture.completedFuture(null) : CompletableFuture.failedFuture(refusal);
        }
        return waiting.computeIfAbsent(partition, key -> new TreeMap<>())
                .computeIfAbsent(offset, key -> new CompletableFuture<>());
    }

    /** Fails every waiting write: the manager is closing. */
    synchronized void failAll(RuntimeException why) {
        waiting.values().forEach(futures -> futures.values().forEach(f -> f.completeExceptionally(why)));
        waiting.clear();
    }

    /** Completes the writes below the partition's next offset, such as those a snapshot already covered. */
    private void complete(int partition) {
        NavigableMap<Long, CompletableFuture<Void>> futures = waiting.get(partition);
        if (futures != null) {
            NavigableMap<Long, CompletableFuture<Void>> done = futures.headMap(nextOffsets.get(partition), false);
            done.values().forEach(future -> future.complete(null));
            done.clear();
        }
    }

    private record Event(int partition, long offset) {}
}
