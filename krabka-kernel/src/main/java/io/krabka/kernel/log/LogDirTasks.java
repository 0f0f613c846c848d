package io.krabka.kernel.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Work on every log of a directory at once, on {@code num.recovery.threads.per.data.dir} threads, as Kafka loads and
 * closes a directory's logs: it waits on the disk (reads, fsyncs), not on the CPU.
 */
final class LogDirTasks {

    /**
     * What the tasks gave: the results of those that succeeded, in the tasks' order, and the failures, the first
     * with the others suppressed in it.
     */
    record Outcome<T>(List<T> results, IOException failure) {}

    private LogDirTasks() {}

    /**
     * Runs every task on {@code threads} threads named {@code name-N} and waits for them all.
     *
     * @param what what a task does, for the message of a failure that is not an I/O error
     */
    static <T> Outcome<T> runAll(String name, int threads, List<Callable<T>> tasks, String what) {
        List<T> results = new ArrayList<>();
        IOException failure = null;
        try (ExecutorService executor = Executors.newFixedThreadPool(
                threads, Thread.ofPlatform().name(name + "-", 0).daemon().factory())) {
            List<Future<T>> futures = tasks.stream().map(executor::submit).toList();
            for (Future<T> future : futures) {
                try {
                    results.add(future.get());
                } catch (ExecutionException e) {
                    failure = add(failure, e.getCause(), what);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failure = add(failure, e, what);
                }
            }
        }
        return new Outcome<>(results, failure);
    }

    private static IOException add(IOException failure, Throwable cause, String what) {
        IOException next = cause instanceof IOException io
                ? io
                : cause instanceof UncheckedIOException unchecked
                        ? unchecked.getCause()
                        : new IOException("Failed to " + what + ": " + cause, cause);
        if (failure == null) {
            return next;
        }
        failure.addSuppressed(next);
        return failure;
    }
}
