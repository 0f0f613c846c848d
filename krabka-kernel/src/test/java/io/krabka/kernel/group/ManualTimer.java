package io.krabka.kernel.group;

import java.time.Instant;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@link CoordinatorTimer} and clock the test drives: {@link #advance} moves the clock and runs the timers due, in
 * order, on the test's thread (the coordinator's lock is the test's: one thread).
 */
final class ManualTimer implements CoordinatorTimer, InstantSource {

    private record Pending(long dueMs, long sequence, Runnable task) {}

    private final Map<String, Pending> timers = new LinkedHashMap<>();
    private long nowMs = 1_700_000_000_000L;
    private long sequence;

    @Override
    public void schedule(String key, long delayMs, Runnable task) {
        timers.put(key, new Pending(nowMs + Math.max(0, delayMs), sequence++, task));
    }

    @Override
    public void cancel(String key) {
        timers.remove(key);
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(nowMs);
    }

    @Override
    public long millis() {
        return nowMs;
    }

    boolean isScheduled(String key) {
        return timers.containsKey(key);
    }

    /** Moves the clock by {@code ms}, running every timer due by then at its own time. */
    void advance(long ms) {
        long target = nowMs + ms;
        while (true) {
            Map.Entry<String, Pending> next = timers.entrySet().stream()
                    .filter(e -> e.getValue().dueMs() <= target)
                    .min(Comparator.comparingLong((Map.Entry<String, Pending> e) ->
                                    e.getValue().dueMs())
                            .thenComparingLong(e -> e.getValue().sequence()))
                    .orElse(null);
            if (next == null) {
                break;
            }
            timers.remove(next.getKey());
            nowMs = Math.max(nowMs, next.getValue().dueMs());
            next.getValue().task().run();
        }
        nowMs = target;
    }
}
