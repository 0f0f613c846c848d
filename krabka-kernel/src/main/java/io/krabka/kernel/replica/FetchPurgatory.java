package io.krabka.kernel.replica;

import io.krabka.kernel.scheduler.Scheduler;
import io.krabka.spi.common.TopicPartition;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;

/**
 * The fetches waiting for data, by the partitions they read (Kafka's {@code DelayedOperationPurgatory} for
 * fetches): an append to a partition tries to complete the fetches watching it; each fetch's maximum wait is a
 * task on the scheduler. Nothing polls.
 */
final class FetchPurgatory {

    private final Scheduler scheduler;
    private final ConcurrentHashMap<TopicPartition, Set<DelayedFetch>> watchers = new ConcurrentHashMap<>();

    FetchPurgatory(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * Watches the fetch's partitions, schedules its expiry, then tries it once more: an append between the
     * caller's first read and the watch is not missed.
     */
    void tryCompleteElseWatch(DelayedFetch fetch) {
        // Unwatched before the response completes: the answer never goes out with the fetch still counted. Set
        // before the watch, for an append may complete the fetch as soon as it is watched.
        fetch.beforeCompletion(() -> unwatch(fetch));
        for (FetchPartition partition : fetch.partitions()) {
            // Added inside compute: an unwatch emptying the set at the same time cannot orphan the fetch.
            watchers.compute(partition.topicIdPartition().topicPartition(), (key, set) -> {
                Set<DelayedFetch> fetches = set != null ? set : ConcurrentHashMap.newKeySet();
                fetches.add(fetch);
                return fetches;
            });
        }
        if (fetch.isCompleted()) {
            // Completed by an append to one partition while it was still being added to the watchers of another.
            unwatch(fetch);
            return;
        }
        try {
            fetch.expireAfter(scheduler.scheduleOnce("delayed-fetch-expiration", fetch::expire, fetch.maxWaitMs()));
        } catch (RejectedExecutionException e) {
            // Shutting down: answer now with what is there.
            fetch.expire();
            return;
        }
        fetch.tryComplete();
    }

    /** Tries to complete the fetches watching {@code partition}: after an append to it, or its deletion. */
    void checkAndComplete(TopicPartition partition) {
        Set<DelayedFetch> waiting = watchers.get(partition);
        if (waiting != null) {
            for (DelayedFetch fetch : waiting) {
                fetch.tryComplete();
            }
        }
    }

    /** Answers every waiting fetch now, with what is readable. */
    void expireAll() {
        watchers.values().stream().flatMap(Set::stream).distinct().toList().forEach(DelayedFetch::expire);
    }

    /** The number of fetches waiting. */
    int waiting() {
        return (int) watchers.values().stream().flatMap(Set::stream).distinct().count();
    }

    private void unwatch(DelayedFetch fetch) {
        for (FetchPartition partition : fetch.partitions()) {
            watchers.computeIfPresent(partition.topicIdPartition().topicPartition(), (key, set) -> {
                set.remove(fetch);
                return set.isEmpty() ? null : set;
            });
        }
    }
}
