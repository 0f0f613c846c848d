package io.krabka.kernel.scheduler;

import io.krabka.kernel.log.TestTime;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler on a {@link TestTime}: tasks run only when the test moves the clock with {@link #advance} (or calls
 * {@link #tick}), in the order they are due, on the test's thread. As Kafka's {@code MockScheduler}.
 */
public final class MockScheduler implements Scheduler {

    private final TestTime time;
    private final PriorityQueue<Task> tasks = new PriorityQueue<>();
    private long sequence;

    public MockScheduler(TestTime time) {
        this.time = time;
    }

    @Override
    public synchronized ScheduledFuture<?> schedule(String name, Runnable task, long delayMs, long periodMs) {
        Task scheduled = new Task(name, task, time.millis() + Math.max(0, delayMs), periodMs, sequence++);
        tasks.add(scheduled);
        return scheduled;
    }

    /** Moves the clock by {@code ms} and runs every task due by then. */
    public void advance(long ms) {
        time.sleep(ms);
        tick();
    }

    /** Runs every task due now, periodic ones again while due. */
    public void tick() {
        while (true) {
            Task due;
            synchronized (this) {
                due = tasks.peek();
                if (due == null || due.nextRun > time.millis()) {
                    return;
                }
                tasks.poll();
            }
            if (due.cancelled) {
                continue;
            }
            due.task.run();
            synchronized (this) {
                if (due.periodMs > 0 && !due.cancelled) {
                    due.nextRun += due.periodMs;
                    tasks.add(due);
                } else {
                    due.done = true;
                }
            }
        }
    }

    /** The names of the tasks waiting, soonest first. */
    public synchronized List<String> pending() {
        List<Task> sorted = new ArrayList<>(tasks);
        sorted.sort(null);
        return sorted.stream().filter(t -> !t.cancelled).map(t -> t.name).toList();
    }

    // A ScheduledFuture is a Delayed, compared with any other by delay, as the JDK's own are.
    @SuppressWarnings("ComparableType")
    private final class Task implements ScheduledFuture<Void>, Comparable<Delayed> {
        final String name;
        final Runnable task;
        final long periodMs;
        final long sequence;
        long nextRun;
        volatile boolean cancelled;
        volatile boolean done;

        Task(String name, Runnable task, long nextRun, long periodMs, long sequence) {
            this.name = name;
            this.task = task;
            this.nextRun = nextRun;
            this.periodMs = periodMs;
            this.sequence = sequence;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(nextRun - time.millis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            Task task = (Task) other;
            int byTime = Long.compare(nextRun, task.nextRun);
            return byTime != 0 ? byTime : Long.compare(sequence, task.sequence);
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            cancelled = true;
            return true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean isDone() {
            return done || cancelled;
        }

        @Override
        public Void get() {
            return null;
        }

        @Override
        public Void get(long timeout, TimeUnit unit) {
            return null;
        }
    }
}
