package io.krabka.plugin.rlmm.inmemory;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Replaces a file all at once: the content goes to a temporary file in the same directory, is forced to disk, and
 * is renamed over the target, after which the directory is forced too. A reader, or a crash, sees the old file or
 * the new one, never a part of one; a failed write leaves the old file as it was and no temporary file behind.
 */
final class AtomicFile {

    /** What to write. */
    @FunctionalInterface
    interface Content {
        /** Writes the content; the stream is flushed, forced and closed by the caller. */
        void writeTo(OutputStream out) throws IOException;
    }

    private AtomicFile() {}

    /** Writes {@code content} to {@code target}, replacing what was there. */
    static void write(Path target, Content content) throws IOException {
        Path file = target.toAbsolutePath();
        Path directory = file.getParent();
        Path temporary = Files.createTempFile(directory, "." + file.getFileName() + ".", ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE);
                    OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel))) {
                content.writeTo(out);
                out.flush();
                channel.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (Throwable failure) {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException cleanup) {
                failure.addSuppressed(cleanup);
            }
            throw failure;
        }
        // The rename is durable only once the directory entry is on disk.
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }
}
