package io.krabka.kernel.log;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The file behind a {@link TransactionIndex}. As in Kafka, the file is made by the first append, not before, and
 * its channel is opened when first needed. Readers see only whole appends: they read up to the size the last
 * finished append left.
 */
final class TxnIndexFile {

    private volatile Path path;
    private volatile long size;
    private FileChannel channel;

    TxnIndexFile(Path path) throws IOException {
        this.path = path;
        this.size = Files.exists(path) ? Files.size(path) : 0;
    }

    Path path() {
        return path;
    }

    /** The bytes written. */
    long size() {
        return size;
    }

    /** The whole file, as far as finished appends go, in a new heap buffer. */
    ByteBuffer readAll() throws IOException {
        long length = size;
        if (length > Integer.MAX_VALUE) {
            throw new IOException("transaction index " + path + " of " + length + " bytes is too large to read");
        }
        ByteBuffer bytes = ByteBuffer.allocate((int) length);
        if (length > 0) {
            FileChannel readFrom = channel(false);
            while (bytes.hasRemaining() && readFrom != null) {
                if (readFrom.read(bytes, bytes.position()) < 0) {
                    break; // cut by a concurrent truncation: what was read is still whole entries up to there
                }
            }
        }
        return bytes.flip();
    }

    /** {@code length} bytes from {@code position}. */
    ByteBuffer read(long position, int length) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(length);
        FileChannel readFrom = channel(false);
        while (bytes.hasRemaining()) {
            if (readFrom == null || readFrom.read(bytes, position + bytes.position()) < 0) {
                throw new EOFException("transaction index " + path + " ends before byte " + (position + length));
            }
        }
        return bytes.flip();
    }

    /**
     * Writes the bytes at the end, making the file if needed. A write that fails part way (a full disk) has what it
     * wrote cut off again, so no torn entry stays for a later one to land behind.
     */
    synchronized void append(ByteBuffer bytes) throws IOException {
        int length = bytes.remaining();
        WholeWrites.append(channel(true), bytes, size);
        size += length;
    }

    /** Cuts the file to {@code newSize} bytes, if it exists. */
    synchronized void truncate(long newSize) throws IOException {
        FileChannel cut = channel(false);
        if (cut != null) {
            cut.truncate(newSize);
            size = Math.min(size, newSize);
        }
    }

    synchronized void flush() throws IOException {
        if (channel != null) {
            Fsync.force(channel, path);
        }
    }

    synchronized void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }

    /** Renames the file atomically, if it exists; the index follows the new name either way. */
    synchronized void renameTo(Path target) throws IOException {
        if (Files.exists(path)) {
            Files.move(path, target, StandardCopyOption.ATOMIC_MOVE);
        }
        path = target;
    }

    synchronized void updateParentDir(Path parentDir) {
        path = parentDir.resolve(path.getFileName());
    }

    synchronized boolean deleteIfExists() throws IOException {
        close();
        size = 0;
        return Files.deleteIfExists(path);
    }

    private synchronized FileChannel channel(boolean create) throws IOException {
        if (channel == null || !channel.isOpen()) {
            if (!create && !Files.exists(path)) {
                return null;
            }
            channel = FileChannel.open(
                    path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            size = channel.size();
        }
        return channel;
    }
}
