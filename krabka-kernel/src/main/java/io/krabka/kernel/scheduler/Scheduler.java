package io.krabka.kernel.scheduler;

import java.util.concurrent.ScheduledFuture;

/**
 * Runs the log engine's background work: segment file deletions after {@code file.delete.delay.ms}, flushes after
 * a roll, and the log manager's periodic flush, checkpoint and retention tasks. Kafka's {@code Scheduler}.
 */
public interface Scheduler {

    /**
     * Runs {@code task} after {@code delayMs} and then, if {@code periodMs} is positive, every {@code periodMs}. A
     * task that throws is logged and, if periodic, runs again at its next time.
     *
     * @param name what the task is, for the log
     * @return the task, to cancel
     * @throws java.util.concurrent.RejectedExecutionException if the scheduler is shut down
     */
    ScheduledFuture<?> schedule(String name, Runnable task, long delayMs, long periodMs);

    /** Runs {@code task} once after {@code delayMs}. */
    default ScheduledFuture<?> scheduleOnce(String name, Runnable task, long delayMs) {
        return schedule(name, task, delayMs, -1);
    }

    /** Runs {@code task} once, as soon as a thread is free. */
    default ScheduledFuture<?> scheduleOnce(String name, Runnable task) {
        return scheduleOnce(name, task, 0);
    }
}
