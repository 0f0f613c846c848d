package io.krabka.kernel.group;

import io.krabka.kernel.scheduler.Scheduler;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The coordinator's keyed timers on the broker's {@link Scheduler}: nothing polls; each timer is one delayed task.
 * Scheduled and cancelled under the coordinator's lock, which the task takes when it runs; a task replaced or
 * cancelled meanwhile does nothing.
 */
final class CoordinatorTimers implements CoordinatorTimer {

    private final Object lock;
    private final Scheduler scheduler;
    private final Map<String, ScheduledFuture<?>> timers = new HashMap<>();

    CoordinatorTimers(Object lock, Scheduler scheduler) {
        this.lock = Objects.requireNonNull(lock, "lock");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    @Override
    public void schedule(String key, long delayMs, Runnable task) {
        AtomicReference<ScheduledFuture<?>> self = new AtomicReference<>();
        ScheduledFuture<?> future = scheduler.scheduleOnce(
                "group-coordinator " + key,
                () -> {
                    synchronized (lock) {
                        if (timers.get(key) != self.get()) {
                            return;
                        }
                        timers.remove(key);
                        task.run();
                    }
                },
                delayMs);
        // The caller holds the lock, so the task cannot look before this is set.
        self.set(future);
        ScheduledFuture<?> previous = timers.put(key, future);
        if (previous != null) {
            previous.cancel(false);
        }
    }

    @Override
    public void cancel(String key) {
        ScheduledFuture<?> previous = timers.remove(key);
        if (previous != null) {
            previous.cancel(false);
        }
    }

    /** Cancels every timer (at shutdown). */
    void cancelAll() {
        timers.values().forEach(timer -> timer.cancel(false));
        timers.clear();
    }
}
