package io.krabka.kernel.tiered;

import io.krabka.kernel.record.CorruptRecordException;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.Records;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Reads a remote segment's batches in order from a position, through ranged fetches of at most {@code chunkBytes}
 * (or one batch, if larger): a read never asks the remote tier for the rest of a segment it will not use, and
 * never holds more than one batch in memory beyond what the caller keeps. Not thread-safe.
 */
final class RemoteSegmentCursor implements Closeable {

    private final RemoteStorageManager rsm;
    private final RemoteLogSegmentMetadata segment;
    private final int chunkBytes;
    private long position;
    private InputStream in;
    // The exclusive end of the bytes the open stream serves.
    private long streamEnd;

    /**
     * A cursor at {@code position} of {@code segment}.
     *
     * @param chunkBytes the most bytes one ranged fetch asks for when a batch is smaller, at least 1
     */
    RemoteSegmentCursor(RemoteStorageManager rsm, RemoteLogSegmentMetadata segment, int position, int chunkBytes) {
        if (position < 0 || chunkBytes < 1) {
            throw new IllegalArgumentException("position " + position + ", chunk " + chunkBytes);
        }
        this.rsm = rsm;
        this.segment = segment;
        this.chunkBytes = chunkBytes;
        this.position = position;
        this.streamEnd = position;
    }

    /** Where the next batch begins in the segment. */
    long position() {
        return position;
    }

    /**
     * The next batch, read whole; empty at the end of the segment, or when the batch is larger than
     * {@code maxSize} (then nothing more of it is fetched and the cursor stays before it).
     *
     * @throws CorruptRecordException if a batch's size is impossible or runs past the end of the segment
     * @throws RemoteStorageException if the remote tier failed
     * @throws IOException            if reading its stream failed
     */
    Optional<LogBatch> next(int maxSize) throws RemoteStorageException, IOException {
        long size = segment.segmentSizeInBytes();
        if (position + Records.LOG_OVERHEAD > size) {
            if (position < size) {
                throw corrupt(size - position + " bytes at the end of the segment, fewer than a batch header");
            }
            return Optional.empty();
        }
        if (position + Records.LOG_OVERHEAD > streamEnd) {
            open(Records.LOG_OVERHEAD);
        }
        byte[] header = in.readNBytes(Records.LOG_OVERHEAD);
        checkRead(header.length, Records.LOG_OVERHEAD);
        int length = ByteBuffer.wrap(header).getInt(Records.SIZE_OFFSET);
        int batchSize = Records.LOG_OVERHEAD + length;
        if (length < Records.MIN_SIZE_FIELD || position + batchSize > size) {
            throw corrupt("batch size field " + length + " at a segment of " + size + " bytes");
        }
        if (batchSize > maxSize) {
            close();
            return Optional.empty();
        }
        ByteBuffer batch = ByteBuffer.allocate(batchSize).put(header);
        if (position + batchSize > streamEnd) {
            // The batch runs past the open range: fetch it whole from its start.
            open(batchSize);
            checkRead(in.readNBytes(Records.LOG_OVERHEAD).length, Records.LOG_OVERHEAD);
        }
        byte[] body = in.readNBytes(length);
        checkRead(body.length, length);
        batch.put(body).flip();
        LogBatch read = Records.batchAt(batch, 0, source(), position);
        position += batchSize;
        return Optional.of(read);
    }

    // A ranged fetch from the position: the chunk, or at least `needed` bytes, within the segment.
    private void open(int needed) throws RemoteStorageException, IOException {
        close();
        long end = Math.min(segment.segmentSizeInBytes(), position + Math.max(chunkBytes, needed));
        in = rsm.fetchLogSegment(segment, (int) position, (int) end - 1);
        streamEnd = end;
    }

    private void checkRead(int read, int expected) {
        if (read != expected) {
            throw corrupt("the remote tier returned " + read + " bytes where " + expected + " were expected");
        }
    }

    private CorruptRecordException corrupt(String detail) {
        return new CorruptRecordException(source() + " at byte " + position + ": " + detail);
    }

    private String source() {
        return "remote segment " + segment.remoteLogSegmentId().id() + " of " + segment.topicIdPartition();
    }

    @Override
    public void close() throws IOException {
        if (in != null) {
            InputStream open = in;
            in = null;
            streamEnd = position;
            open.close();
        }
    }
}
