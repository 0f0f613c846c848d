package io.krabka.objectstore;

import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.Closeable;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * One bucket of an object store (S3, Google Cloud Storage, a test directory), as the remote tier uses it: whole
 * objects written at once, read whole or by byte range, deleted and listed by key. Keys are the store's own,
 * {@code /}-separated, without a leading {@code /}.
 *
 * <p>Every failure reaches the caller as a {@link RemoteStorageException}: an implementation wraps its client's
 * errors, checked or not. Implementations are safe for use by many threads at once.
 */
public interface ObjectStore extends Closeable {

    /**
     * Stores the content of a file as the object {@code key}, replacing any object of that key. The file is
     * streamed: memory use is bounded whatever its size. When this throws, no object of that key has the file's
     * content (an earlier object may remain).
     *
     * @throws RemoteStorageException if the file cannot be read or the store refuses or fails the write
     */
    void upload(String key, Path file) throws RemoteStorageException;

    /**
     * Stores the remaining bytes of a buffer as the object {@code key}, replacing any object of that key. The
     * buffer's position is not moved.
     *
     * @throws RemoteStorageException if the store refuses or fails the write
     */
    void upload(String key, ByteBuffer bytes) throws RemoteStorageException;

    /**
     * Opens the bytes {@code from} to {@code toInclusive} of an object; {@code toInclusive} is clipped to the
     * object's last byte, and a {@code from} at or beyond the end gives an empty stream. The caller closes the
     * stream; reading it may throw {@code IOException}s.
     *
     * @param from        the first byte, at least 0
     * @param toInclusive the last byte wanted, at least {@code from}
     * @throws IllegalArgumentException        if the range is out of order or negative
     * @throws RemoteResourceNotFoundException if there is no such object
     * @throws RemoteStorageException          if the store fails the read
     */
    InputStream read(String key, long from, long toInclusive) throws RemoteStorageException;

    /**
     * Opens a whole object. The caller closes the stream.
     *
     * @throws RemoteResourceNotFoundException if there is no such object
     * @throws RemoteStorageException          if the store fails the read
     */
    InputStream read(String key) throws RemoteStorageException;

    /**
     * Deletes an object. Idempotent: deleting a key that has no object succeeds.
     *
     * @throws RemoteStorageException if the store refuses or fails the delete
     */
    void delete(String key) throws RemoteStorageException;

    /**
     * Every key that starts with {@code prefix}, however many pages the store answers in, in the store's order
     * (lexicographic for S3 and GCS).
     *
     * @throws RemoteStorageException if the store fails the listing
     */
    List<String> list(String prefix) throws RemoteStorageException;

    /**
     * Checks that the bucket exists and may be used, for a clear error at start rather than at the first copy.
     *
     * @throws RemoteStorageException with a one-line message naming the bucket and the operation that failed,
     *                                e.g. a missing bucket or a refused permission
     */
    void checkAccess() throws RemoteStorageException;
}
