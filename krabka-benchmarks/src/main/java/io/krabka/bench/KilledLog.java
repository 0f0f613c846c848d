package io.krabka.bench;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

/**
 * One side's log, written by a child JVM killed with SIGKILL ({@link KilledLogWriter}), and its recovery: each
 * {@link #recover} opens a fresh copy as a broker opens a log after an unclean shutdown and checks that the log
 * really was recovered.
 */
abstract class KilledLog {
    private static final String PARTITION = "bench-0";

    private final String side;
    private final Path directory;
    private final Path written;
    final long acked;

    /** Has a child JVM of {@code side} ({@code krabka} or {@code kafka}) write the log under {@code directory}. */
    KilledLog(String side, Path directory) throws IOException, InterruptedException {
        this.side = side;
        this.directory = Files.createDirectories(directory.resolve(side));
        this.written = this.directory.resolve("killed").resolve(PARTITION);
        this.acked = KilledLogWriter.writeAndKill(side, written);
    }

    /** The side's name. */
    String side() {
        return side;
    }

    /**
     * Copies the killed log and forces the copy to disk (so the page cache holds it, as after a {@code kill -9} of
     * the broker alone, and no writeback runs meanwhile), then opens the copy with recovery from offset 0, checks
     * it and deletes it.
     *
     * @return the nanoseconds the open took, the copy and the check left out
     * @throws IllegalStateException if the log was not recovered whole
     */
    long recover() throws IOException, InterruptedException {
        Path copy = Files.createDirectories(
                Files.createTempDirectory(directory, "copy-").resolve(PARTITION));
        try (Stream<Path> files = Files.list(written)) {
            for (Path file : files.toList()) {
                Path target = Files.copy(file, copy.resolve(file.getFileName()));
                try (FileChannel channel = FileChannel.open(target, StandardOpenOption.WRITE)) {
                    channel.force(true);
                }
            }
        }
        long start = System.nanoTime();
        open(copy);
        long took = System.nanoTime() - start;
        checkAndDelete();
        Scratch.delete(copy.getParent());
        return took;
    }

    /** Opens the log in {@code dir} after an unclean shutdown, recovery point 0. */
    abstract void open(Path dir) throws IOException;

    /**
     * Checks the log just opened with {@link #check} and deletes it.
     *
     * @throws IllegalStateException if the log was not recovered whole
     */
    abstract void checkAndDelete() throws IOException, InterruptedException;

    /**
     * Checks a recovered log: its end offset is the one acknowledged before the kill, the producer's last offset
     * the last record's, and the log's own account says it recovered each of its segments.
     *
     * @param everySegment whether the log's account says so
     * @param account      that account, for the message
     */
    void check(long logEndOffset, long lastDataOffset, boolean everySegment, String account) {
        if (logEndOffset != acked || lastDataOffset != acked - 1 || !everySegment) {
            throw new IllegalStateException(side + " did not recover the log killed at offset " + acked
                    + ": log end offset " + logEndOffset + ", the producer's last offset " + lastDataOffset + ", "
                    + account);
        }
    }
}
