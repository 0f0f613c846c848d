package io.krabka.kernel.log;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A whole file mapped read-only into memory. Unlike a plain {@code MappedByteBuffer}, which stays mapped until the
 * garbage collector finds it, {@link #close()} unmaps it at once; a read after that fails with an
 * {@link IllegalStateException} instead of touching unmapped memory. Reads from many threads are safe; closing
 * while another thread reads is the caller's to prevent.
 */
public final class MappedFile implements AutoCloseable {

    private final Path path;
    private final Arena arena;
    private final ByteBuffer buffer;

    private MappedFile(Path path, Arena arena, ByteBuffer buffer) {
        this.path = path;
        this.arena = arena;
        this.buffer = buffer;
    }

    /**
     * Maps the whole file.
     *
     * @throws IOException if the file cannot be read, or is 2 GiB or larger (a {@link ByteBuffer} cannot
     *                     address it)
     */
    public static MappedFile open(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size > Integer.MAX_VALUE) {
                throw new IOException("cannot map " + path + ": " + size + " bytes is more than a buffer can address");
            }
            Arena arena = Arena.ofShared();
            try {
                MemorySegment segment = channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
                return new MappedFile(path, arena, segment.asByteBuffer().asReadOnlyBuffer());
            } catch (IOException | RuntimeException e) {
                arena.close();
                throw e;
            }
        }
    }

    /** The file this maps, under the name it had when mapped. */
    public Path path() {
        return path;
    }

    /** The file's bytes: a read-only buffer shared by all callers; use absolute reads or a duplicate. */
    public ByteBuffer buffer() {
        return buffer;
    }

    /** The file's size in bytes. */
    public int size() {
        return buffer.capacity();
    }

    /** Unmaps the file now. Idempotent. */
    @Override
    public synchronized void close() {
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
