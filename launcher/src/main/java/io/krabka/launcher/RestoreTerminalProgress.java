package io.krabka.launcher;

import io.krabka.kernel.restore.RestoreProgress;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * {@code krabka restore}'s progress on standard error. On a terminal, one line rewritten in place at most twice a
 * second: partitions and bytes done, the read rate and the time left at that rate. Otherwise (a log, a pipe) a plain
 * line when the restore starts and one per partition done, so a log shows how far a long restore got.
 */
final class RestoreTerminalProgress implements RestoreProgress, AutoCloseable {
    private static final long INTERVAL_NANOS = 500_000_000L;

    private final PrintStream err;
    private final boolean terminal;
    private final LongSupplier nanoTime;
    private final long started;
    private long lastShown;
    private boolean rewriting;
    private int partitions;
    private int partitionsDone;
    private long bytes;
    private long bytesRead;

    RestoreTerminalProgress(PrintStream err, boolean terminal, LongSupplier nanoTime) {
        this.err = err;
        this.terminal = terminal;
        this.nanoTime = nanoTime;
        this.started = nanoTime.getAsLong();
        this.lastShown = started;
    }

    /** Progress on {@code err}, rewritten in place when the process runs on a terminal. */
    static RestoreTerminalProgress on(PrintStream err) {
        return new RestoreTerminalProgress(
                err, System.console() != null && System.console().isTerminal(), System::nanoTime);
    }

    @Override
    public synchronized void started(int partitions, long bytes) {
        this.partitions = partitions;
        this.bytes = bytes;
        if (!terminal) {
            err.printf(
                    Locale.ROOT,
                    "krabka restore: %,d partition%s, %s of segments to read%n",
                    partitions,
                    partitions == 1 ? "" : "s",
                    TerminalProgress.bytes(bytes));
        }
    }

    @Override
    public synchronized void read(long bytes) {
        bytesRead += bytes;
        show(false);
    }

    @Override
    public synchronized void partitionDone(String directory) {
        partitionsDone++;
        if (terminal) {
            show(true);
        } else {
            err.printf(
                    Locale.ROOT,
                    "krabka restore: %s done (%,d of %,d partitions, %s of %s)%n",
                    directory,
                    partitionsDone,
                    partitions,
                    TerminalProgress.bytes(bytesRead),
                    TerminalProgress.bytes(bytes));
        }
    }

    private void show(boolean now) {
        long at = nanoTime.getAsLong();
        if (!terminal || (!now && at - lastShown < INTERVAL_NANOS)) {
            return;
        }
        lastShown = at;
        rewriting = true;
        double rate = bytesRead / Math.max((at - started) / 1e9, 1e-3);
        err.printf(
                Locale.ROOT,
                "\rkrabka restore: %,d/%,d partitions, %s of %s, %s/s, %s left   ",
                partitionsDone,
                partitions,
                TerminalProgress.bytes(bytesRead),
                TerminalProgress.bytes(bytes),
                TerminalProgress.bytes((long) rate),
                timeLeft(rate));
        err.flush();
    }

    private String timeLeft(double rate) {
        if (rate <= 0) {
            return "unknown time";
        }
        Duration left = Duration.ofSeconds((long) Math.ceil(Math.max(bytes - bytesRead, 0) / rate));
        return String.format(Locale.ROOT, "%d:%02d:%02d", left.toHours(), left.toMinutesPart(), left.toSecondsPart());
    }

    /** Ends the rewritten line, so what follows starts on a line of its own. */
    @Override
    public synchronized void close() {
        if (rewriting) {
            err.println();
        }
    }
}
