package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.opentest4j.AssertionFailedError;

/** Runs tasks on a pool of threads from one common start and reports every failure together. */
final class Concurrently {

    /** A task of a concurrent rule. */
    @FunctionalInterface
    interface Task {
        void run() throws Exception;
    }

    private Concurrently() {}

    /**
     * Runs the tasks on {@code threads} threads. The first {@code threads} tasks are released together, so they
     * overlap; the rest follow as threads free up.
     *
     * @param timeout how long all tasks may take before the rule reports a hang
     */
    static void run(List<Task> tasks, int threads, Duration timeout) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (Task task : tasks) {
                futures.add(pool.submit(() -> {
                    start.await();
                    task.run();
                    return null;
                }));
            }
            start.countDown();
            List<Throwable> failures = new ArrayList<>();
            long deadline = System.nanoTime() + timeout.toNanos();
            for (Future<?> future : futures) {
                try {
                    future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (ExecutionException e) {
                    failures.add(e.getCause());
                } catch (TimeoutException e) {
                    fail("concurrent tasks did not finish within " + timeout + ": a deadlock or a hang");
                }
            }
            if (!failures.isEmpty()) {
                AssertionFailedError error = new AssertionFailedError(failures.size() + " of " + tasks.size()
                        + " concurrent tasks failed; the first: " + failures.getFirst());
                failures.forEach(error::addSuppressed);
                throw error;
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
