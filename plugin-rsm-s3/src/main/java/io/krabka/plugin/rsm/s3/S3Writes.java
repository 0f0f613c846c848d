package io.krabka.plugin.rsm.s3;

import io.krabka.spi.objectstore.ObjectExistsException;
import io.krabka.spi.objectstore.RetentionMode;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * Writes to one bucket: replacing ones ({@code put}) and create-only ones ({@code create}), as one
 * {@code PutObject} or, for files from the multipart threshold on, a multipart upload. A create sends
 * {@code If-None-Match: *} on its single PUT or on its completion; one in parts also checks with {@code HeadObject}
 * that the key is free before it uploads anything, and reads the object back after, since some services (Ceph
 * radosgw 16) ignore the condition on a completion.
 *
 * @param s3           the client
 * @param bucket       the bucket
 * @param storageClass the storage class of new objects, if not the bucket's default
 * @param multipart    when files go in parts
 * @param parts        the multipart uploads
 * @param heads        reads objects back
 */
record S3Writes(
        S3Client s3,
        String bucket,
        Optional<String> storageClass,
        MultipartPolicy multipart,
        MultipartUpload parts,
        S3Heads heads) {

    /** Writes to {@code bucket} through {@code s3}; multipart parts carry CRC32 checksums if {@code checksums}. */
    static S3Writes of(
            S3Client s3, String bucket, Optional<String> storageClass, MultipartPolicy multipart, boolean checksums) {
        return new S3Writes(
                s3,
                bucket,
                storageClass,
                multipart,
                new MultipartUpload(s3, bucket, storageClass, checksums),
                new S3Heads(s3, bucket));
    }

    StoredObject write(String key, Path file, boolean createOnly) throws RemoteStorageException {
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw new RemoteStorageException("cannot upload " + file + " to s3://" + bucket + "/" + key + ": " + e, e);
        }
        if (!multipart.usesParts(size)) {
            return single(key, RequestBody.fromFile(file), size, createOnly);
        }
        return createOnly ? createInParts(key, file, size) : putInParts(key, file, size);
    }

    StoredObject write(String key, ByteBuffer bytes, boolean createOnly) throws RemoteStorageException {
        ByteBuffer view = bytes.duplicate();
        int size = view.remaining();
        return single(key, RequestBody.fromRemainingByteBuffer(view), size, createOnly);
    }

    private StoredObject single(String key, RequestBody body, long size, boolean createOnly)
            throws RemoteStorageException {
        PutObjectRequest.Builder request =
                PutObjectRequest.builder().bucket(bucket).key(key).contentLength(size);
        storageClass.ifPresent(request::storageClass);
        if (createOnly) {
            request.ifNoneMatch("*");
        }
        PutObjectResponse response;
        try {
            response = s3.putObject(request.build(), body);
        } catch (SdkException e) {
            throw S3Errors.of("PutObject", bucket, key, e);
        } catch (RuntimeException e) {
            // The file vanished or failed between Files.size and the read the SDK does.
            throw new RemoteStorageException(
                    "PutObject of s3://" + bucket + "/" + key + " failed: " + S3Errors.oneLine(e), e);
        }
        return new StoredObject(
                key,
                size,
                S3Heads.present(response.eTag()),
                S3Heads.present(response.versionId()),
                RetentionMode.NONE,
                Optional.empty(),
                createOnly);
    }

    /** Radosgw answers a completion without an ETag: a HEAD of the version then gives it. */
    private StoredObject putInParts(String key, Path file, long size) throws RemoteStorageException {
        CompleteMultipartUploadResponse done = parts.upload(key, file, size, multipart, false);
        Optional<String> version = S3Heads.present(done.versionId());
        Optional<String> etag = S3Heads.present(done.eTag());
        if (etag.isEmpty()) {
            etag = heads.head(key, version).flatMap(StoredObject::etag);
        }
        return new StoredObject(key, size, etag, version, RetentionMode.NONE, Optional.empty(), false);
    }

    private StoredObject createInParts(String key, Path file, long size) throws RemoteStorageException {
        // S3 cannot reserve a key for an upload: this check and the conditional completion are all it offers.
        if (heads.head(key, Optional.empty()).isPresent()) {
            throw new ObjectExistsException("CreateMultipartUpload of s3://" + bucket + "/" + key
                    + " not started: HeadObject finds the object already exists");
        }
        CompleteMultipartUploadResponse done = parts.upload(key, file, size, multipart, true);
        Optional<String> version = S3Heads.present(done.versionId());
        StoredObject stored = heads.head(key, version)
                .orElseThrow(() -> new RemoteStorageException(
                        "CompleteMultipartUpload of s3://" + bucket + "/" + key + " succeeded, but HeadObject"
                                + version.map(v -> " of version " + v).orElse("") + " finds no object"));
        if (stored.size() != size) {
            throw new RemoteStorageException(
                    "CompleteMultipartUpload of s3://" + bucket + "/" + key + " made an object of "
                            + stored.size() + " bytes"
                            + version.map(v -> " (version " + v + ")").orElse("") + " from "
                            + file + " of " + size + " bytes");
        }
        return new StoredObject(
                key, size, stored.etag(), stored.version(), stored.retention(), stored.retainUntil(), true);
    }
}
