package io.krabka.plugin.rsm.s3;

import io.krabka.objectstore.ObjectStore;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Object;

/** One S3 bucket as an {@link ObjectStore}. */
final class S3ObjectStore implements ObjectStore {
    private final S3Client s3;
    private final String bucket;
    private final Optional<String> storageClass;
    private final MultipartPolicy multipart;
    private final MultipartUpload multipartUpload;

    /** A store over {@code s3}, which it owns and closes. */
    S3ObjectStore(S3Client s3, String bucket, Optional<String> storageClass, MultipartPolicy multipart, boolean checksums) {
        this.s3 = s3;
        this.bucket = bucket;
        this.storageClass = storageClass;
        this.multipart = multipart;
        this.multipartUpload = new MultipartUpload(s3, bucket, storageClass, checksums);
    }

    @Override
    public void upload(String key, Path file) throws RemoteStorageException {
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw new RemoteStorageException("cannot upload " + file + " to s3://" + bucket + "/" + key + ": " + e, e);
        }
        if (multipart.usesParts(size)) {
            multipartUpload.upload(key, file, size, multipart);
            return;
        }
        put(key, RequestBody.fromFile(file), size);
    }

    @Override
    public void upload(String key, ByteBuffer bytes) throws RemoteStorageException {
        ByteBuffer view = bytes.duplicate();
        put(key, RequestBody.fromRemainingByteBuffer(view), view.remaining());
    }

    private void put(String key, RequestBody body, long size) throws RemoteStorageException {
        PutObjectRequest.Builder request = PutObjectRequest.builder().bucket(bucket).key(key).contentLength(size);
        storageClass.ifPresent(request::storageClass);
        try {
            s3.putObject(request.build(), body);
        } catch (SdkException e) {
            throw S3Errors.of("PutObject", bucket, key, e);
        } catch (RuntimeException e) {
            // The file vanished or failed between Files.size and the read the SDK does.
            throw new RemoteStorageException("PutObject of s3://" + bucket + "/" + key + " failed: " + S3Errors.oneLine(e), e);
        }
    }

    @Override
    public InputStream read(String key, long from, long toInclusive) throws RemoteStorageException {
        if (from < 0 || toInclusive < from) {
            throw new IllegalArgumentException("invalid range [" + from + ", " + toInclusive + "] of " + key);
        }
        try {
            return get(GetObjectRequest.builder().bucket(bucket).key(key).range("bytes=" + from + "-" + toInclusive).build());
        } catch (SdkException e) {
            if (e instanceof AwsServiceException service && service.statusCode() == 416) {
                // The range starts at or past the end: nothing to read, as the contract says.
                return InputStream.nullInputStream();
            }
            throw S3Errors.of("GetObject", bucket, key, e);
        }
    }

    @Override
    public InputStream read(String key) throws RemoteStorageException {
        try {
            return get(GetObjectRequest.builder().bucket(bucket).key(key).build());
        } catch (SdkException e) {
            throw S3Errors.of("GetObject", bucket, key, e);
        }
    }

    private InputStream get(GetObjectRequest request) {
        return new S3ResponseStream(s3.getObject(request), "s3://" + bucket + "/" + request.key());
    }

    @Override
    public void delete(String key) throws RemoteStorageException {
        try {
            s3.deleteObject(b -> b.bucket(bucket).key(key));
        } catch (SdkException e) {
            RemoteStorageException failure = S3Errors.of("DeleteObject", bucket, key, e);
            if (!(failure instanceof RemoteResourceNotFoundException)) {
                throw failure;
            }
        }
    }

    @Override
    public List<String> list(String prefix) throws RemoteStorageException {
        try {
            return s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents().stream()
                    .map(S3Object::key).toList();
        } catch (SdkException e) {
            throw S3Errors.of("ListObjectsV2", bucket, prefix, e);
        }
    }

    /** A HeadBucket, then a one-key listing: the bucket exists, and its objects may be listed. */
    @Override
    public void checkAccess() throws RemoteStorageException {
        String operation = "HeadBucket";
        try {
            s3.headBucket(b -> b.bucket(bucket));
            operation = "ListObjectsV2";
            s3.listObjectsV2(b -> b.bucket(bucket).maxKeys(1));
        } catch (SdkException e) {
            String why = e instanceof AwsServiceException service && service.statusCode() == 404
                    ? "the bucket does not exist"
                    : e instanceof AwsServiceException service && service.statusCode() == 403
                            ? "access denied (check the credentials and the bucket's policy)"
                            : S3Errors.oneLine(e);
            throw new RemoteStorageException("S3 bucket \"" + bucket + "\" cannot be used: " + operation + " failed: "
                    + why, e);
        }
    }

    @Override
    public void close() {
        s3.close();
    }
}
