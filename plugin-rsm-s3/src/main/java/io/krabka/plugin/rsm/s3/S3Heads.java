package io.krabka.plugin.rsm.s3;

import io.krabka.spi.objectstore.RetentionMode;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.storage.RemoteStorageException;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;

/**
 * What S3 says of one object: {@code HeadObject}, by version where one is given.
 *
 * @param s3     the client
 * @param bucket the bucket
 */
record S3Heads(S3Client s3, String bucket) {

    /**
     * The object, of the version or the latest.
     *
     * @return empty if there is no such object or version (a latest version that is a delete marker included)
     * @throws RemoteStorageException if the service fails the request
     */
    Optional<StoredObject> head(String key, Optional<String> version) throws RemoteStorageException {
        HeadObjectResponse response;
        try {
            response = s3.headObject(b -> b.bucket(bucket).key(key).versionId(version.orElse(null)));
        } catch (SdkException e) {
            if (S3Errors.isNotFound(e) || S3Errors.status(e) == 404 || (version.isPresent() && isNoSuchVersion(e))) {
                return Optional.empty();
            }
            throw S3Errors.of("HeadObject" + version.map(v -> " version " + v).orElse(""), bucket, key, e);
        }
        return Optional.of(new StoredObject(
                key,
                response.contentLength(),
                present(response.eTag()),
                present(response.versionId()),
                retention(response.objectLockMode()),
                Optional.ofNullable(response.objectLockRetainUntilDate()),
                false));
    }

    /**
     * Whether a HEAD of a version answered that there is no such object: AWS gives 400 for a malformed version id
     * and 405 for the version of a delete marker, neither with a body.
     */
    private static boolean isNoSuchVersion(SdkException e) {
        return S3Errors.status(e) == 400 || S3Errors.status(e) == 405;
    }

    /** An Object Lock mode in the SPI's terms; one this SDK does not know holds nothing the store can vouch for. */
    static RetentionMode retention(ObjectLockMode mode) {
        if (mode == ObjectLockMode.COMPLIANCE) {
            return RetentionMode.COMPLIANCE;
        }
        return mode == ObjectLockMode.GOVERNANCE ? RetentionMode.GOVERNANCE : RetentionMode.NONE;
    }

    /** A header's value; S3 leaves some out and some services send them empty. */
    static Optional<String> present(String value) {
        return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
    }
}
