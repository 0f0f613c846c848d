package io.krabka.bench;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Scratch directories for benchmarks, under {@code target/bench-scratch/} of the working directory: the disk the
 * build is on, which is the disk a broker beside it would use. {@code -Dkrabka.bench.scratch=<dir>} (through JMH's
 * {@code -jvmArgsAppend}) measures another disk.
 */
public final class Scratch {
    private static final Path ROOT = Path.of(System.getProperty("krabka.bench.scratch", "target/bench-scratch"));

    private Scratch() {}

    /** A new empty directory whose name starts with {@code prefix}. */
    public static Path create(String prefix) throws IOException {
        return Files.createTempDirectory(Files.createDirectories(ROOT), prefix).toAbsolutePath();
    }

    /** Deletes a directory and everything under it; nothing when it is gone already. */
    public static void delete(Path top) throws IOException {
        if (!Files.exists(top)) {
            return;
        }
        Files.walkFileTree(top, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path directory, IOException failure) throws IOException {
                if (failure != null) {
                    throw failure;
                }
                Files.delete(directory);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /**
     * Deletes every file under a directory and keeps the directories, each forced to disk after: what a tier's
     * deletes leave of its segments. For a store that deletes nothing, from outside it, so that the disk does not fill.
     */
    static void deleteFiles(Path top) throws IOException {
        if (!Files.exists(top)) {
            return;
        }
        Files.walkFileTree(top, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path directory, IOException failure) throws IOException {
                if (failure != null) {
                    throw failure;
                }
                // Forced here, outside the measured time, so the next operation does not pay for these deletes.
                try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
                    channel.force(true);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
