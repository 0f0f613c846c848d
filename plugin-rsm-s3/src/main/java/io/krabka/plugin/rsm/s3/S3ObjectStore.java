package io.krabka.plugin.rsm.s3;

import io.krabka.spi.objectstore.IncompleteUpload;
import io.krabka.spi.objectstore.ObjectListing;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.RetentionMode;
import io.krabka.spi.objectstore.StoreProtection;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;

/**
 * One S3 bucket as an {@link ObjectStore}, through the AWS SDK for Java v2: the {@code s3} object store, and the
 * store under the {@code s3} remote tier. Writes are as {@link S3Writes} says; reads are (ranged) {@code GetObject}s,
 * by version id where one is given; listings are {@code ListObjectsV2} pages. A write reports the object's retention
 * only where it reads the object back (a create in parts); {@link #head} reports it always.
 *
 * <p>{@link #delete} removes the latest version itself ({@code HeadObject}, then {@code DeleteObject} of its version
 * id) rather than hiding it behind a delete marker, so a bucket under Object Lock refuses it, as the contract
 * says, and a versioned bucket keeps the older versions; in a versioned bucket it needs
 * {@code s3:DeleteObjectVersion}.
 */
public final class S3ObjectStore implements ObjectStore {
    private volatile Opened opened;

    /** A store to be configured, as the provider creates it. */
    public S3ObjectStore() {}

    /** A store configured with {@code config}, for the remote tier. */
    static S3ObjectStore open(S3StoreConfig config) {
        S3ObjectStore store = new S3ObjectStore();
        store.opened = Opened.of(config);
        return store;
    }

    /**
     * Builds the client from the settings the provider declares; nothing is sent to S3 before {@link #checkAccess()}.
     *
     * @throws io.krabka.spi.plugin.ConfigException for a missing or invalid setting, an http endpoint without
     *                                              {@code allow.http=true}, or a client the SDK cannot create
     * @throws IllegalStateException                if the store is already configured
     */
    @Override
    public synchronized void configure(Map<String, ?> configs) {
        if (opened != null) {
            throw new IllegalStateException("already configured");
        }
        opened = Opened.of(S3StoreConfig.parse(configs));
    }

    @Override
    public String location() {
        return "s3://" + opened().bucket();
    }

    @Override
    public StoredObject put(String key, Path file) throws RemoteStorageException {
        return opened().writes().write(key, file, false);
    }

    @Override
    public StoredObject put(String key, ByteBuffer bytes) throws RemoteStorageException {
        return opened().writes().write(key, bytes, false);
    }

    @Override
    public StoredObject create(String key, Path file) throws RemoteStorageException {
        return opened().writes().write(key, file, true);
    }

    @Override
    public StoredObject create(String key, ByteBuffer bytes) throws RemoteStorageException {
        return opened().writes().write(key, bytes, true);
    }

    @Override
    public InputStream read(String key, Optional<String> version, long from, long toInclusive)
            throws RemoteStorageException {
        if (from < 0 || toInclusive < from) {
            throw new IllegalArgumentException("invalid range [" + from + ", " + toInclusive + "] of " + key);
        }
        GetObjectRequest request = GetObjectRequest.builder()
                .bucket(opened().bucket())
                .key(key)
                .versionId(version.orElse(null))
                .range("bytes=" + from + "-" + toInclusive)
                .build();
        return get(request, version, true);
    }

    @Override
    public InputStream read(String key, Optional<String> version) throws RemoteStorageException {
        return get(
                GetObjectRequest.builder()
                        .bucket(opened().bucket())
                        .key(key)
                        .versionId(version.orElse(null))
                        .build(),
                version,
                false);
    }

    private InputStream get(GetObjectRequest request, Optional<String> version, boolean ranged)
            throws RemoteStorageException {
        Opened o = opened();
        try {
            return new S3ResponseStream(o.s3().getObject(request), "s3://" + o.bucket() + "/" + request.key());
        } catch (SdkException e) {
            if (ranged && S3Errors.status(e) == 416) {
                // The range starts at or past the end: nothing to read, as the contract says.
                return InputStream.nullInputStream();
            }
            String operation = "GetObject" + version.map(v -> " version " + v).orElse("");
            if (version.isPresent() && S3Errors.status(e) == 400) {
                // AWS answers a version id it never issued with 400 InvalidArgument: no such version.
                throw new RemoteResourceNotFoundException(
                        operation + " of s3://" + o.bucket() + "/" + request.key() + " failed: no such version ("
                                + S3Errors.oneLine(e) + ")",
                        e);
            }
            throw S3Errors.of(operation, o.bucket(), request.key(), e);
        }
    }

