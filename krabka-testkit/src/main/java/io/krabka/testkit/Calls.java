package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Calls of a metadata manager's writes, which answer with a future. The SPI lets a write fail either by throwing
 * or by failing its future, so the kit accepts both and judges only the exception.
 */
final class Calls {

    /** A write. */
    @FunctionalInterface
    interface Write {
        CompletableFuture<?> call() throws Exception;
    }

    private Calls() {}

    /** Makes a write that must succeed and waits for it. */
    static void succeeds(String what, Duration timeout, Write write) {
        Throwable failure = outcome(what, timeout, write);
        if (failure != null) {
            fail(what + " must succeed but failed with " + failure, failure);
        }
    }

    /** Makes a write that must be refused with an exception of one of the types, and returns the exception. */
    static Throwable refused(String what, Duration timeout, List<Class<? extends Throwable>> types, Write write) {
        Throwable failure = outcome(what, timeout, write);
        if (failure == null) {
            fail(what + " must be refused with " + names(types) + " but was accepted");
        }
        if (types.stream().noneMatch(type -> type.isInstance(failure))) {
            fail(what + " must be refused with " + names(types) + ", not " + failure, failure);
        }
        return failure;
    }

    /** What the write failed with, or {@code null} if it succeeded. */
    private static Throwable outcome(String what, Duration timeout, Write write) {
        CompletableFuture<?> future;
        try {
            future = write.call();
        } catch (Exception e) {
            return e;
        }
        assertNotNull(future, what + " returned no future");
        try {
            future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (CancellationException e) {
            return e;
        } catch (TimeoutException e) {
            return fail(what + " did not complete within " + timeout + ": a hang");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail(what + " was interrupted", e);
        }
    }

    private static String names(List<Class<? extends Throwable>> types) {
        return String.join(" or ", types.stream().map(Class::getSimpleName).toList());
    }
}
