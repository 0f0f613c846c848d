package io.krabka.kernel.log;

import io.krabka.kernel.record.LegacyRecordBatch;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.RecordCursor;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A segment's {@code .log} file, Kafka's {@code FileRecords}: batches laid end to end, appended in place.
 *
 * <p>One writer (the log, under its lock) appends, truncates and renames; any number of readers slice, iterate
 * and search without a lock. The size is published after the bytes are written, and readers never read past
 * the size they saw, so a reader sees only whole batches. Appends write at the published size, so the bytes of
 * a failed write are overwritten by the next one.
 */
public final class FileRecords implements Closeable {

    private final FileChannel channel;
    private volatile int size;
    private volatile Path file;

    private FileRecords(Path file, FileChannel channel, int end) throws IOException {
        long channelSize = channel.size();
        if (channelSize > Integer.MAX_VALUE) {
            throw new IOException("The size of segment " + file + " (" + channelSize
                    + ") is larger than the maximum allowed segment size of " + Integer.MAX_VALUE);
        }
        this.file = file;
        this.channel = channel;
        this.size = (int) Math.min(channelSize, end);
    }

    /**
     * Opens a segment file, as Kafka's {@code FileRecords.open(file, fileAlreadyExists, initFileSize, preallocate)}.
     * A new preallocated file is extended to {@code initFileSize} bytes and counts as empty; otherwise the file is
     * created if missing and all its bytes count, so an existing preallocated file that was never trimmed shows its
     * zeros (recovery truncates them).
     */
    public static FileRecords open(Path file, boolean fileAlreadyExists, int initFileSize, boolean preallocate)
            throws IOException {
        if (initFileSize < 0) {
            throw new IllegalArgumentException("negative initial file size " + initFileSize + " for " + file);
        }
        boolean preallocateNew = preallocate && !fileAlreadyExists;
        FileChannel channel =
                FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            if (preallocateNew) {
                setLength(channel, initFileSize);
            }
            return new FileRecords(file, channel, preallocateNew ? 0 : Integer.MAX_VALUE);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Opens or creates a file without preallocation; all its bytes count. */
    public static FileRecords open(Path file) throws IOException {
        return open(file, false, 0, false);
    }

    private static void setLength(FileChannel channel, int length) throws IOException {
        if (channel.size() > length) {
            channel.truncate(length);
        } else if (channel.size() < length) {
            channel.write(ByteBuffer.allocate(1), length - 1L);
        }
    }

    /** The bytes of the whole batches appended: what readers may read. */
    public int sizeInBytes() {
        return size;
    }

    /** The file, under its current name. */
    public Path file() {
        return file;
    }

    /** The file's channel, for positional reads; closing it is {@link #close()}'s job. */
    public FileChannel channel() {
        return channel;
    }

    /**
     * Appends the bytes from the buffer's position to its limit (the buffer is not moved); readers see them once
     * all are written. A write that fails part way (a full disk) leaves the size as it was, and the file's bytes
     * beyond it are cut off before the exception leaves (where that fails, {@link #truncateTo} cuts them later).
     *
     * @return the number of bytes written
     * @throws IllegalArgumentException if the file would grow past {@link Integer#MAX_VALUE} bytes
     */
    public int append(ByteBuffer records) throws IOException {
        int current = size;
        int bytes = records.remaining();
        if (bytes > Integer.MAX_VALUE - current) {
            throw new IllegalArgumentException("Append of size " + bytes + " bytes is too large for segment " + file
                    + " with current file position at " + current);
        }
        WholeWrites.append(channel, records.duplicate(), current);
        size = current + bytes;
        return bytes;
    }

    /** Appends the batches' bytes; see {@link #append(ByteBuffer)}. */
    public int append(MemoryRecords records) throws IOException {
        return append(records.buffer());
    }

    /**
     * Copies bytes from {@code position} into {@code buffer}: as many as it has room for or the file holds.
     *
     * @return the number of bytes copied
     */
    public int readInto(ByteBuffer buffer, int position) throws IOException {
        return slice(position, buffer.remaining()).readInto(buffer, 0);
    }

    /**
     * The region of {@code size} bytes from {@code position}, cut at the end of the file, as Kafka's
     * {@code slice}. {@code position} must be a batch boundary for the slice to hold whole batches.
     *
     * @throws IllegalArgumentException if {@code position} is negative or past the end, or {@code size} negative
     */
    public FileSlice slice(int position, int size) {
        int current = sizeInBytes();
        if (position < 0 || position > current || size < 0) {
            throw new IllegalArgumentException(
                    "Invalid slice of " + size + " bytes from position " + position + " of " + this);
        }
        return new FileSlice(channel, file, position, Math.min(size, current - position));
    }

    /** The batches from the start, by their headers, up to the size when iteration starts. */
    public Iterable<FileChannelBatch> batches() {
        return batchesFrom(0);
    }

    /**
     * The batches from {@code start}, which must be a batch boundary, by their headers, up to the size when
     * iteration starts.
     */
    public Iterable<FileChannelBatch> batchesFrom(int start) {
        return () -> new FileBatchIterator(channel, file.toString(), start, sizeInBytes());
    }

    /** A cursor over the batches from {@code start} to the current size. */
    FileBatchCursor cursor(int start) {
        return new FileBatchCursor(channel, file.toString(), start, sizeInBytes());
    }

    /**
     * The first batch from {@code startingPosition} whose last offset is at or above {@code targetOffset}: the batch
     * holding it, or the one after the gap where it would be. Reads headers only, allocating nothing per batch.
     *
     * @return the batch's base offset, position and size; empty if every batch ends below the target
     */
    public Optional<LogOffsetPosition> searchForOffsetFromPosition(long targetOffset, int startingPosition)
            throws IOException {
        FileBatchCursor cursor = cursor(startingPosition);
        while (cursor.next()) {
            if (cursor.lastOffset() >= targetOffset) {
                long baseOffset = cursor.isCompressedLegacy() ? cursor.batch().baseOffset() : cursor.offsetField();
                return Optional.of(new LogOffsetPosition(baseOffset, cursor.position(), cursor.sizeInBytes()));
            }
        }
        return Optional.empty();
    }

    /**
     * The first record from {@code startingPosition} whose timestamp is at or above {@code targetTimestamp} and
     * whose offset is at or above {@code startingOffset}, as Kafka's {@code searchForTimestamp}. Batches whose max
     * timestamp is below the target are skipped by their headers.
     *
     * @param maxDecompressedBytes the bound on the bytes a compressed batch may decompress to
     */
    public Optional<TimestampAndOffset> searchForTimestamp(
            long targetTimestamp, int startingPosition, long startingOffset, long maxDecompressedBytes)
            throws IOException {
        FileBatchCursor cursor = cursor(startingPosition);
        while (cursor.next()) {
            if (cursor.maxTimestamp() >= targetTimestamp) {
                LogBatch batch = cursor.load();
                Optional<TimestampAndOffset> found = search(
                        batch,
                        targetTimestamp,
                        startingOffset,
                        maxDecompressedBytes,
                        leaderEpoch(cursor.partitionLeaderEpoch()));
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<TimestampAndOffset> search(
            LogBatch batch, long targetTimestamp, long startingOffset, long bound, OptionalInt epoch) {
        switch (batch) {
            case RecordBatch v2 -> {
                try (RecordCursor records = v2.cursor(bound)) {
                    while (records.next()) {
                        if (records.timestamp() >= targetTimestamp && records.offset() >= startingOffset) {
                            return Optional.of(new TimestampAndOffset(records.timestamp(), records.offset(), epoch));
                        }
                    }
                }
            }
            case LegacyRecordBatch legacy -> {
                for (Record record : legacy.records(bound)) {
                    if (record.timestamp() >= targetTimestamp && record.offset() >= startingOffset) {
                        return Optional.of(new TimestampAndOffset(record.timestamp(), record.offset(), epoch));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The largest batch max timestamp from {@code startingPosition} on, with the last offset and leader epoch of
     * its batch, as Kafka's {@code largestTimestampAfter}; (-1, -1, none) when no batch has a timestamp.
     */
    public TimestampAndOffset largestTimestampAfter(int startingPosition) throws IOException {
        long maxTimestamp = RecordBatch.NO_TIMESTAMP;
        long offset = -1L;
        int epoch = RecordBatch.NO_PARTITION_LEADER_EPOCH;
        FileBatchCursor cursor = cursor(startingPosition);
        while (cursor.next()) {
            if (cursor.maxTimestamp() > maxTimestamp) {
                maxTimestamp = cursor.maxTimestamp();
                offset = cursor.lastOffset();
                epoch = cursor.partitionLeaderEpoch();
            }
        }
        return new TimestampAndOffset(maxTimestamp, offset, leaderEpoch(epoch));
    }

    private static OptionalInt leaderEpoch(int epoch) {
        return epoch == RecordBatch.NO_PARTITION_LEADER_EPOCH ? OptionalInt.empty() : OptionalInt.of(epoch);
    }

    /**
     * Cuts the file to {@code targetSize} bytes, which need not be a batch boundary. Readers stop seeing the cut
     * bytes before they are removed. The file is truncated only if longer (truncating to the same length changes
     * its modification time on some platforms), which also trims a preallocated file.
     *
     * @return the number of bytes cut from what readers saw
     * @throws IllegalArgumentException if {@code targetSize} is negative or above the current size
     */
    public int truncateTo(int targetSize) throws IOException {
        int originalSize = size;
        if (targetSize > originalSize || targetSize < 0) {
            throw new IllegalArgumentException("Attempt to truncate log segment " + file + " to " + targetSize
                    + " bytes failed, size of this log segment is " + originalSize + " bytes.");
        }
        if (targetSize < channel.size()) {
            size = targetSize;
            channel.truncate(targetSize);
        }
        return originalSize - targetSize;
    }

    /** Writes the appended bytes to the storage device. */
    public void flush() throws IOException {
        Fsync.force(channel, file());
    }

    /** Cuts a preallocated file to its appended bytes: done when the segment rolls or closes. */
    public void trim() throws IOException {
        truncateTo(sizeInBytes());
    }

    /** Closes the channel; the caller flushes and trims first. */
    @Override
    public void close() throws IOException {
        channel.close();
    }

    /** Closes the channel and deletes the file; false if it did not exist. */
    public boolean deleteIfExists() throws IOException {
        close();
        return Files.deleteIfExists(file);
    }

    /** Renames the file atomically, e.g. to its {@code .deleted} name; the records stay readable. */
    public void renameTo(Path target) throws IOException {
        Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
        file = target;
    }

    /** Follows a rename of the directory the file is in; the channel stays open. */
    public void updateParentDir(Path parentDir) {
        file = parentDir.resolve(file.getFileName());
    }

    @Override
    public String toString() {
        return "FileRecords(size=" + sizeInBytes() + ", file=" + file + ")";
    }
}
