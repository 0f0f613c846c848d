package io.krabka.kernel.group;

/**
 * The coordinator's timers: each has a key, and scheduling a key again replaces its pending task, as Kafka's
 * {@code CoordinatorTimer}. A task runs under the coordinator's lock, and only if it is still the key's task.
 */
interface CoordinatorTimer {

    /** Runs {@code task} after {@code delayMs}, replacing the task pending under {@code key}. */
    void schedule(String key, long delayMs, Runnable task);

    /** Cancels the task pending under {@code key}, if any. */
    void cancel(String key);
}
