package io.krabka.launcher;

import io.krabka.archive.verify.VerifyProgress;
import java.io.PrintStream;
import java.util.Locale;

/**
 * A progress line for long runs, rewritten in place on a terminal (objects and bytes checked, rate) at most twice a
 * second; nothing when the output is not a terminal, so logs and pipes get the verdict alone.
 */
final class TerminalProgress implements VerifyProgress, AutoCloseable {
    private static final long INTERVAL_NANOS = 500_000_000L;

    private final PrintStream err;
    private final String command;
    private final boolean shown;
    private final long started = System.nanoTime();
    private long lastShown = started;
    private boolean printed;

    private TerminalProgress(PrintStream err, String command, boolean shown) {
        this.err = err;
        this.command = command;
        this.shown = shown;
    }

    /** Progress on {@code err} when the process runs on a terminal. */
    static TerminalProgress onTerminal(PrintStream err, String command) {
        return new TerminalProgress(
                err, command, System.console() != null && System.console().isTerminal());
    }

    @Override
    public synchronized void checked(long objectsChecked, long bytesChecked) {
        long now = System.nanoTime();
        if (!shown || now - lastShown < INTERVAL_NANOS) {
            return;
        }
        lastShown = now;
        printed = true;
        double seconds = (now - started) / 1e9;
        err.printf(
                Locale.ROOT,
                "\r%s: %,d objects, %s checked, %s/s   ",
                command,
                objectsChecked,
                bytes(bytesChecked),
                bytes((long) (bytesChecked / Math.max(seconds, 1e-3))));
        err.flush();
    }

    /** Ends the progress line, so the verdict starts on a line of its own. */
    @Override
    public synchronized void close() {
        if (printed) {
            err.println();
        }
    }

    /** {@code bytes} for a person: KiB, MiB or GiB. */
    static String bytes(long bytes) {
        if (bytes < 1 << 20) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        }
        if (bytes < 1L << 30) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
        }
        return String.format(Locale.ROOT, "%.2f GiB", bytes / (double) (1L << 30));
    }
}
