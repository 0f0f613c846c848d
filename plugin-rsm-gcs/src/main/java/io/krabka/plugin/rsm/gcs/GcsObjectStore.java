package io.krabka.plugin.rsm.gcs;

import com.google.api.gax.paging.Page;
import com.google.cloud.ReadChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import io.krabka.spi.objectstore.IncompleteUpload;
import io.krabka.spi.objectstore.ObjectExistsException;
import io.krabka.spi.objectstore.ObjectListing;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.StoreProtection;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * One Google Cloud Storage bucket as an {@link ObjectStore}, the {@code gcs} plugin's. A file smaller than the
 * resumable threshold, and every buffer, is sent in one request; a larger file is streamed from disk in a resumable
 * upload, one chunk in memory at a time. Versions are generations. A {@link #create} asks GCS for
 * {@code ifGenerationMatch=0} on both paths, so the store itself refuses an existing key.
 *
 * <p>Every request may be retried (see {@link GcsClient}). A create carries a random id in its custom metadata
 * ({@value #CREATE_ID}), so that a retry refused only because its own earlier attempt landed is told apart from a
 * key another writer holds.
 */
public final class GcsObjectStore implements ObjectStore {
    /** The custom metadata key of a create's id. */
    static final String CREATE_ID = "krabka-create-id";

    private static final String CONTENT_TYPE = "application/octet-stream";
    private static final int LIST_PAGE = 1000;

    private volatile Connection connection;

    /** The client, the bucket and the ways to write to it, made once by {@link #configure}. */
    private record Connection(
            Storage storage, String bucket, GcsUploads uploads, int resumableThreshold, GcsBucketRetention retention) {}

    /** A store to be configured, as the provider creates it. */
    public GcsObjectStore() {}

    /**
     * Makes the client for the bucket the settings name, without contacting it yet.
     *
     * @throws ConfigException for an invalid setting, or credentials the client cannot read
     */
    @Override
    public void configure(Map<String, ?> configs) {
        configure(GcsStoreConfig.parse(configs));
    }

    /** As {@link #configure(Map)}, with settings already parsed: the remote tier's. */
    void configure(GcsStoreConfig config) {
        if (connection != null) {
            throw new IllegalStateException("already configured");
        }
        Storage storage;
        try {
            storage = GcsClient.create(config);
        } catch (IOException | RuntimeException e) {
            throw new ConfigException(
                    "cannot create the GCS client for bucket \"" + config.bucket() + "\": " + GcsErrors.describe(e));
        }
        connection = new Connection(
                storage,
                config.bucket(),
                new GcsUploads(storage, config.chunkSize()),
                config.resumableThreshold(),
                new GcsBucketRetention(storage, config.bucket()));
    }

    @Override
    public String location() {
        return "gs://" + connection().bucket();
    }

    @Override
    public StoredObject put(String key, Path file) throws RemoteStorageException {
        return writeFile(key, file, false);
    }

    @Override
    public StoredObject put(String key, ByteBuffer bytes) throws RemoteStorageException {
        return writeBuffer(key, bytes, false);
    }

    /**
     * Creates with {@code ifGenerationMatch=0}. A file that takes the resumable path is first checked against an
     * existing object, so that no upload is streamed only to be refused; GCS checks the precondition again at the
     * upload's final request. A resumable object is read back and checked to be this create's.
     */
    @Override
    public StoredObject create(String key, Path file) throws RemoteStorageException {
        return writeFile(key, file, true);
    }

    @Override
    public StoredObject create(String key, ByteBuffer bytes) throws RemoteStorageException {
        return writeBuffer(key, bytes, true);
    }

    private StoredObject writeFile(String key, Path file, boolean createOnly) throws RemoteStorageException {
        Connection c = connection();
        String what = (createOnly ? "create" : "upload") + " of " + file + " to " + uri(key);
        BlobInfo info = info(key, createOnly);
        try {
            long size = Files.size(file);
            if (size < c.resumableThreshold()) {
                return c.retention()
                        .describe(c.uploads().single(info, Files.readAllBytes(file), createOnly), createOnly);
            }
            if (createOnly) {
                Blob existing = c.storage().get(BlobId.of(c.bucket(), key));
                if (existing != null) {
                    throw exists(what, "generation " + existing.getGeneration(), null);
                }
            }
            c.uploads().resumable(info, file, size, createOnly);
            Blob stored = c.storage().get(BlobId.of(c.bucket(), key));
            if (stored == null || stored.getSize() != size || (createOnly && !isOwn(stored, info))) {
                throw new RemoteStorageException("GCS " + what + " failed: the object read back after the upload is "
                        + (stored == null
                                ? "missing"
                                : "another (generation " + stored.getGeneration() + ", " + stored.getSize() + " bytes)")
                        + "; another writer replaced it");
            }
            return c.retention().describe(stored, createOnly);
        } catch (IOException | RuntimeException e) {
            return failedWrite(what, info, createOnly, e);
        }
    }

    private StoredObject writeBuffer(String key, ByteBuffer bytes, boolean createOnly) throws RemoteStorageException {
        ByteBuffer view = bytes.duplicate();
        byte[] content = new byte[view.remaining()];
        view.get(content);
        String what = (createOnly ? "create" : "upload") + " of " + content.length + " bytes to " + uri(key);
        BlobInfo info = info(key, createOnly);
        try {
            return connection()
                    .retention()
                    .describe(connection().uploads().single(info, content, createOnly), createOnly);
        } catch (RuntimeException e) {
            return failedWrite(what, info, createOnly, e);
        }
    }

    /**
     * What a failed write comes to. A create refused with 412 is an {@link ObjectExistsException}, unless the object
     * there carries this create's id: an earlier attempt landed and only its answer was lost, so the create
     * succeeded.
     */
    private StoredObject failedWrite(String what, BlobInfo info, boolean createOnly, Exception failure)
            throws RemoteStorageException {
        if (!createOnly || !GcsErrors.preconditionFailed(failure)) {
            throw GcsErrors.of(what, failure);
        }
        Blob there;
        try {
            there = connection().storage().get(info.getBlobId());
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
            throw exists(what, GcsErrors.describe(failure), failure);
        }
        if (there != null && isOwn(there, info)) {
            return connection().retention().describe(there, true);
        }
        throw exists(what, GcsErrors.describe(failure), failure);
    }

    private ObjectExistsException exists(String what, String detail, Throwable cause) {
        return new ObjectExistsException("GCS " + what + " refused: the object already exists (" + detail + ")", cause);
    }

    @Override
    public InputStream read(String key, Optional<String> version, long from, long toInclusive)
            throws RemoteStorageException {
        if (from < 0 || toInclusive < from) {
            throw new IllegalArgumentException("invalid byte range " + from + "-" + toInclusive + " of " + uri(key));
        }
        boolean toEnd = toInclusive >= Long.MAX_VALUE - 1;
        String what = "read of " + uri(key)
                + version.map(v -> " generation " + v).orElse("") + " bytes " + from + "-" + (toEnd ? "" : toInclusive);
        ReadChannel channel;
        try {
            channel = connection().storage().reader(blobId(key, version, what));
            channel.seek(from);
            channel.limit(toEnd ? Long.MAX_VALUE : toInclusive + 1);
        } catch (IOException | RuntimeException e) {
            throw GcsErrors.of(what, e);
        }
        return GcsObjectStream.open(channel, what);
    }

    @Override
    public InputStream read(String key, Optional<String> version) throws RemoteStorageException {
        return read(key, version, 0, Long.MAX_VALUE);
    }

    @Override
    public Optional<StoredObject> head(String key, Optional<String> version) throws RemoteStorageException {
        String what = "metadata read of " + uri(key)
                + version.map(v -> " generation " + v).orElse("");
        BlobId id;
        try {
            id = blobId(key, version, what);
        } catch (RemoteResourceNotFoundException notAGeneration) {
            return Optional.empty();
        }
        Blob blob;
        try {
            blob = connection().storage().get(id);
        } catch (RuntimeException e) {
            throw GcsErrors.of(what, e);
        }
        return blob == null
                ? Optional.empty()
                : Optional.of(connection().retention().describe(blob, false));
    }

    /** One page of at most {@value #LIST_PAGE} objects, with GCS's page token. */
    @Override
    public ObjectListing list(String prefix, Optional<String> pageToken) throws RemoteStorageException {
        Connection c = connection();
        List<Storage.BlobListOption> options = new ArrayList<>(
                List.of(Storage.BlobListOption.prefix(prefix), Storage.BlobListOption.pageSize(LIST_PAGE)));
        pageToken.ifPresent(token -> options.add(Storage.BlobListOption.pageToken(token)));
        Page<Blob> page;
        List<Blob> blobs = new ArrayList<>();
        try {
            page = c.storage().list(c.bucket(), options.toArray(Storage.BlobListOption[]::new));
            page.getValues().forEach(blobs::add);
        } catch (RuntimeException e) {
            throw GcsErrors.of("listing of " + uri(prefix) + "*", e);
        }
        String next = page.getNextPageToken();
        return new ObjectListing(
                c.retention().describe(blobs, false),
                next == null || next.isEmpty() ? Optional.empty() : Optional.of(next));
    }

    /**
     * None, ever: GCS shows no unfinished uploads through its API. A resumable session that is never finalized makes
     * no object, is listed nowhere, and expires on its own (after about a week).
     */
    @Override
    public List<IncompleteUpload> incompleteUploads(String prefix) {
        return List.of();
    }

    /** The bucket's versioning and retention policy (needs {@code storage.buckets.get}). */
    @Override
    public StoreProtection protection() throws RemoteStorageException {
        return connection().retention().protection();
    }

    /** Deletes the live generation; a missing object is already deleted. A retained one is refused by GCS (403). */
    @Override
    public void delete(String key) throws RemoteStorageException {
        try {
            connection().storage().delete(BlobId.of(connection().bucket(), key));
        } catch (RuntimeException e) {
            throw GcsErrors.of("delete of " + uri(key), e);
        }
    }

    /** Lists one object: what the tier needs most often (storage.objects.list), and a 404 for a missing bucket. */
    @Override
    public void checkAccess() throws RemoteStorageException {
        Connection c = connection();
        try {
            c.storage().list(c.bucket(), Storage.BlobListOption.pageSize(1));
        } catch (RuntimeException e) {
            String why = GcsErrors.notFound(e) ? "the bucket does not exist" : GcsErrors.describe(e);
            throw new RemoteStorageException(
                    "GCS bucket \"" + c.bucket() + "\" cannot be used: listing its objects "
                            + "(storage.objects.list) failed: " + why,
                    e);
        }
    }

    @Override
    public void close() throws IOException {
        Connection c = connection;
        if (c == null) {
            return;
        }
        try {
            c.storage().close();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("cannot close the GCS client of bucket " + c.bucket() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        Connection c = connection;
        return "GcsObjectStore[" + (c == null ? "not configured" : "gs://" + c.bucket()) + "]";
    }

    /** Whether a stored object carries the create id of {@code info}: this create's own. */
    private static boolean isOwn(BlobInfo stored, BlobInfo info) {
        Map<String, String> metadata = stored.getMetadata();
        return metadata != null && info.getMetadata().get(CREATE_ID).equals(metadata.get(CREATE_ID));
    }

    private BlobInfo info(String key, boolean createOnly) {
        BlobInfo.Builder builder =
                BlobInfo.newBuilder(connection().bucket(), key).setContentType(CONTENT_TYPE);
        if (createOnly) {
            builder.setMetadata(Map.of(CREATE_ID, UUID.randomUUID().toString()));
        }
        return builder.build();
    }

    private BlobId blobId(String key, Optional<String> version, String what) throws RemoteResourceNotFoundException {
        if (version.isEmpty()) {
            return BlobId.of(connection().bucket(), key);
        }
        try {
            return BlobId.of(connection().bucket(), key, Long.parseLong(version.get()));
        } catch (NumberFormatException e) {
            throw new RemoteResourceNotFoundException(
                    "GCS " + what + " failed: \"" + version.get() + "\" is not a generation");
        }
    }

    private Connection connection() {
        Connection c = connection;
        if (c == null) {
            throw new IllegalStateException("the GCS object store is not configured");
        }
        return c;
    }

    private String uri(String key) {
        return "gs://" + connection().bucket() + "/" + key;
    }
}
