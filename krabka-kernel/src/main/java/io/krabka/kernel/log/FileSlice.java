package io.krabka.kernel.log;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;

/**
 * A region of a segment file holding whole batches, read without copying: what {@link FileRecords#slice} returns
 * and a fetch sends. {@link #transferTo} moves the bytes with {@link FileChannel#transferTo} (sendfile where the
 * target is a socket); a network layer wraps it in its own file region and must not close the channel, which
 * belongs to the segment.
 *
 * @param channel the segment file's channel
 * @param file    the file when the slice was taken, for messages
 * @param start   the region's first byte in the file
 * @param size    the region's length
 */
public record FileSlice(FileChannel channel, Path file, int start, int size) implements FetchRecords {

    /** Checks the region. */
    public FileSlice {
        if (start < 0 || size < 0 || start > Integer.MAX_VALUE - size) {
            throw new IllegalArgumentException("region [" + start + ", +" + size + ") out of range in " + file);
        }
    }

    @Override
    public int sizeInBytes() {
        return size;
    }

    /**
     * {@inheritDoc}
     *
     * @throws EOFException if the file no longer holds the region: it was truncated after the slice was taken
     */
    @Override
    public long transferTo(WritableByteChannel target, long position, long count) throws IOException {
        checkRange(position, count, size);
        long fileSize = channel.size();
        if (fileSize < (long) start + size) {
            throw new EOFException("Size of " + file + " has been truncated during write: the slice [" + start + ", +"
                    + size + ") ends past the file's " + fileSize + " bytes");
        }
        return channel.transferTo(start + position, Math.min(count, size - position), target);
    }

    /**
     * {@inheritDoc}
     *
     * @throws EOFException if the file ends before the region does: it was truncated after the slice was taken
     */
    @Override
    public int readInto(ByteBuffer buffer, int position) throws IOException {
        checkRange(position, 0, size);
        int n = Math.min(buffer.remaining(), size - position);
        ByteBuffer target = buffer.slice(buffer.position(), n);
        FileBatchCursor.readFully(channel, target, (long) start + position, file.toString());
        buffer.position(buffer.position() + n);
        return n;
    }

    /** Checks a position and count against the size of fetch records. */
    static void checkRange(long position, long count, int size) {
        if (position < 0 || position > size || count < 0) {
            throw new IllegalArgumentException(
                    "position " + position + " or count " + count + " out of range for " + size + " bytes");
        }
    }

    /** The batches of the region, by their headers; a batch running past its end is not returned. */
    public Iterable<FileChannelBatch> batches() {
        return () -> new FileBatchIterator(channel, file.toString(), start, start + size);
    }
}
