package io.krabka.kernel.tiered;

import io.krabka.spi.common.TopicIdPartition;
import java.time.InstantSource;
import java.util.Objects;

/**
 * A periodic task of one partition (Kafka's {@code RLMTask}): each run does its work unless the task is cancelled
 * or waits out a backoff. A failed run is logged and the next runs wait {@code remote.log.manager.task.retry.*}
 * (exponential, with jitter) before trying again; a successful run resets the backoff. Runs never overlap: the
 * scheduler runs a periodic task once at a time.
 */
abstract class RLMTask implements Runnable {

    private static final System.Logger LOG = System.getLogger(RLMTask.class.getName());

    protected final TopicIdPartition topicIdPartition;
    protected final InstantSource time;
    private final ExponentialBackoff backoff;
    private volatile boolean cancelled;
    private int failures;
    private long nextAttemptMs = Long.MIN_VALUE;

    RLMTask(TopicIdPartition topicIdPartition, InstantSource time, ExponentialBackoff backoff) {
        this.topicIdPartition = Objects.requireNonNull(topicIdPartition, "topicIdPartition");
        this.time = Objects.requireNonNull(time, "time");
        this.backoff = Objects.requireNonNull(backoff, "backoff");
    }

    /** The work of one run. */
    protected abstract void execute() throws Exception;

    @Override
    public final synchronized void run() {
        if (cancelled || time.millis() < nextAttemptMs) {
            return;
        }
        try {
            execute();
            failures = 0;
            nextAttemptMs = Long.MIN_VALUE;
        } catch (Exception e) {
            failures++;
            long waitMs = backoff.backoffMs(failures);
            nextAttemptMs = time.millis() + waitMs;
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.log(
                    System.Logger.Level.WARNING,
                    getClass().getSimpleName() + " of " + topicIdPartition + " failed (" + failures
                            + " in a row); retrying in " + waitMs + " ms",
                    e);
        }
    }

    /** Stops the task: a run under way finishes its current step and returns. */
    void cancel() {
        cancelled = true;
    }

    /** Whether the task was cancelled. */
    boolean isCancelled() {
        return cancelled;
    }
}
