package io.krabka.kernel.restore.materialize;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * Forces a written tree to disk at once: the restore writes every file without forcing it, then forces them all,
 * several at a time, before anything is moved into place, so the disk's queue stays full and no partition's
 * thread waits on its own files while it could be writing.
 */
public final class Fsync {

    private Fsync() {}

    /**
     * Forces every file under {@code root} on {@code pool}, then every directory, deepest first.
     *
     * @throws IOException if a file cannot be forced
     */
    public static void tree(Path root, ExecutorService pool) throws IOException {
        List<Path> files;
        List<Path> dirs;
        try (Stream<Path> all = Files.walk(root)) {
            List<Path> paths = all.toList();
            files = paths.stream().filter(Files::isRegularFile).toList();
            dirs = paths.stream()
                    .filter(Files::isDirectory)
                    .sorted((a, b) -> b.getNameCount() - a.getNameCount())
                    .toList();
        }
        List<Future<?>> forced = new ArrayList<>();
        for (Path file : files) {
            forced.add(pool.submit(() -> {
                force(file, StandardOpenOption.WRITE);
                return null;
            }));
        }
        for (Future<?> future : forced) {
            try {
                future.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while forcing " + root);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                throw new IOException("forcing " + root + " failed: " + e.getCause(), e.getCause());
            }
        }
        for (Path dir : dirs) {
            force(dir, StandardOpenOption.READ);
        }
    }

    /** Forces one file or directory. */
    public static void force(Path path, StandardOpenOption mode) throws IOException {
        try (FileChannel channel = FileChannel.open(path, mode)) {
            channel.force(true);
        }
    }
}
