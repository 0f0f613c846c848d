package io.krabka.kernel.scheduler;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@link Scheduler} on a small pool of daemon threads, as Kafka's {@code KafkaScheduler}: delayed tasks not yet
 * due when it shuts down are dropped, running ones finish.
 */
public final class KafkaScheduler implements Scheduler {

    private static final System.Logger LOG = System.getLogger(KafkaScheduler.class.getName());

    private final ScheduledThreadPoolExecutor executor;

    /**
     * Starts the pool.
     *
     * @param threads          the number of threads (Kafka's {@code background.threads})
     * @param threadNamePrefix the threads' names before their number
     */
    public KafkaScheduler(int threads, String threadNamePrefix) {
        if (threads < 1) {
            throw new IllegalArgumentException("a scheduler needs a thread: " + threads);
        }
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = task -> {
            Thread thread = new Thread(task, threadNamePrefix + count.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        };
        executor = new ScheduledThreadPoolExecutor(threads, factory);
        executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        executor.setRemoveOnCancelPolicy(true);
    }

    @Override
    public ScheduledFuture<?> schedule(String name, Runnable task, long delayMs, long periodMs) {
        Runnable logged = () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "Uncaught exception in scheduled task '" + name + "'", e);
            }
        };
        long delay = Math.max(0, delayMs);
        return periodMs > 0
                ? executor.scheduleAtFixedRate(logged, delay, periodMs, TimeUnit.MILLISECONDS)
                : executor.schedule(logged, delay, TimeUnit.MILLISECONDS);
    }

    /** The number of threads now. */
    public int threads() {
        return executor.getCorePoolSize();
    }

    /** Grows or shrinks the pool (Kafka's {@code resizeThreadPool}): a thread busy with a task ends after it. */
    public void resizeThreadPool(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("a scheduler needs a thread: " + threads);
        }
        executor.setCorePoolSize(threads);
    }

    /** Stops taking tasks, drops the delayed ones and waits for the running ones. */
    public void shutdown() throws InterruptedException {
        executor.shutdown();
        if (!executor.awaitTermination(1, TimeUnit.MINUTES)) {
            LOG.log(System.Logger.Level.WARNING, "Scheduled tasks still running after a minute; interrupting them");
            executor.shutdownNow();
        }
    }
}