    @Override
    public Optional<StoredObject> head(String key, Optional<String> version) throws RemoteStorageException {
        return opened().writes().heads().head(key, version);
    }

    /** One {@code ListObjectsV2} page (S3 gives at most 1,000 keys); the token is S3's continuation token. */
    @Override
    public ObjectListing list(String prefix, Optional<String> pageToken) throws RemoteStorageException {
        Opened o = opened();
        ListObjectsV2Response page;
        try {
            page = o.s3().listObjectsV2(
                            b -> b.bucket(o.bucket()).prefix(prefix).continuationToken(pageToken.orElse(null)));
        } catch (SdkException e) {
            throw S3Errors.of("ListObjectsV2", o.bucket(), prefix, e);
        }
        List<StoredObject> objects = page.contents().stream()
                .map(object -> new StoredObject(
                        object.key(),
                        object.size(),
                        S3Heads.present(object.eTag()),
                        Optional.empty(),
                        RetentionMode.NONE,
                        Optional.empty(),
                        false))
                .toList();
        boolean more = Boolean.TRUE.equals(page.isTruncated());
        return new ObjectListing(objects, more ? S3Heads.present(page.nextContinuationToken()) : Optional.empty());
    }

    /** Every page of {@code ListMultipartUploads} under the prefix. */
    @Override
    public List<IncompleteUpload> incompleteUploads(String prefix) throws RemoteStorageException {
        Opened o = opened();
        try {
            return o
                    .s3()
                    .listMultipartUploadsPaginator(b -> b.bucket(o.bucket()).prefix(prefix))
                    .uploads()
                    .stream()
                    .map(u -> new IncompleteUpload(u.key(), u.uploadId(), Optional.ofNullable(u.initiated())))
                    .toList();
        } catch (SdkException e) {
            throw S3Errors.of("ListMultipartUploads", o.bucket(), prefix, e);
        }
    }

    @Override
    public StoreProtection protection() throws RemoteStorageException {
        return BucketProtection.of(opened().s3(), opened().bucket());
    }

    @Override
    public void delete(String key) throws RemoteStorageException {
        Opened o = opened();
        Optional<StoredObject> latest = o.writes().heads().head(key, Optional.empty());
        if (latest.isEmpty()) {
            return;
        }
        // A bucket that never kept versions names none, or the version "null", which a plain delete removes.
        Optional<String> version = latest.get().version().filter(v -> !v.equals("null"));
        try {
            o.s3().deleteObject(b -> b.bucket(o.bucket()).key(key).versionId(version.orElse(null)));
        } catch (SdkException e) {
            RemoteStorageException failure = S3Errors.of(
                    "DeleteObject" + version.map(v -> " version " + v).orElse(""), o.bucket(), key, e);
            if (!(failure instanceof RemoteResourceNotFoundException)) {
                throw failure;
            }
        }
    }

    /** A HeadBucket, then a one-key listing: the bucket exists, and its objects may be listed. */
    @Override
    public void checkAccess() throws RemoteStorageException {
        Opened o = opened();
        String operation = "HeadBucket";
        try {
            o.s3().headBucket(b -> b.bucket(o.bucket()));
            operation = "ListObjectsV2";
            o.s3().listObjectsV2(b -> b.bucket(o.bucket()).maxKeys(1));
        } catch (SdkException e) {
            String why = S3Errors.status(e) == 404
                    ? "the bucket does not exist"
                    : S3Errors.status(e) == 403
                            ? "access denied (check the credentials and the bucket's policy)"
                            : S3Errors.oneLine(e);
            throw new RemoteStorageException(
                    "S3 bucket \"" + o.bucket() + "\" cannot be used: " + operation + " failed: " + why, e);
        }
    }

    @Override
    public void close() {
        Opened o = opened;
        if (o != null) {
            o.s3().close();
        }
    }

    @Override
    public String toString() {
        Opened o = opened;
        return "S3ObjectStore[" + (o == null ? "not configured" : "s3://" + o.bucket()) + "]";
    }

    private Opened opened() {
        Opened o = opened;
        if (o == null) {
            throw new IllegalStateException("the s3 object store is not configured");
        }
        return o;
    }

    /**
     * A configured store's client and what works through it.
     *
     * @param s3     the client, owned by the store
     * @param bucket the bucket
     * @param writes the writes, and heads through them
     */
    private record Opened(S3Client s3, String bucket, S3Writes writes) {
        static Opened of(S3StoreConfig config) {
            S3Client s3 = S3Clients.create(config);
            return new Opened(
                    s3,
                    config.bucket(),
                    S3Writes.of(
                            s3,
                            config.bucket(),
                            config.storageClass(),
                            config.multipart(),
                            !config.checksumWhenRequired()));
        }
    }
}
