package io.krabka.spi.objectstore;

import io.krabka.spi.plugin.Configurable;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.Closeable;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One bucket of an object store (S3, Google Cloud Storage, a local directory), as Krabka uses it: objects written
 * whole, either replacing what a key holds ({@link #put}) or only where the key holds nothing ({@link #create});
 * read whole or by byte range, at their latest or at a given version; described by {@link #head}; listed a page at
 * a time; and the protection the bucket enforces. Keys are the store's own, {@code /}-separated, without a
 * leading {@code /}.
 *
 * <p>A write-once archive ({@code worm}) works over any store through this interface alone, as do
 * {@code krabka verify} and {@code krabka restore}; a third party's store gets all three by implementing it. Every
 * failure reaches the caller as a {@link RemoteStorageException}: an implementation wraps its client's errors,
 * checked or not. Implementations are safe for use by many threads at once. The kernel configures a store once,
 * then checks {@link #checkAccess()}, before any other call.
 *
 * <p><b>Closing.</b> {@link #close()} is idempotent and may be called on a store never configured. After it, every
 * other method but {@link #location()} throws {@link IllegalStateException}: it neither writes, deletes nor returns
 * data. {@code close()} returns without waiting for streams a caller left open; those then end or fail with an
 * {@code IOException} when read, and never hang. A stream the caller closes before its end releases what it holds
 * (a connection, a file handle), so that many partly read streams do not exhaust the store.
 *
 * <p><b>Interruption.</b> A call on an interrupted thread either completes or fails with
 * {@link RemoteStorageException}, leaves the thread's interrupt status set, never leaves part of a write readable
 * under its key, and never breaks the store for calls on other threads.
 */
public interface ObjectStore extends Configurable, Closeable {

    /**
     * Where the store is, for messages.
     *
     * @return {@code s3://bucket}, {@code gs://bucket}, a directory
     */
    String location();

    /**
     * Stores a file as the object {@code key}, replacing any object of that key (a versioned bucket keeps the
     * old one as an older version). The file is streamed: memory use is bounded whatever its size. When this
     * throws, no object of that key has the file's content (an earlier object may remain).
     *
     * @param key  the object's key
     * @param file the file to store
     * @return the object as stored
     * @throws RemoteStorageException if the file cannot be read or the store refuses or fails the write
     */
    StoredObject put(String key, Path file) throws RemoteStorageException;

    /**
     * Stores the remaining bytes of a buffer as the object {@code key}, replacing any object of that key. The
     * buffer's position is not moved.
     *
     * @param key   the object's key
     * @param bytes the bytes to store, from the buffer's position to its limit
     * @return the object as stored
     * @throws RemoteStorageException if the store refuses or fails the write
     */
    StoredObject put(String key, ByteBuffer bytes) throws RemoteStorageException;

    /**
     * Stores a file as the object {@code key} only if the key holds no object: never an overwrite, and never a
     * new version over an existing one where the store can refuse it. A single-request write is a conditional
     * create (S3 {@code If-None-Match: *}, GCS {@code ifGenerationMatch=0}, a local create-new); a write in
     * parts checks that the key is free before it starts, completes conditionally where the store supports it,
     * and is read back and checked against the size it was written with. {@link StoredObject#createPrecondition()}
     * says whether the store itself was asked to refuse an existing key.
     *
     * @param key  the object's key
     * @param file the file to store
     * @return the object as stored, with its version where the bucket keeps versions
     * @throws ObjectExistsException  if the key already holds an object
     * @throws RemoteStorageException if the file cannot be read or the store refuses or fails the write
     */
    StoredObject create(String key, Path file) throws RemoteStorageException;

    /**
     * Stores the remaining bytes of a buffer as the object {@code key} only if the key holds no object, in one
     * conditional request; as {@link #create(String, Path)}. The buffer's position is not moved.
     *
     * @param key   the object's key
     * @param bytes the bytes to store, from the buffer's position to its limit
     * @return the object as stored, with its version where the bucket keeps versions
     * @throws ObjectExistsException  if the key already holds an object
     * @throws RemoteStorageException if the store refuses or fails the write
     */
    StoredObject create(String key, ByteBuffer bytes) throws RemoteStorageException;

    /**
     * Opens the bytes {@code from} to {@code toInclusive} of an object, of the given version or the latest;
     * {@code toInclusive} is clipped to the object's last byte, and a {@code from} at or beyond the end gives an
     * empty stream. The caller closes the stream; reading it may throw {@code IOException}s.
     *
     * @param key         the object's key
     * @param version     the version (S3 version id, GCS generation) to read; empty for the latest
     * @param from        the first byte, at least 0
     * @param toInclusive the last byte wanted, at least {@code from}
     * @return the bytes of the range
     * @throws IllegalArgumentException        if the range is out of order or negative
     * @throws RemoteResourceNotFoundException if there is no such object or version
     * @throws RemoteStorageException          if the store fails the read
     */
    InputStream read(String key, Optional<String> version, long from, long toInclusive) throws RemoteStorageException;

    /**
     * Opens a whole object, of the given version or the latest. The caller closes the stream.
     *
     * @param key     the object's key
     * @param version the version (S3 version id, GCS generation) to read; empty for the latest
     * @return the object's bytes
     * @throws RemoteResourceNotFoundException if there is no such object or version
     * @throws RemoteStorageException          if the store fails the read
     */
    InputStream read(String key, Optional<String> version) throws RemoteStorageException;

    /**
     * Opens a byte range of the latest version of an object; as {@link #read(String, Optional, long, long)}.
     *
     * @param key         the object's key
     * @param from        the first byte, at least 0
     * @param toInclusive the last byte wanted, at least {@code from}
     * @return the bytes of the range
     * @throws RemoteResourceNotFoundException if there is no such object
     * @throws RemoteStorageException          if the store fails the read
     */
    default InputStream read(String key, long from, long toInclusive) throws RemoteStorageException {
        return read(key, Optional.empty(), from, toInclusive);
    }

    /**
     * Opens the latest version of a whole object; as {@link #read(String, Optional)}.
     *
     * @param key the object's key
     * @return the object's bytes
     * @throws RemoteResourceNotFoundException if there is no such object
     * @throws RemoteStorageException          if the store fails the read
     */
    default InputStream read(String key) throws RemoteStorageException {
        return read(key, Optional.empty());
    }

    /**
     * What the store says of an object, of the given version or the latest: size, entity tag, version and the
     * retention that holds it.
     *
     * @param key     the object's key
     * @param version the version to describe; empty for the latest
     * @return the object as the store describes it; empty if there is no such object or version
     * @throws RemoteStorageException if the store fails the request
     */
    Optional<StoredObject> head(String key, Optional<String> version) throws RemoteStorageException;

    /**
     * One page of the keys that start with {@code prefix}, in the store's order (lexicographic for S3, GCS and
     * directories), each with the latest version's size and entity tag.
     *
     * @param prefix    the start of the keys to list; empty for every key
     * @param pageToken empty for the first page, else the {@link ObjectListing#nextPageToken()} of the page before
     * @return the page, with the token of the next one if there is one
     * @throws RemoteStorageException if the store fails the listing
     */
    ObjectListing list(String prefix, Optional<String> pageToken) throws RemoteStorageException;

    /**
     * Every object whose key starts with {@code prefix}, however many pages the store answers in. Holds the whole
     * listing in memory: walk {@link #list(String, Optional)} for listings of unknown size.
     *
     * @param prefix the start of the keys to list; empty for every key
     * @return the objects, in the store's order
     * @throws RemoteStorageException if the store fails the listing
     */
    default List<StoredObject> listAll(String prefix) throws RemoteStorageException {
        List<StoredObject> all = new ArrayList<>();
        Optional<String> token = Optional.empty();
        do {
            ObjectListing page = list(prefix, token);
            all.addAll(page.objects());
            token = page.nextPageToken();
        } while (token.isPresent());
        return all;
    }

    /**
     * The writes in parts under {@code prefix} that were started and neither completed nor aborted (S3's
     * multipart uploads); empty for a store that has none to show.
     *
     * @param prefix the start of the keys to look under
     * @return the incomplete writes
     * @throws RemoteStorageException if the store fails the listing
     */
    List<IncompleteUpload> incompleteUploads(String prefix) throws RemoteStorageException;

    /**
     * The protection the bucket enforces on every new object: whether it keeps versions, and the default
     * retention that no one, the writer included, can shorten or remove.
     *
     * @return the protection, as the store reports it
     * @throws RemoteStorageException if the store fails to say
     */
    StoreProtection protection() throws RemoteStorageException;

    /**
     * Deletes an object (its latest version; a versioned bucket keeps the others). Idempotent: deleting a key
     * that has no object succeeds. A write-once archive never calls it.
     *
     * @param key the object's key
     * @throws RemoteStorageException if the store refuses or fails the delete, as a bucket under retention does
     */
    void delete(String key) throws RemoteStorageException;

    /**
     * Checks that the bucket exists and may be used, for a clear error at start rather than at the first write.
     *
     * @throws RemoteStorageException with a one-line message naming the bucket and the operation that failed,
     *                                e.g. a missing bucket or a refused permission
     */
    void checkAccess() throws RemoteStorageException;
}
