package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one call of a rule on a thread of its own and waits for it no longer than the kit's operation timeout, so
 * that a call that hangs (a {@code close()} waiting for streams, a fetch waiting for a pooled connection that never
 * comes back) fails the rule instead of the build. A call that outlives the timeout is interrupted and left.
 */
final class Bounded {

    /** A call that answers. */
    @FunctionalInterface
    interface Call<T> {
        T call() throws Exception;
    }

    /** A call that answers nothing. */
    @FunctionalInterface
    interface Task {
        void run() throws Exception;
    }

    private Bounded() {}

    /** Runs the task and rethrows what it threw; fails the rule if it does not return within {@code timeout}. */
    static void run(String what, Duration timeout, Task task) throws Exception {
        call(what, timeout, () -> {
            task.run();
            return null;
        });
    }

    /** Makes the call and returns its answer or rethrows what it threw; fails the rule if it hangs. */
    static <T> T call(String what, Duration timeout, Call<T> call) throws Exception {
        CompletableFuture<T> answer = new CompletableFuture<>();
        Thread thread = Thread.ofPlatform().daemon().name("krabka-kit-bounded").start(() -> {
            try {
                answer.complete(call.call());
            } catch (Throwable t) {
                answer.completeExceptionally(t);
            }
        });
        try {
            return answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            thread.interrupt();
            return fail(what + " did not return within the operation timeout of " + timeout + ": a hang");
        } catch (InterruptedException e) {
            thread.interrupt();
            Thread.currentThread().interrupt();
            return fail("interrupted waiting for " + what, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
