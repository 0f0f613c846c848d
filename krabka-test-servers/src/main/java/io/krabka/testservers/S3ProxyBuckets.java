package io.krabka.testservers;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;

/**
 * A JUnit 5 extension that gives a test class the JVM's S3Proxy ({@link S3Proxy}) and a new bucket of its own,
 * plain or versioned. Buckets are not emptied after the class: S3Proxy holds them in memory and stops with the JVM.
 * {@snippet :
 * @RegisterExtension
 * static final S3ProxyBuckets PROXY = S3ProxyBuckets.versioned();
 * }
 */
public final class S3ProxyBuckets implements BeforeAllCallback {
    private final boolean versioned;
    private S3Server server;
    private String bucket;

    private S3ProxyBuckets(boolean versioned) {
        this.versioned = versioned;
    }

    /** An extension for a bucket that keeps no versions. */
    public static S3ProxyBuckets plain() {
        return new S3ProxyBuckets(false);
    }

    /** An extension for a bucket with versioning enabled. */
    public static S3ProxyBuckets versioned() {
        return new S3ProxyBuckets(true);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = S3Proxy.get();
        bucket = BucketNames.of(context);
        try (S3Client s3 = server.client()) {
            s3.createBucket(b -> b.bucket(bucket));
            if (versioned) {
                s3.putBucketVersioning(
                        b -> b.bucket(bucket).versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
            }
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
