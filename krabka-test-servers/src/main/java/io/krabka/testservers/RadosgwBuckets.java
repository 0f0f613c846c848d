package io.krabka.testservers;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ObjectLockEnabled;
import software.amazon.awssdk.services.s3.model.ObjectLockRetentionMode;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A JUnit 5 extension that gives a test class the JVM's radosgw ({@link Radosgw}) and a new, empty bucket of its
 * own, emptied (multipart uploads aborted) and removed after the class (the OSD holds data in RAM). Register it as
 * a static field:
 * {@snippet :
 * @RegisterExtension
 * static final RadosgwBuckets RGW = new RadosgwBuckets();
 * }
 * {@link #complianceLocked(int)} gives a bucket under S3 Object Lock instead.
 */
public final class RadosgwBuckets implements BeforeAllCallback, AfterAllCallback {
    /** Days of default COMPLIANCE retention; 0 for a plain bucket. */
    private final int complianceDays;

    private S3Server server;
    private String bucket;

    /** An extension for a plain bucket; the server and bucket come before the class's tests run. */
    public RadosgwBuckets() {
        this(0);
    }

    private RadosgwBuckets(int complianceDays) {
        this.complianceDays = complianceDays;
    }

    /**
     * An extension for a bucket created with Object Lock (so versioned) and a default COMPLIANCE retention of
     * {@code days}: radosgw refuses to delete its objects' versions until then, so the bucket is left behind with
     * its objects, freed when the JVM's radosgw stops (a server reused through {@link Radosgw#RUNNING_ENDPOINT}
     * keeps them).
     */
    public static RadosgwBuckets complianceLocked(int days) {
        if (days < 1) {
            throw new IllegalArgumentException("a default retention of at least one day: " + days);
        }
        return new RadosgwBuckets(days);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = Radosgw.get();
        bucket = BucketNames.of(context);
        try (S3Client s3 = server.client()) {
            if (complianceDays == 0) {
                s3.createBucket(b -> b.bucket(bucket));
                return;
            }
            s3.createBucket(b -> b.bucket(bucket).objectLockEnabledForBucket(true));
            s3.putObjectLockConfiguration(b -> b.bucket(bucket)
                    .objectLockConfiguration(c -> c.objectLockEnabled(ObjectLockEnabled.ENABLED)
                            .rule(r -> r.defaultRetention(d ->
                                    d.mode(ObjectLockRetentionMode.COMPLIANCE).days(complianceDays)))));
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (bucket == null) {
            return;
        }
        try (S3Client s3 = server.client()) {
            s3.listMultipartUploadsPaginator(b -> b.bucket(bucket))
                    .uploads()
                    .forEach(u -> s3.abortMultipartUpload(
                            b -> b.bucket(bucket).key(u.key()).uploadId(u.uploadId())));
            if (complianceDays > 0) {
                return;
            }
            for (S3Object object :
                    s3.listObjectsV2Paginator(b -> b.bucket(bucket)).contents()) {
                s3.deleteObject(b -> b.bucket(bucket).key(object.key()));
            }
            s3.deleteBucket(b -> b.bucket(bucket));
        }
    }

    /** The server. */
    public S3Server server() {
        return server;
    }

    /** The class's bucket. */
    public String bucket() {
        return bucket;
    }
}
