package io.krabka.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The restore's progress: plain lines in a log, one rewritten line with the time left on a terminal. */
class RestoreTerminalProgressTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final AtomicLong now = new AtomicLong();

    private RestoreTerminalProgress progress(boolean terminal) {
        return new RestoreTerminalProgress(new PrintStream(err, true, StandardCharsets.UTF_8), terminal, now::get);
    }

    @Test
    void offATerminalEveryPartitionDoneIsALine() {
        try (RestoreTerminalProgress progress = progress(false)) {
            progress.started(2, 4L << 20);
            progress.read(1L << 20);
            progress.partitionDone("orders-0");
        }
        assertEquals(
                List.of(
                        "krabka restore: 2 partitions, 4.0 MiB of segments to read",
                        "krabka restore: orders-0 done (1 of 2 partitions, 1.0 MiB of 4.0 MiB)"),
                err.toString(StandardCharsets.UTF_8).lines().toList());
    }

    @Test
    void onATerminalTheLineShowsTheRateAndTheTimeLeft() {
        try (RestoreTerminalProgress progress = progress(true)) {
            progress.started(2, 4L << 20);
            now.set(1_000_000_000L);
            progress.read(1L << 20);
        }
        String shown = err.toString(StandardCharsets.UTF_8);
        assertTrue(
                shown.startsWith("\rkrabka restore: 0/2 partitions, 1.0 MiB of 4.0 MiB, 1.0 MiB/s, 0:00:03 left"),
                shown);
        assertTrue(shown.endsWith(System.lineSeparator()), "the line is ended on close");
    }
}
