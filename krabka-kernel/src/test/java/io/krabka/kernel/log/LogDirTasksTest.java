package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LogDirTasksTest {

    @Test
    void theResultsComeInTheTasksOrderAndTheTasksRunAtOnce() {
        CountDownLatch bothStarted = new CountDownLatch(2);
        Callable<String> first = () -> {
            bothStarted.countDown();
            assertTrue(bothStarted.await(10, TimeUnit.SECONDS), "the second task ran beside the first");
            return "first";
        };
        Callable<String> second = () -> {
            bothStarted.countDown();
            return "second";
        };

        LogDirTasks.Outcome<String> outcome = LogDirTasks.runAll("test", 2, List.of(first, second), "test");

        assertEquals(List.of("first", "second"), outcome.results());
        assertNull(outcome.failure());
    }

    @Test
    void everyTaskRunsThoughOneFailsAndEveryFailureIsKept() {
        AtomicInteger ran = new AtomicInteger();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        List<Callable<Integer>> tasks = List.of(
                () -> {
                    ran.incrementAndGet();
                    threads.add(Thread.currentThread().getName());
                    throw new IOException("first failure");
                },
                () -> {
                    ran.incrementAndGet();
                    threads.add(Thread.currentThread().getName());
                    return 2;
                },
                () -> {
                    ran.incrementAndGet();
                    threads.add(Thread.currentThread().getName());
                    throw new UncheckedIOException(new IOException("second failure"));
                },
                () -> {
                    ran.incrementAndGet();
                    threads.add(Thread.currentThread().getName());
                    throw new IllegalStateException("not an I/O error");
                });

        LogDirTasks.Outcome<Integer> outcome = LogDirTasks.runAll("closing", 1, tasks, "close a log");

        assertEquals(4, ran.get());
        assertEquals(List.of(2), outcome.results());
        assertEquals("first failure", outcome.failure().getMessage());
        Throwable[] suppressed = outcome.failure().getSuppressed();
        assertEquals(2, suppressed.length);
        assertEquals("second failure", suppressed[0].getMessage());
        assertEquals(
                "Failed to close a log: java.lang.IllegalStateException: not an I/O error", suppressed[1].getMessage());
        assertInstanceOf(IllegalStateException.class, suppressed[1].getCause());
        assertEquals(Set.of("closing-0"), threads);
    }
}
