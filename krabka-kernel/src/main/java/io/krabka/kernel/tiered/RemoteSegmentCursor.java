package io.krabka.kernel.tiered;

import io.krabka.kernel.record.CorruptRecordException;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.Records;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Reads a remote segment's batches in order from a position, through ranged fetches of at most {@code chunkBytes}
 * (or one batch, if larger), each read whole into one buffer that the batches returned are views of: a read never
 * asks the remote tier for the rest of a segment it will not use, copies each byte once, and holds one chunk in
 * memory beyond what the caller keeps. Not thread-safe.
 */
final class RemoteSegmentCursor {

    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

    private final RemoteStorageManager rsm;
    private final RemoteLogSegmentMetadata segment;
    private final int chunkBytes;
    private long position;
    // The bytes of the last ranged fetch, from chunkStart of the segment.
    private ByteBuffer chunk = NOTHING;
    private long chunkStart;

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
        this.chunkStart = position;
    }

    /** Where the next batch begins in the segment. */
    long position() {
        return position;
    }

    /**
     * The next batch, read whole; empty at the end of the segment, or when the batch is larger than
     * {@code maxSize} (then nothing more of it is fetched and the cursor stays before it). The batch is a view of
     * the cursor's current chunk.
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
        // A fetch bounded by what the caller can still take: the rest of a chunk it cannot use is never read.
        int wanted = Math.min(chunkBytes, maxSize);
        if (position + Records.LOG_OVERHEAD > chunkEnd()) {
            fetch(Math.max(Records.LOG_OVERHEAD, wanted));
        }
        int length = chunk.getInt(offsetInChunk() + Records.SIZE_OFFSET);
        int batchSize = Records.LOG_OVERHEAD + length;
        if (length < Records.MIN_SIZE_FIELD || position + batchSize > size) {
            throw corrupt("batch size field " + length + " at a segment of " + size + " bytes");
        }
        if (batchSize > maxSize) {
            return Optional.empty();
        }
        if (position + batchSize > chunkEnd()) {
            // The batch runs past the fetched range: fetch it whole from its start.
            fetch(Math.max(batchSize, wanted));
        }
        LogBatch read = Records.batchAt(chunk, offsetInChunk(), source(), position);
        position += batchSize;
        return Optional.of(read);
    }

    /**
     * The bytes from {@code from} to the cursor's position as one view, when the current chunk holds them all
     * (the batches read since {@code from} then lie in it one after another); otherwise empty.
     */
    Optional<ByteBuffer> bytesSince(long from) {
        if (from < chunkStart || position > chunkEnd() || from > position) {
            return Optional.empty();
        }
        return Optional.of(chunk.slice((int) (from - chunkStart), (int) (position - from)));
    }

    // A ranged fetch from the position of `length` bytes, within the segment, read whole.
    private void fetch(int length) throws RemoteStorageException, IOException {
        long end = Math.min(segment.segmentSizeInBytes(), position + length);
        int bytes = (int) (end - position);
        byte[] buffer = new byte[bytes];
        try (InputStream in = rsm.fetchLogSegment(segment, (int) position, (int) end - 1)) {
            int read = in.readNBytes(buffer, 0, bytes);
            if (read != bytes) {
                throw corrupt("the remote tier returned " + read + " bytes where " + bytes + " were expected");
            }
        }
        chunk = ByteBuffer.wrap(buffer);
        chunkStart = position;
    }

    private long chunkEnd() {
        return chunkStart + chunk.limit();
    }

    private int offsetInChunk() {
        return (int) (position - chunkStart);
    }

    private CorruptRecordException corrupt(String detail) {
        return new CorruptRecordException(source() + " at byte " + position + ": " + detail);
    }

    private String source() {
        return "remote segment " + segment.remoteLogSegmentId().id() + " of " + segment.topicIdPartition();
    }
}
