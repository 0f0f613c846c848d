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
 * go to {@code <name>.tmp}, which is synced, renamed over the file, and the directory synced so the rename
 * lasts. Kafka's checkpoint files are written this way.
 */
public final class AtomicFileWriter {

    /** What Kafka appends to a checkpoint's name while writing it. */
    public static final String TEMP_FILE_SUFFIX = ".tmp";

    private AtomicFileWriter() {}

    /** Replaces {@code file}'s content with {@code content}, durably. */
    public static void write(Path file, byte[] content) throws IOException {
        Path temp = file.resolveSibling(file.getFileName() + TEMP_FILE_SUFFIX);
        try {
            try (FileChannel channel = FileChannel.open(
                    temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer bytes = ByteBuffer.wrap(content);
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                Fsync.force(channel, temp);
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        Fsync.forceDirectory(file.toAbsolutePath().getParent());
    }
}
