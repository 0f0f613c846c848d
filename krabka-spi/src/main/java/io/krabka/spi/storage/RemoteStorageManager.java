package io.krabka.spi.storage;

import io.krabka.spi.plugin.Configurable;
import java.io.Closeable;
import java.io.InputStream;
import java.util.Optional;

/**
 * Moves segments between the broker and a remote tier, in the shape of Kafka's {@code RemoteStorageManager}
 * (KIP-405). The broker calls it from its own threads, never from a network thread; an implementation must be
 * safe for concurrent calls about different segments.
 */
public interface RemoteStorageManager extends Configurable, Closeable {

    /**
     * Copies a rolled segment and its indexes to the remote tier. Every attempt, retries included, carries a new
     * {@link RemoteLogSegmentId}; a retry of the same id overwrites what an earlier attempt left rather than
     * failing. When this returns, everything is durably in the remote tier; when it throws, nothing that a later
     * fetch could mistake for a complete segment is left behind.
     *
     * @param remoteLogSegmentMetadata the segment's metadata, in state {@code COPY_SEGMENT_STARTED}
     * @param logSegmentData           the local files to copy
     * @return custom metadata to store with the segment, if the implementation needs any
     * @throws RemoteStorageException if the copy failed
     */
    Optional<CustomMetadata> copyLogSegmentData(
            RemoteLogSegmentMetadata remoteLogSegmentMetadata, LogSegmentData logSegmentData)
            throws RemoteStorageException;

    /**
     * Reads a remote segment from {@code startPosition}, inclusive, to its end. The caller closes the stream.
     *
     * @param remoteLogSegmentMetadata the segment's metadata, as the copy recorded it
     * @param startPosition            the byte position in the {@code .log} file to start at, at least 0
     * @return the segment's bytes from the position on
     * @throws RemoteResourceNotFoundException if the segment is not in the remote tier
     * @throws InvalidRangeException           if the position is negative or beyond the segment
     * @throws RemoteStorageException          if the read failed
     */
    InputStream fetchLogSegment(RemoteLogSegmentMetadata remoteLogSegmentMetadata, int startPosition)
            throws RemoteStorageException;

    /**
     * Reads a remote segment from {@code startPosition} to the smaller of {@code endPosition} and the segment's
     * last byte, both inclusive. The caller closes the stream.
     *
     * @param remoteLogSegmentMetadata the segment's metadata, as the copy recorded it
     * @param startPosition            the byte position in the {@code .log} file to start at, at least 0
     * @param endPosition              the last byte position wanted, at least {@code startPosition}
     * @return the segment's bytes of the range
     * @throws RemoteResourceNotFoundException if the segment is not in the remote tier
     * @throws InvalidRangeException           if a position is negative, the range is reversed, or it starts
     *                                         beyond the segment
     * @throws RemoteStorageException          if the read failed
     */
    InputStream fetchLogSegment(RemoteLogSegmentMetadata remoteLogSegmentMetadata, int startPosition, int endPosition)
            throws RemoteStorageException;

    /**
     * Reads one of a remote segment's indexes whole. The caller closes the stream.
     *
     * @param remoteLogSegmentMetadata the segment's metadata, as the copy recorded it
     * @param indexType                which of the segment's indexes to read
     * @return the index's bytes
     * @throws RemoteResourceNotFoundException if the index is not in the remote tier, as for the transaction
     *                                         index of a segment that has none
     * @throws RemoteStorageException          if the read failed
     */
    InputStream fetchIndex(RemoteLogSegmentMetadata remoteLogSegmentMetadata, IndexType indexType)
            throws RemoteStorageException;

    /**
     * Deletes a remote segment and its indexes. Deleting what is already gone succeeds: this never throws
     * {@link RemoteResourceNotFoundException}.
     *
     * @param remoteLogSegmentMetadata the segment's metadata, in state {@code DELETE_SEGMENT_STARTED}
     * @throws RemoteStorageException if the delete failed
     */
    void deleteLogSegmentData(RemoteLogSegmentMetadata remoteLogSegmentMetadata) throws RemoteStorageException;
}
