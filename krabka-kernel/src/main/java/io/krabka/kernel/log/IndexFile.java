package io.krabka.kernel.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The file behind an {@link AbstractIndex}: its name, its mapping and its length. Knows nothing of entries; the
 * index serializes every call that changes it.
 */
final class IndexFile {
    /** The smallest page of the mappings on the machines Krabka runs on. */
    private static final int PAGE = 4096;

    private final boolean writable;
    private final boolean created;
    private volatile Path path;
    private volatile MappedFile mapping;

    private IndexFile(Path path, boolean writable, boolean created, MappedFile mapping) {
        this.path = path;
        this.writable = writable;
        this.created = created;
        this.mapping = mapping;
    }

    /**
     * Maps an index file. A writable index whose file does not exist gets a new one of {@code preallocatedSize}
     * bytes; an existing file is mapped at its length, as Kafka does, and a read-only one must exist.
     *
     * @throws java.nio.file.NoSuchFileException if a read-only index's file does not exist
     */
    static IndexFile open(Path path, int preallocatedSize, boolean writable) throws IOException {
        if (!writable) {
            return new IndexFile(path, false, false, MappedFile.open(path));
        }
        boolean created;
        try {
            Files.createFile(path);
            created = true;
        } catch (FileAlreadyExistsException e) {
            created = false;
        }
        long length = created ? preallocatedSize : Files.size(path);
        if (length > Integer.MAX_VALUE) {
            throw new IOException("cannot map " + path + ": " + length + " bytes is more than a buffer can address");
        }
        try {
            return new IndexFile(path, true, created, MappedFile.openReadWrite(path, (int) length));
        } catch (IOException | RuntimeException e) {
            if (created) {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException cleanup) {
                    e.addSuppressed(cleanup);
                }
            }
            throw e;
        }
    }

    /** Whether {@link #open} made the file. */
    boolean created() {
        return created;
    }

    boolean writable() {
        return writable;
    }

    Path path() {
        return path;
    }

    /** The mapped bytes, the whole file. */
    ByteBuffer buffer() {
        return mapping.buffer();
    }

    /** The file's length, as mapped. */
    int length() {
        return mapping.size();
    }

    /**
     * Sets the file's length and maps it again. The old mapping is closed first, so no read through it can reach
     * past the file's new end; if the new mapping fails, there is none. The caller keeps its lock-taking readers
     * out until this returns.
     */
    ByteBuffer resize(int newLength) throws IOException {
        mapping.close();
        mapping = MappedFile.openReadWrite(path, newLength);
        return mapping.buffer();
    }

    void force() {
        mapping.force();
    }

    /**
     * Gives the file real blocks for every page that starts in [{@code position}, {@code position + size}), by
     * writing the zeros it reads as already: a new index is a sparse file, and writing to a page of its mapping that
     * the disk has no room for raises SIGBUS, which the JVM turns into an {@link InternalError} at no fixed point.
     * Written through a channel instead, a full disk is an {@link IOException} here, before the mapping is touched.
     * The pages start at or after the end of the entries, so nothing written is lost.
     */
    void reserve(int position, int size) throws IOException {
        int firstPage = (position + PAGE - 1) / PAGE * PAGE;
        int end = Math.min(position + size, length());
        if (firstPage >= end) {
            return;
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            for (int page = firstPage; page < end; page += PAGE) {
                ByteBuffer zeros = ByteBuffer.allocate(Math.min(PAGE, length() - page));
                while (zeros.hasRemaining()) {
                    channel.write(zeros, page + zeros.position());
                }
            }
        }
    }

    /** Unmaps the file. Idempotent. */
    void unmap() {
        mapping.close();
    }

    /** Renames the file atomically; the mapping stays valid. */
    void renameTo(Path target) throws IOException {
        Files.move(path, target, StandardCopyOption.ATOMIC_MOVE);
        path = target;
    }

    /** Follows a rename of the directory the file is in. */
    void updateParentDir(Path parentDir) {
        path = parentDir.resolve(path.getFileName());
    }
}
