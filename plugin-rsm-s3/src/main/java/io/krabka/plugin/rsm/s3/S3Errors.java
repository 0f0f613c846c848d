package io.krabka.plugin.rsm.s3;

import io.krabka.spi.objectstore.ObjectExistsException;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/** The SDK's exceptions as the storage errors callers expect, each naming the operation, bucket and key. */
final class S3Errors {
    /** The codes of a missing object or version; a missing bucket ({@code NoSuchBucket}) is not one. */
    private static final Set<String> NOT_FOUND = Set.of("NoSuchKey", "NoSuchVersion");

    private S3Errors() {}

    /**
     * A failed operation on an object. A missing key or version is {@link RemoteResourceNotFoundException}; a
     * missing bucket is not, so that a deleted bucket is never mistaken for deleted segments. A failed precondition
     * is {@link ObjectExistsException}: the only precondition the store sends is {@code If-None-Match: *}.
     */
    static RemoteStorageException of(String operation, String bucket, String key, SdkException e) {
        String object = "s3://" + bucket + "/" + key;
        if (isNotFound(e)) {
            return new RemoteResourceNotFoundException(operation + " of " + object + " failed: " + oneLine(e), e);
        }
        if (isExisting(e)) {
            return new ObjectExistsException(
                    operation + " of " + object + " refused: the object already exists (" + oneLine(e) + ")", e);
        }
        return new RemoteStorageException(operation + " of " + object + " failed: " + oneLine(e), e);
    }

    /** A failed operation on the bucket itself. */
    static RemoteStorageException ofBucket(String operation, String bucket, SdkException e) {
        return new RemoteStorageException(operation + " of s3://" + bucket + " failed: " + oneLine(e), e);
    }

    /** Whether the service said that the object or version does not exist. */
    static boolean isNotFound(SdkException e) {
        // HeadObject answers have no body: the SDK names a 404 NoSuchKey without the service saying so.
        return e instanceof NoSuchKeyException
                || errorCode(e).filter(NOT_FOUND::contains).isPresent();
    }

    /**
     * Whether the service refused a conditional write because the key holds an object: 412 PreconditionFailed, or
     * 409 ConditionalRequestConflict when another conditional write of the key was under way.
     */
    static boolean isExisting(SdkException e) {
        return status(e) == 412
                || (status(e) == 409
                        && errorCode(e)
                                .filter("ConditionalRequestConflict"::equals)
                                .isPresent());
    }

    /** The HTTP status of a service's answer; 0 when the request got none. */
    static int status(SdkException e) {
        return e instanceof AwsServiceException service ? service.statusCode() : 0;
    }

    /** The service's error code, if it gave one. */
    static Optional<String> errorCode(SdkException e) {
        return e instanceof AwsServiceException service && service.awsErrorDetails() != null
                ? Optional.ofNullable(service.awsErrorDetails().errorCode())
                : Optional.empty();
    }

    /** The exception's message on one line. */
    static String oneLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }
}
