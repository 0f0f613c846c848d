package io.krabka.kernel.log.checkpoint;

import io.krabka.kernel.log.Fsync;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Replaces a file's content so that a crash leaves either the old file or the new one, never a part: the bytes
 * go to a temporary file, which is synced, renamed over the file, and the directory synced so the rename lasts.
 * Kafka's checkpoint files are written this way (through {@code <name>.tmp}), and so are producer snapshots and the
 * bootstrap snapshot, each through the temporary name Kafka gives it. The one writer of whole files in the kernel.
 */
public final class AtomicFileWriter {

    /** What Kafka appends to a checkpoint's name while writing it. */
    public static final String TEMP_FILE_SUFFIX = ".tmp";

    private AtomicFileWriter() {}

    /** Replaces {@code file}'s content with {@code content}, durably, through {@code <name>.tmp}. */
    public static void write(Path file, byte[] content) throws IOException {
        write(file, file.resolveSibling(file.getFileName() + TEMP_FILE_SUFFIX), ByteBuffer.wrap(content), true);
    }

    /**
     * Replaces {@code file}'s content with {@code content} through {@code temp}, which is left nowhere: renamed
     * over the file, or deleted when a step fails. With {@code sync}, the temporary file and then the directory are
     * forced to disk; without, a process crash still leaves the old file or the whole new one, but a power loss may
     * leave a new file that is not whole.
     */
    public static void write(Path file, Path temp, ByteBuffer content, boolean sync) throws IOException {
        try {
            try (FileChannel channel = FileChannel.open(
                    temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer bytes = content.duplicate();
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                if (sync) {
                    Fsync.force(channel, temp);
                }
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        if (sync) {
            Fsync.forceDirectory(file.toAbsolutePath().getParent());
        }
    }
}
