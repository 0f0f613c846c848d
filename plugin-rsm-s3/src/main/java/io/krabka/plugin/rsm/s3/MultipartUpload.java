package io.krabka.plugin.rsm.s3;

import io.krabka.spi.storage.RemoteStorageException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * Files uploaded in parts, several at once, each part streamed from its region of the file (memory stays bounded by
 * the SDK's buffers of the parts in flight, whatever the file's size; a retried part re-reads its region). Any
 * failure stops the parts not yet started and aborts the upload, so no parts are left behind to be billed and no
 * object appears.
 *
 * @param s3           the client
 * @param bucket       the bucket
 * @param storageClass the storage class of the object, if not the bucket's default
 * @param checksums    whether parts carry CRC32 checksums the service verifies
 */
record MultipartUpload(S3Client s3, String bucket, Optional<String> storageClass, boolean checksums) {

    /**
     * Uploads {@code size} bytes of {@code file} as {@code key} in the parts {@code policy} says.
     *
     * @param createOnly whether the completion carries {@code If-None-Match: *}, so that the service refuses it
     *                   where the key holds an object
     * @return the service's answer to the completion
     * @throws io.krabka.spi.objectstore.ObjectExistsException if the service refused the completion for an existing
     *                                                         object (the upload is aborted)
     */
    CompleteMultipartUploadResponse upload(String key, Path file, long size, MultipartPolicy policy, boolean createOnly)
            throws RemoteStorageException {
        int parts = policy.partCount(size);
        CreateMultipartUploadRequest.Builder create =
                CreateMultipartUploadRequest.builder().bucket(bucket).key(key);
        storageClass.ifPresent(create::storageClass);
        if (checksums) {
            create.checksumAlgorithm(ChecksumAlgorithm.CRC32);
        }
        String uploadId;
        try {
            uploadId = s3.createMultipartUpload(create.build()).uploadId();
        } catch (SdkException e) {
            throw S3Errors.of("CreateMultipartUpload", bucket, key, e);
        }
        String operation = "UploadPart";
        try {
            List<CompletedPart> completed =
                    parts(key, uploadId, file, size, policy.partSizeBytes(), parts, policy.concurrency());
            operation = "CompleteMultipartUpload";
            return s3.completeMultipartUpload(b -> {
                b.bucket(bucket).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(completed));
                if (createOnly) {
                    b.ifNoneMatch("*");
                }
            });
        } catch (RuntimeException e) {
            RemoteStorageException failure = e instanceof SdkException sdk
                    ? S3Errors.of(operation, bucket, key, sdk)
                    : new RemoteStorageException(
                            operation + " of s3://" + bucket + "/" + key + " failed: " + S3Errors.oneLine(e), e);
            abort(key, uploadId, failure);
            throw failure;
        }
    }

    /**
     * Sends the parts, {@code concurrency} at a time, each worker taking the next part not yet sent. The first failure
     * stops the workers before their next part and is thrown once the parts in flight end; later ones are suppressed.
     */
    private List<CompletedPart> parts(
            String key, String uploadId, Path file, long size, long partSize, int parts, int concurrency) {
        CompletedPart[] completed = new CompletedPart[parts];
        AtomicInteger next = new AtomicInteger();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Runnable worker = () -> {
            for (int index = next.getAndIncrement();
                    index < parts && failure.get() == null;
                    index = next.getAndIncrement()) {
                long offset = index * partSize;
                try {
                    completed[index] = part(key, uploadId, index + 1, file, offset, Math.min(partSize, size - offset));
                } catch (RuntimeException e) {
                    if (!failure.compareAndSet(null, e)) {
                        failure.get().addSuppressed(e);
                    }
                }
            }
        };
        try (ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < Math.min(concurrency, parts); i++) {
                workers.execute(worker);
            }
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        return List.of(completed);
    }

    private CompletedPart part(String key, String uploadId, int number, Path file, long offset, long length) {
        RequestBody body = RequestBody.fromContentProvider(
                () -> FileRegionInputStream.open(file, offset, length), length, "application/octet-stream");
        UploadPartResponse response = s3.uploadPart(
                b -> {
                    b.bucket(bucket)
                            .key(key)
                            .uploadId(uploadId)
                            .partNumber(number)
                            .contentLength(length);
                    if (checksums) {
                        b.checksumAlgorithm(ChecksumAlgorithm.CRC32);
                    }
                },
                body);
        return CompletedPart.builder()
                .partNumber(number)
                .eTag(response.eTag())
                .checksumCRC32(response.checksumCRC32())
                .build();
    }

    private void abort(String key, String uploadId, RemoteStorageException failure) {
        try {
            s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
        } catch (SdkException e) {
            failure.addSuppressed(S3Errors.of("AbortMultipartUpload " + uploadId, bucket, key, e));
        }
    }
}
