package io.krabka.spi.storage;

import io.krabka.spi.plugin.Configurable;
import java.io.Closeable;
import java.io.InputStream;
import java.util.Optional;

/**
 * Moves segments between the broker and a remote tier, in the shape of Kafka's {@code RemoteStorageManager}
 * (KIP-405). The broker calls it from its own threads, never from a network thread; an implementation must be
 * safe for concurrent calls about different segments.
 *
 * <p><b>Closing.</b> {@link #close()} is idempotent and may be called on an instance that was never configured.
 * After it, every other method throws {@link IllegalStateException}, as Kafka's
 * {@code TopicBasedRemoteLogMetadataManager} does: it neither performs the operation nor returns data. (A closed
 * instance is not a storage failure that a retry could mend, so it is not a {@link RemoteStorageException}.)
 * {@code close()} returns without waiting for the streams a caller left open; those streams then end or fail with
 * an {@code IOException} when read, and never hang.
 *
 * <p><b>Interruption.</b> The broker may interrupt a thread inside a call, at shutdown or when a fetch times out.
 * An interrupted call either completes or fails with {@link RemoteStorageException}, and leaves the thread's
 * interrupt status set (keeping it, or restoring it where it caught an {@link InterruptedException}). It never
 * leaves a partial segment fetchable, and it never breaks the instance for calls on other threads: a
 * {@link java.nio.channels.FileChannel} shared across calls is the classic fault, since an interrupt closes it
 * with a {@link java.nio.channels.ClosedByInterruptException} for every caller.
 *
 * <p><b>Streams.</b> A stream the caller closes before its end releases what the implementation holds for it
 * (connections, file handles), so that many partly read streams do not exhaust the implementation.
 *
 * <p><b>Custom metadata.</b> A fetch or a delete may receive custom metadata the implementation did not write
 * (bytes of another plugin, or garbage). An implementation that uses custom metadata and cannot parse what it
 * receives throws {@link RemoteStorageException}, never an unchecked exception, and never returns the bytes of
 * another segment; an implementation that uses no custom metadata ignores it.
 */
public interface RemoteStorageManager extends Configurable, Closeable {

    /**
     * Copies a rolled segment and its indexes to the remote tier. Every attempt, retries included, carries a new
     * {@link RemoteLogSegmentId}; a retry of the same id overwrites what an earlier attempt left rather than
     * failing. When this returns, everything is durably in the remote tier; when it throws, nothing that a later
     * fetch could mistake for a complete segment is left behind: a copy that fails part-way, as when one of the
     * files cannot be read after the log was copied, throws {@link RemoteStorageException} and leaves nothing
     * fetchable under the segment's id, and a later copy with a new id succeeds.
     *
     * @param remoteLogSegmentMetadata the segment's metadata, in state {@code COPY_SEGMENT_STARTED}
     * @param logSegmentData           the local files to copy
     * @return custom metadata to store with the segment, if the implementation needs any
     * @throws RemoteStorageException if the copy failed, or was interrupted and did not complete
     * @throws IllegalStateException  if the instance is closed
     */
    Optional<CustomMetadata> copyLogSegmentData(
            RemoteLogSegmentMetadata remoteLogSegmentMetadata, LogSegmentData logSegmentData)
            throws RemoteStorageException;

    /**
     * Reads a remote segment from {@code startPosition}, inclusive, to its end. The caller closes the stream,
     * possibly before its end; closing releases what the stream holds.
     *
     * @param remoteLogSegmentMetadata the segment's metadata, with the custom metadata its copy returned
     * @param startPosition            the first byte to read
     * @return the bytes from {@code startPosition} to the segment's end
     * @throws RemoteResourceNotFoundException if the segment is not in the remote tier
     * @throws InvalidRangeException           if the position is negative or beyond the segment
     * @throws RemoteStorageException          if the read failed or was interrupted, or the custom metadata
     *                                         cannot be parsed
     * @throws IllegalStateException           if the instance is closed
     */
    InputStream fetchLogSegment(RemoteLogSegmentMetadata remoteLogSegmentMetadata, int startPosition)
            throws RemoteStorageException;

    /**
     * Reads a remote segment from {@code startPosition} to the smaller of {@code endPosition} and the segment's
     * last byte, both inclusive. The caller closes the stream, possibly before its end; closing releases what
     * the stream holds.
     *
     * @param remoteLogSegmentMetadata the segment's metadata, with the custom metadata its copy returned
     * @param startPosition            the first byte to read
     * @param endPosition              the last byte wanted
     * @return the bytes of the range
     * @throws RemoteResourceNotFoundException if the segment is not in the remote tier
     * @throws InvalidRangeException           if a position is negative, the range is reversed, or it starts
     *                                         beyond the segment
     * @throws RemoteStorageException          if the read failed or was interrupted, or the custom metadata
     *                                         cannot be parsed
     * @throws IllegalStateException           if the instance is closed
     */
    InputStream fetchLogSegment(RemoteLogSegmentMetadata remoteLogSegmentMetadata, int startPosition, int endPosition)
            throws RemoteStorageException;

    /**
     * Reads one of a remote segment's indexes whole. The caller closes the stream, possibly before its end.
     *
     * @param remoteLogSegmentMetadata the segment's metadata, with the custom metadata its copy returned
     * @param indexType                the index to read
     * @return the index's bytes
     * @throws RemoteResourceNotFoundException if the index is not in the remote tier, as for the transaction
     *                                         index of a segment that has none
     * @throws RemoteStorageException          if the read failed or was interrupted, or the custom metadata
     *                                         cannot be parsed
     * @throws IllegalStateException           if the instance is closed
     */
    InputStream fetchIndex(RemoteLogSegmentMetadata remoteLogSegmentMetadata, IndexType indexType)
            throws RemoteStorageException;

    /**
     * Deletes a remote segment and its indexes. Deleting what is already gone succeeds: this never throws
     * {@link RemoteResourceNotFoundException}.
     *
     * @param remoteLogSegmentMetadata the segment's metadata, in state {@code DELETE_SEGMENT_STARTED}, with the custom
     *                                 metadata its copy returned
     * @throws RemoteStorageException if the delete failed, or was interrupted and did not complete
     * @throws IllegalStateException  if the instance is closed
     */
    void deleteLogSegmentData(RemoteLogSegmentMetadata remoteLogSegmentMetadata) throws RemoteStorageException;
}
