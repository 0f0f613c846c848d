package io.krabka.plugin.rsm.s3;

import io.krabka.spi.objectstore.RetentionMode;
import io.krabka.spi.objectstore.StoreProtection;
import io.krabka.spi.storage.RemoteStorageException;
import java.time.Duration;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.DefaultRetention;
import software.amazon.awssdk.services.s3.model.ObjectLockConfiguration;
import software.amazon.awssdk.services.s3.model.ObjectLockEnabled;
import software.amazon.awssdk.services.s3.model.ObjectLockRetentionMode;

/** The protection of a bucket as S3 reports it: {@code GetBucketVersioning} and {@code GetObjectLockConfiguration}. */
final class BucketProtection {
    /** Object Lock's years are not defined in days; 365 is the least a year can be, so a retention is never overstated. */
    private static final long DAYS_PER_YEAR = 365;

    private BucketProtection() {}

    /**
     * The bucket's versioning and default retention, the detail in S3's words, e.g. "versioning Enabled, Object Lock
     * COMPLIANCE 30 days".
     *
     * @throws RemoteStorageException if either request fails, but for a bucket with no Object Lock configuration or
     *                                a service that does not implement Object Lock
     */
    static StoreProtection of(S3Client s3, String bucket) throws RemoteStorageException {
        String location = "s3://" + bucket;
        BucketVersioningStatus status;
        try {
            status = s3.getBucketVersioning(b -> b.bucket(bucket)).status();
        } catch (SdkException e) {
            throw S3Errors.ofBucket("GetBucketVersioning", bucket, e);
        }
        boolean versioned = status == BucketVersioningStatus.ENABLED;
        String versioning = status == null ? "versioning never enabled" : "versioning " + status;
        Optional<ObjectLockConfiguration> lock = lockConfiguration(s3, bucket);
        if (lock.isEmpty()) {
            return new StoreProtection(
                    location, versioned, RetentionMode.NONE, Optional.empty(), versioning + ", no Object Lock");
        }
        DefaultRetention retention =
                lock.get().rule() == null ? null : lock.get().rule().defaultRetention();
        if (lock.get().objectLockEnabled() != ObjectLockEnabled.ENABLED || retention == null) {
            return new StoreProtection(
                    location,
                    versioned,
                    RetentionMode.NONE,
                    Optional.empty(),
                    versioning + ", Object Lock "
                            + (lock.get().objectLockEnabled() == ObjectLockEnabled.ENABLED
                                    ? "enabled without a default retention"
                                    : "not enabled"));
        }
        RetentionMode mode = retention.mode() == ObjectLockRetentionMode.COMPLIANCE
                ? RetentionMode.COMPLIANCE
                : retention.mode() == ObjectLockRetentionMode.GOVERNANCE
                        ? RetentionMode.GOVERNANCE
                        : RetentionMode.NONE;
        String period = retention.days() != null ? plural(retention.days(), "day") : plural(retention.years(), "year");
        String detail = versioning + ", Object Lock " + retention.modeAsString() + " " + period;
        Optional<Duration> length = retention.days() != null
                ? Optional.of(Duration.ofDays(retention.days()))
                : Optional.ofNullable(retention.years()).map(y -> Duration.ofDays(y * DAYS_PER_YEAR));
        if (mode == RetentionMode.NONE || length.isEmpty() || !length.get().isPositive()) {
            // A mode this SDK does not know, or no period: nothing the store can vouch for.
            return new StoreProtection(location, versioned, RetentionMode.NONE, Optional.empty(), detail);
        }
        return new StoreProtection(location, versioned, mode, length, detail);
    }

    private static String plural(Integer count, String unit) {
        return count + " " + unit + (count != null && count == 1 ? "" : "s");
    }

    private static Optional<ObjectLockConfiguration> lockConfiguration(S3Client s3, String bucket)
            throws RemoteStorageException {
        try {
            return Optional.ofNullable(
                    s3.getObjectLockConfiguration(b -> b.bucket(bucket)).objectLockConfiguration());
        } catch (SdkException e) {
            // S3 says ObjectLockConfigurationNotFoundError (404); S3Proxy, which has no Object Lock, 501.
            if (S3Errors.errorCode(e)
                            .filter("ObjectLockConfigurationNotFoundError"::equals)
                            .isPresent()
                    || S3Errors.status(e) == 501) {
                return Optional.empty();
            }
            throw S3Errors.ofBucket("GetObjectLockConfiguration", bucket, e);
        }
    }
}
