package io.krabka.plugin.rsm.local;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Forces files and directory entries to disk, or does nothing when the operator chose speed over durability
 * ({@code fsync.enable=false}). A rename or unlink is durable only once its directory is forced.
 */
final class FileSync {
    /** Windows cannot open a directory as a channel; its file system orders metadata updates itself. */
    private static final boolean DIRECTORIES_SYNCABLE =
            !System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

    private final boolean enabled;

    FileSync(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * Forces several written files at once, each on a thread of its own: the file system then commits their
     * metadata together rather than once per file. Returns when every force has returned.
     *
     * @throws IOException the first failure, the others suppressed in it
     */
    void files(List<FileChannel> channels) throws IOException {
        if (!enabled || channels.isEmpty()) {
            return;
        }
        List<IOException> failures = new ArrayList<>();
        List<Thread> forcing = new ArrayList<>();
        for (FileChannel channel : channels.subList(1, channels.size())) {
            forcing.add(Thread.ofVirtual().name("rsm-local-force").start(() -> {
                try {
                    channel.force(true);
                } catch (IOException e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }));
        }
        try {
            channels.getFirst().force(true);
        } catch (IOException e) {
            synchronized (failures) {
                failures.add(e);
            }
        } finally {
            joinAll(forcing);
        }
        if (!failures.isEmpty()) {
            IOException first = failures.getFirst();
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }

    // Waits even when interrupted, so no force outlives the call; the interrupt is kept for the caller.
    private static void joinAll(List<Thread> threads) {
        boolean interrupted = false;
        for (Thread thread : threads) {
            while (true) {
                try {
                    thread.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Forces the entries of a directory: the files created, renamed or deleted in it. */
    void directory(Path directory) throws IOException {
        if (enabled && DIRECTORIES_SYNCABLE) {
            try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
                channel.force(true);
            }
        }
    }
}
