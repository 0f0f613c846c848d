package io.krabka.kernel.log;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A whole file mapped into memory. Unlike a plain {@code MappedByteBuffer}, which stays mapped until the garbage
 * collector finds it, {@link #close()} unmaps it at once; a read after that fails with an
 * {@link IllegalStateException} instead of touching unmapped memory. Reads from many threads are safe; closing
 * while another thread reads is the caller's to prevent.
 */
public final class MappedFile implements AutoCloseable {

    private final Path path;
    private final Arena arena;
    private final MemorySegment segment;
    private final ByteBuffer buffer;

    private MappedFile(Path path, Arena arena, MemorySegment segment, boolean writable) {
        this.path = path;
        this.arena = arena;
        this.segment = segment;
        ByteBuffer view = segment.asByteBuffer();
        this.buffer = writable ? view : view.asReadOnlyBuffer();
    }

    /**
     * Maps the whole file, read-only.
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
            return map(path, channel, FileChannel.MapMode.READ_ONLY, size);
        }
    }

    /**
     * Sets an existing file's length to {@code size}, cutting it or growing it with zeros (sparse where the file
     * system allows), and maps it read-write.
     *
     * @throws java.nio.file.NoSuchFileException if the file does not exist
     */
    public static MappedFile openReadWrite(Path path, int size) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("negative size " + size + " for " + path);
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (channel.size() > size) {
                channel.truncate(size);
            }
            // A read-write mapping beyond the end grows the file to the mapped size.
            return map(path, channel, FileChannel.MapMode.READ_WRITE, size);
        }
    }

    // The mapping lives as long as its arena, which the MappedFile owns and closes.
    @SuppressWarnings("MustBeClosedChecker")
    private static MappedFile map(Path path, FileChannel channel, FileChannel.MapMode mode, long size)
            throws IOException {
        Arena arena = Arena.ofShared();
        try {
            MemorySegment segment = channel.map(mode, 0, size, arena);
            return new MappedFile(path, arena, segment, mode == FileChannel.MapMode.READ_WRITE);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** The file this maps, under the name it had when mapped. */
    public Path path() {
        return path;
    }

    /**
     * The file's bytes: one buffer shared by all callers, read-only unless mapped by {@link #openReadWrite}; use
     * absolute reads and writes, or a duplicate.
     */
    public ByteBuffer buffer() {
        return buffer;
    }

    /** The file's size in bytes. */
    public int size() {
        return buffer.capacity();
    }

    /** Writes changed pages of a read-write mapping to the storage device; a read-only mapping has none. */
    public void force() {
        if (!buffer.isReadOnly()) {
            Fsync.force(segment, path);
        }
    }

    /** Unmaps the file now. Idempotent. */
    @Override
    public synchronized void close() {
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
