package io.krabka.testservers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real file system of a few MiB, a tmpfs mounted on a directory, for tests that fill a disk: writes to it fail with
 * "No space left on device" exactly as on a full disk. Mounting needs root, which these machines have; where it fails
 * the test fails or is skipped as {@link RequiredServers} says.
 */
public final class SmallFileSystem implements AutoCloseable {
    private static final String FILLER = "filler";
    private final Path root;

    private SmallFileSystem(Path root) {
        this.root = root;
    }

    /** Mounts a tmpfs of {@code bytes} (rounded up to pages by the kernel) on {@code dir}, an empty directory. */
    public static SmallFileSystem mount(Path dir, long bytes) {
        try {
            Files.createDirectories(dir);
            Process mount = new ProcessBuilder(
                            List.of("mount", "-t", "tmpfs", "-o", "size=" + bytes, "krabka-test", dir.toString()))
                    .redirectErrorStream(true)
                    .start();
            String output = new String(mount.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!mount.waitFor(30, TimeUnit.SECONDS) || mount.exitValue() != 0) {
                throw RequiredServers.missing(
                        "cannot mount a " + bytes + "-byte tmpfs on " + dir + " (it needs root): " + output);
            }
            return new SmallFileSystem(dir);
        } catch (IOException e) {
            throw RequiredServers.missing("cannot run mount: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while mounting " + dir, e);
        }
    }

    /** The mount point. */
    public Path root() {
        return root;
    }

    /** Fills the file system to its last page with a file of its own; {@link #free} deletes it again. */
    public void fill() throws IOException {
        ByteBuffer page = ByteBuffer.allocate(4096);
        try (FileChannel filler = FileChannel.open(
                root.resolve(FILLER), StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            while (true) {
                page.clear();
                filler.write(page);
            }
        } catch (IOException full) {
            if (!String.valueOf(full.getMessage()).contains("No space left")) {
                throw full;
            }
        }
    }

    /** Gives back the space {@link #fill} took. */
    public void free() throws IOException {
        Files.deleteIfExists(root.resolve(FILLER));
    }

    /** Unmounts it, lazily if a file on it is still open; what was on it is gone. */
    @Override
    public void close() {
        try {
            Process umount = new ProcessBuilder(List.of("umount", "-l", root.toString()))
                    .redirectErrorStream(true)
                    .start();
            umount.getInputStream().readAllBytes();
            umount.waitFor(30, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
