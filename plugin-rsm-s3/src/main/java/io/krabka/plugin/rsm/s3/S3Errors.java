package io.krabka.plugin.rsm.s3;

import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/** The SDK's exceptions as the storage errors callers expect, each naming the operation, bucket and key. */
final class S3Errors {
    private S3Errors() {
    }

    /**
     * A failed operation. A missing key ({@code NoSuchKey}) is {@link RemoteResourceNotFoundException}; a missing
     * bucket is not, so that a deleted bucket is never mistaken for deleted segments.
     */
    static RemoteStorageException of(String operation, String bucket, String key, SdkException e) {
        String what = operation + " of s3://" + bucket + "/" + key + " failed: " + oneLine(e);
        if (e instanceof NoSuchKeyException || e instanceof AwsServiceException service
                && service.awsErrorDetails() != null && "NoSuchKey".equals(service.awsErrorDetails().errorCode())) {
            return new RemoteResourceNotFoundException(what, e);
        }
        return new RemoteStorageException(what, e);
    }

    /** The exception's message on one line. */
    static String oneLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }
}
